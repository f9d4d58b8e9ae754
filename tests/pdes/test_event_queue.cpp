// Every queue returned by make_event_queue() is driven side by side with a std::multiset ordered by
// pdes::before(); every popped event is compared field by field with the reference's first event.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "pdes/event_queue.hpp"

namespace rackscale::pdes {
namespace {

struct ByBefore {
  bool operator()(const Event& a, const Event& b) const { return before(a, b); }
};

// Distinct for distinct counters (multiplication by an odd constant is a bijection mod 2^64) but
// not increasing in push order, so a queue that breaks ties first-in-first-out fails.
std::uint64_t scrambled_seq(std::uint64_t counter) { return counter * 0x9E37'79B9'7F4A'7C15ULL; }

Event make_event(SimTime time, LpId src, std::uint64_t seq) {
  Event e;
  e.time = time;
  e.src = src;
  e.seq = seq;
  // Fields the order ignores, filled so that a queue mixing up events' bodies is caught.
  e.dst = static_cast<LpId>(seq >> 7);
  e.kind = static_cast<EventKind>(seq >> 13);
  e.aux = static_cast<std::uint32_t>(seq >> 29);
  e.payload = {seq, ~seq, seq ^ time, time};
  return e;
}

bool same_event(const Event& a, const Event& b) {
  return a.time == b.time && a.dst == b.dst && a.src == b.src && a.seq == b.seq &&
         a.kind == b.kind && a.aux == b.aux && a.payload == b.payload;
}

std::string describe(const Event& e) {
  return "(time " + std::to_string(e.time) + ", src " + std::to_string(e.src) + ", seq " +
         std::to_string(e.seq) + ")";
}

// A queue under test and its reference.
class Checked {
 public:
  explicit Checked(const std::string& name) : queue_(make_event_queue(name)) {}

  void push(SimTime time, LpId src) { push(make_event(time, src, scrambled_seq(++counter_))); }
  void push(const Event& e) {
    queue_->push(e);
    ref_.insert(e);
  }

  // pop_before(limit) on both; the popped event (if any) is stored in `popped`.
  testing::AssertionResult pop_before(SimTime limit, Event* popped = nullptr) {
    Event got{};
    const bool have = queue_->pop_before(limit, got);
    const bool expect = !ref_.empty() && ref_.begin()->time < limit;
    if (have != expect) {
      return testing::AssertionFailure()
             << "pop_before(" << limit << ") returned " << have << ", expected " << expect
             << (ref_.empty() ? std::string(" (reference empty)")
                              : " (reference first " + describe(*ref_.begin()) + ")");
    }
    if (!have) return testing::AssertionSuccess();
    const Event want = *ref_.begin();
    ref_.erase(ref_.begin());
    if (!same_event(got, want)) {
      return testing::AssertionFailure() << "popped " << describe(got) << ", expected "
                                         << describe(want) << " (pop #" << pops_ << ")";
    }
    ++pops_;
    if (popped != nullptr) *popped = got;
    return testing::AssertionSuccess();
  }

  testing::AssertionResult agrees() {
    const SimTime want = ref_.empty() ? kNever : ref_.begin()->time;
    const SimTime got = queue_->next_time();
    if (got != want) {
      return testing::AssertionFailure() << "next_time() " << got << ", expected " << want;
    }
    if (queue_->size() != ref_.size() || queue_->empty() != ref_.empty()) {
      return testing::AssertionFailure()
             << "size() " << queue_->size() << ", expected " << ref_.size();
    }
    return testing::AssertionSuccess();
  }

  testing::AssertionResult drain() {
    while (!ref_.empty()) {
      if (auto r = pop_before(kNever); !r) return r;
    }
    return agrees();
  }

  // Work done ahead of the pops (EventQueue::prepare) must not change what they return; the
  // reference has nothing to do.
  bool prepare(SimTime until) { return queue_->prepare(until); }

  [[nodiscard]] std::size_t size() const { return ref_.size(); }
  [[nodiscard]] SimTime first_time() const { return ref_.empty() ? kNever : ref_.begin()->time; }

 private:
  std::unique_ptr<EventQueue> queue_;
  std::multiset<Event, ByBefore> ref_;
  std::uint64_t counter_ = 0;
  std::uint64_t pops_ = 0;
};

class EventQueueTest : public testing::TestWithParam<std::string> {
 protected:
  Checked checked{GetParam()};
  std::mt19937_64 rng{0x5EED'0001};

  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) {  // inclusive
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
  }
  LpId any_src(LpId count) { return static_cast<LpId>(uniform(0, count - 1)); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng); }

  // Times around the current first time, reaching 5000 ps before it: a large share of pushes
  // lands before events already popped.
  SimTime around_first_time() {
    const SimTime first = checked.first_time() == kNever ? 100'000 : checked.first_time();
    return first - std::min<SimTime>(first, uniform(0, 5'000)) + uniform(0, 20'000);
  }

  // A dense cluster just after the first time inside a sparse spread: buckets overflow into finer
  // rungs, and pushes land in the gaps between a fine rung's range and its parent bucket's edge.
  SimTime at_several_scales_after_first_time() {
    const SimTime first = checked.first_time() == kNever ? 0 : checked.first_time();
    return first + (std::uint64_t{1} << uniform(0, 3) * 7) - 1 + uniform(0, 63);
  }

  // With this probability a step of random_stream() first lets the queue work ahead, up to a bound
  // around the first time (as a waiting rank does up to the next window's earliest end), or with
  // no bound, until it has nothing left to do.
  double prepare_share = 0;
  void maybe_prepare(const std::function<SimTime()>& draw_time) {
    if (!chance(prepare_share)) return;
    const SimTime first = checked.first_time();
    switch (uniform(0, 3)) {
      case 0:
        (void)checked.prepare(first == kNever ? kNever : first + uniform(0, 1'000));
        break;
      case 1:
        (void)checked.prepare(draw_time());
        break;
      case 2:
        (void)checked.prepare(first);
        break;
      default:
        // Bounded by the queue itself; the guard only stops a queue that never says it is done.
        for (int calls = 0; calls < 100'000 && checked.prepare(kNever); ++calls) {
        }
        break;
    }
  }

  // Interleaves pushes and pops in alternating growing and shrinking phases, so a ladder keeps
  // building and using up rungs; pop limits cluster around the first time. Ends with a drain.
  void random_stream(int steps, const std::function<SimTime()>& draw_time, LpId srcs) {
    for (int step = 0; step < steps; ++step) {
      maybe_prepare(draw_time);
      const double push_share = (step / 2000) % 2 == 0 ? 0.7 : 0.35;
      if (chance(push_share)) {
        checked.push(draw_time(), any_src(srcs));
      } else {
        SimTime limit = kNever;
        const SimTime first = checked.first_time();
        switch (uniform(0, 4)) {
          case 0:  // the boundary: an event at `limit` must stay
            limit = first;
            break;
          case 1:
            limit = first == kNever ? kNever : first + 1;
            break;
          case 2:
            limit = draw_time();
            break;
          default:
            break;
        }
        ASSERT_TRUE(checked.pop_before(limit)) << "step " << step;
      }
      if (chance(0.3)) {
        ASSERT_TRUE(checked.agrees()) << "step " << step;
      }
    }
    ASSERT_TRUE(checked.drain());
  }

  // The hold model: pop the first event, push one at its time plus an increment.
  void hold(std::size_t n, int holds, const std::function<SimTime()>& increment) {
    for (std::size_t i = 0; i < n; ++i) checked.push(increment(), any_src(1u << 20));
    for (int h = 0; h < holds; ++h) {
      Event e{};
      ASSERT_TRUE(checked.pop_before(kNever, &e)) << "hold " << h;
      checked.push(e.time + increment(), any_src(1u << 20));
    }
    ASSERT_TRUE(checked.drain());
  }
};

TEST_P(EventQueueTest, ReportsItsName) {
  EXPECT_EQ(make_event_queue(GetParam())->name(), GetParam());
}

TEST_P(EventQueueTest, EmptyQueueHasNothing) {
  auto queue = make_event_queue(GetParam());
  EXPECT_EQ(queue->next_time(), kNever);
  EXPECT_EQ(queue->size(), 0u);
  EXPECT_TRUE(queue->empty());
  Event out{};
  EXPECT_FALSE(queue->pop_before(kNever, out));
  queue->push(make_event(5, 1, 1));
  EXPECT_EQ(queue->size(), 1u);
  EXPECT_TRUE(queue->pop_before(kNever, out));
  EXPECT_EQ(queue->next_time(), kNever);
  EXPECT_TRUE(queue->empty());
}

TEST_P(EventQueueTest, EventAtLimitIsNotReturned) {
  checked.push(100, 2);
  checked.push(100, 1);
  checked.push(99, 7);
  checked.push(101, 0);
  ASSERT_TRUE(checked.pop_before(100));  // the event at 99
  ASSERT_TRUE(checked.agrees());
  ASSERT_TRUE(checked.pop_before(100));  // returns false, as the reference does
  ASSERT_EQ(checked.size(), 3u);
  ASSERT_TRUE(checked.agrees());
  ASSERT_TRUE(checked.pop_before(0));
  ASSERT_TRUE(checked.pop_before(101));  // (100, src 1)
  ASSERT_TRUE(checked.pop_before(101));  // (100, src 2)
  ASSERT_TRUE(checked.pop_before(101));  // nothing: 101 is at the limit
  ASSERT_EQ(checked.size(), 1u);
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, EventsAtTheEndOfTimeAreKeptButNeverPopped) {
  // No limit exceeds kNever, so such events stay; they count in size() but not in next_time().
  auto queue = make_event_queue(GetParam());
  for (std::uint64_t i = 0; i < 100; ++i) queue->push(make_event(kNever, 1, i));
  queue->push(make_event(kNever - 1, 1, 100));
  Event out{};
  ASSERT_TRUE(queue->pop_before(kNever, out));
  EXPECT_EQ(out.time, kNever - 1);
  EXPECT_FALSE(queue->pop_before(kNever, out));
  EXPECT_EQ(queue->next_time(), kNever);
  EXPECT_EQ(queue->size(), 100u);
  queue->push(make_event(3, 2, 101));
  ASSERT_TRUE(queue->pop_before(kNever, out));
  EXPECT_EQ(out.seq, 101u);
  EXPECT_EQ(queue->size(), 100u);
}

TEST_P(EventQueueTest, OrdersTiesBySourceThenSequence) {
  // Pushed in descending seq order for each source, sources interleaved.
  for (std::uint64_t seq = 40; seq-- > 0;) {
    for (LpId src : {3u, 0u, 2u}) checked.push(make_event(7, src, seq));
  }
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, RandomStreamWithManyTies) {
  // Times in [0, 8) and four sources: (time, src) ties on nearly every comparison, so the order
  // rests on seq.
  random_stream(
      60'000, [this] { return uniform(0, 7); }, 4);
}

TEST_P(EventQueueTest, RandomStreamWithPushesBeforePoppedTimes) {
  random_stream(80'000, [this] { return around_first_time(); }, 64);
}

TEST_P(EventQueueTest, RandomStreamWithPushesBeforePoppedTimesAndWorkAhead) {
  // With the queue working ahead before a fifth of the steps: pushes then land before, inside and
  // after what it sorted ahead.
  prepare_share = 0.2;
  random_stream(80'000, [this] { return around_first_time(); }, 64);
}

TEST_P(EventQueueTest, RandomStreamWithHugeTimeSpread) {
  // Every scale from 1 ps to 2^64-2 ps, plus exact powers of two around bucket edges.
  random_stream(
      80'000,
      [this]() -> SimTime {
        switch (uniform(0, 3)) {
          case 0:
            return uniform(0, kNever - 1);
          case 1:
            return uniform(0, std::uint64_t{1} << 63);
          case 2:
            return rng() >> uniform(1, 63);
          default:
            return (std::uint64_t{1} << uniform(0, 63)) - uniform(0, 1);
        }
      },
      16);
}

TEST_P(EventQueueTest, RandomStreamAtSeveralScalesAroundFirstTime) {
  random_stream(120'000, [this] { return at_several_scales_after_first_time(); }, 8);
}

TEST_P(EventQueueTest, RandomStreamAtSeveralScalesWithWorkAhead) {
  prepare_share = 0.2;
  random_stream(120'000, [this] { return at_several_scales_after_first_time(); }, 8);
}

TEST_P(EventQueueTest, PushesBetweenAFineRungAndItsParentBucketEdge) {
  // Shaped for the ladder (and harmless for the others): 200 events at 0..99 among 800 at
  // 10^4..10^6 put the cluster in one wide bucket, which becomes a rung of width-1 buckets ending
  // at 100, well before the wide bucket's edge.
  for (SimTime t = 0; t < 100; ++t) {
    checked.push(t, 1);
    checked.push(t, 0);
  }
  for (int i = 0; i < 800; ++i) checked.push(uniform(10'000, 1'000'000), any_src(4));
  const auto push_around_edges = [this] {
    for (const SimTime t : {99u, 100u, 101u, 500u, 2'047u, 2'048u, 2'049u, 9'999u}) {
      checked.push(t, any_src(4));
      checked.push(t, any_src(4));
    }
  };
  // While the fine rung is in use, then once its last bucket is in Bottom.
  for (int i = 0; i < 101; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  push_around_edges();
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  push_around_edges();
  ASSERT_TRUE(checked.agrees());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  for (const SimTime t : {200u, 100u, 3'000u}) checked.push(t, any_src(4));
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, OneEventPerPowerOfTwoAboveACluster) {
  // Each split of the earliest bucket strips only a few of the powers of two, so a ladder reaches
  // its depth limit and must sort what is left in Bottom.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 100; ++i) checked.push(uniform(0, 1), any_src(4));
    for (unsigned k = 1; k < 64; ++k) checked.push(std::uint64_t{1} << k, any_src(4));
    for (int i = 0; i < 120; ++i) ASSERT_TRUE(checked.pop_before(kNever));
    for (unsigned k = 1; k < 64; k += 3) checked.push((std::uint64_t{1} << k) + 1, any_src(4));
  }
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, LogUniformTimesNestDeeply) {
  // Times spread evenly over every power of two: whatever bucket holds the earliest times also
  // holds most of the events, so a ladder keeps splitting it into finer rungs, to its depth limit.
  auto log_uniform = [this] { return rng() >> uniform(0, 63); };
  for (int i = 0; i < 40'000; ++i) checked.push(log_uniform(), any_src(4));
  for (int i = 0; i < 60'000; ++i) {
    if (chance(0.4)) {
      checked.push(log_uniform(), any_src(4));
    } else {
      ASSERT_TRUE(checked.pop_before(kNever)) << "step " << i;
    }
  }
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, AllEqualTimes) {
  for (int i = 0; i < 20'000; ++i) checked.push(42, any_src(3));
  for (int i = 0; i < 5'000; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  // Equal times pushed after pops began, and a few earlier ones.
  for (int i = 0; i < 5'000; ++i) checked.push(i % 100 == 0 ? 41 : 42, any_src(3));
  ASSERT_TRUE(checked.agrees());
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, RefillsAfterDrainWithEarlierTimes) {
  for (int round = 0; round < 6; ++round) {
    // Each round starts earlier than the last round's events.
    const SimTime base = 1'000'000 - static_cast<SimTime>(round) * 150'000;
    for (int i = 0; i < 3'000; ++i) checked.push(base + uniform(0, 200'000), any_src(8));
    for (int i = 0; i < 2'000; ++i) ASSERT_TRUE(checked.pop_before(kNever));
    for (int i = 0; i < 500; ++i) checked.push(base + uniform(0, 400'000), any_src(8));
    ASSERT_TRUE(checked.drain());
  }
}

TEST_P(EventQueueTest, HoldModelExponential) {
  std::exponential_distribution<double> exp(1.0 / 1000.0);
  hold(5'000, 300'000, [&] { return static_cast<SimTime>(exp(rng)); });
}

TEST_P(EventQueueTest, HoldModelLargeQueue) {
  std::exponential_distribution<double> exp(1.0 / 800'000.0);
  hold(60'000, 200'000, [&] { return 100'000 + static_cast<SimTime>(exp(rng)); });
}

TEST_P(EventQueueTest, HoldModelWithTinyIncrements) {
  // Increments of 0..3 ps: most pushes tie the time just popped.
  hold(3'000, 200'000, [this] { return uniform(0, 3); });
}

TEST_P(EventQueueTest, HoldModelWithWorkAheadBetweenWindows) {
  // PHOLD's increments, handled in windows of 100,000 ps as the engine does: before each window
  // the queue works ahead to the end of the one after, then takes the pushes of a window's end.
  std::exponential_distribution<double> exp(1.0 / 800'000.0);
  const auto increment = [&] { return 100'000 + static_cast<SimTime>(exp(rng)); };
  for (int i = 0; i < 2'000; ++i) checked.push(increment(), any_src(1u << 20));
  SimTime window_end = 0;
  for (int window = 0; window < 3'000; ++window) {
    window_end = checked.first_time() + 100'000;
    while (checked.first_time() < window_end) {
      Event e{};
      ASSERT_TRUE(checked.pop_before(window_end, &e)) << "window " << window;
      checked.push(e.time + increment(), any_src(1u << 20));
    }
    for (int calls = 0; calls < 1'000 && checked.prepare(window_end + 100'000 - 1); ++calls) {
    }
    for (int i = 0; i < 3; ++i) checked.push(window_end + increment() - 100'000, any_src(1u << 20));
    ASSERT_TRUE(checked.agrees()) << "window " << window;
  }
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, WorkAheadEndsAndKeepsToItsBound) {
  // prepare() must say when it is done, whatever the bound: a waiting rank calls it in a loop.
  for (int i = 0; i < 50'000; ++i) checked.push(uniform(1'000'000, 1'000'000'000), any_src(16));
  // Nothing is at or before 999,999 ps, so no bucket starts there either.
  EXPECT_FALSE(checked.prepare(999'999));
  for (int round = 0; round < 3; ++round) {
    const SimTime until = round == 2 ? kNever : checked.first_time() + 1'000'000;
    int calls = 0;
    while (checked.prepare(until)) ASSERT_LT(++calls, 10'000) << "round " << round;
    EXPECT_FALSE(checked.prepare(until));
    // The ladder sorts a bucket per call, up to a few hundred entries in all; the heaps have
    // nothing to do.
    if (GetParam() == "ladder") {
      EXPECT_GT(calls, 0) << "round " << round;
    } else {
      EXPECT_EQ(calls, 0);
    }
    ASSERT_TRUE(checked.agrees());
    for (int i = 0; i < 1'000; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  }
  ASSERT_TRUE(checked.drain());
}

TEST_P(EventQueueTest, PushesIntoTheGapBeforeWhereWorkAheadStopped) {
  // Shaped for the ladder: a cluster at 0..999 and another at 10^6: once the first is popped, empty
  // buckets lie between the queue's position and the second. Working ahead to 500,000 must stop
  // without passing over them, because pushes may still land there.
  for (SimTime t = 0; t < 1'000; ++t) checked.push(t, any_src(4));
  for (SimTime t = 0; t < 1'000; ++t) checked.push(1'000'000 + t, any_src(4));
  for (int i = 0; i < 1'000; ++i) ASSERT_TRUE(checked.pop_before(kNever));
  (void)checked.prepare(500'000);
  for (const SimTime t : {2'000u, 300'000u, 600'000u, 999'999u}) checked.push(t, any_src(4));
  ASSERT_TRUE(checked.agrees());
  ASSERT_TRUE(checked.drain());
}

// The hint a queue gives for loading ahead (EventQueue::upcoming_destinations): with nothing pushed
// between two pops, whatever it names must be what the next pops return. Returns how many pops had
// the next destination named.
std::size_t check_upcoming_while_draining(EventQueue& queue) {
  std::vector<Event> popped;
  std::vector<EventQueue::Upcoming> hints;
  Event e;
  while (queue.pop_before(kNever, e)) {
    popped.push_back(e);
    hints.push_back(queue.upcoming_destinations());
  }
  std::size_t named = 0;
  for (std::size_t i = 0; i < popped.size(); ++i) {
    for (std::size_t ahead = 0; ahead < 2; ++ahead) {
      const LpId hint = hints[i][ahead];
      if (hint == kNoLp) continue;
      if (ahead == 0) ++named;
      const std::size_t next = i + 1 + ahead;
      EXPECT_LT(next, popped.size()) << "pop " << i << " named a destination after the last event";
      if (next < popped.size()) {
        EXPECT_EQ(hint, popped[next].dst) << "pop " << i << ", " << ahead + 1 << " ahead";
      }
    }
  }
  return named;
}

TEST_P(EventQueueTest, UpcomingDestinationsNameTheNextPops) {
  auto queue = make_event_queue(GetParam());
  std::uint64_t counter = 0;
  for (int i = 0; i < 20'000; ++i) queue->push(make_event(uniform(0, 1'000'000), 7, scrambled_seq(++counter)));
  std::size_t pops = queue->size();
  std::size_t named = check_upcoming_while_draining(*queue);
  // Then with late entries: half popped, and pushes before the last popped time, which the ladder keeps
  // apart from its sorted bottom.
  for (int i = 0; i < 20'000; ++i) queue->push(make_event(uniform(0, 1'000'000), 7, scrambled_seq(++counter)));
  Event e;
  SimTime last = 0;
  for (int i = 0; i < 10'000 && queue->pop_before(kNever, e); ++i) last = e.time;
  for (int i = 0; i < 2'000; ++i) {
    queue->push(make_event(last - std::min<SimTime>(last, uniform(0, 1'000)), 7, scrambled_seq(++counter)));
  }
  pops += queue->size();
  named += check_upcoming_while_draining(*queue);
  // The ladder names the next event but at a bottom's last (then a refill decides); drained without
  // pushes its bottoms hold two or three entries (a rung's buckets are sized for two), so two thirds
  // of the pops here (in PHOLD, with about 19 per bottom, nearly all). The heaps name none.
  if (GetParam() == "ladder") {
    EXPECT_GT(named, pops / 2) << named << " of " << pops;
  }
}

TEST(EventQueueFactory, UnknownNameThrowsListingValidNames) {
  try {
    (void)make_event_queue("nope");
    FAIL() << "make_event_queue(\"nope\") did not throw";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("nope"), std::string::npos) << message;
    for (const std::string& name : event_queue_names()) {
      EXPECT_NE(message.find(name), std::string::npos) << message;
    }
  }
}

TEST(EventQueueFactory, DefaultIsAValidName) {
  const auto& names = event_queue_names();
  EXPECT_NE(std::find(names.begin(), names.end(), default_event_queue()), names.end());
}

std::string queue_label(const testing::TestParamInfo<std::string>& param) { return param.param; }

INSTANTIATE_TEST_SUITE_P(AllQueues, EventQueueTest, testing::ValuesIn(event_queue_names()),
                         queue_label);

}  // namespace
}  // namespace rackscale::pdes

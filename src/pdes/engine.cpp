#include "pdes/engine.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <stdexcept>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/format.h>

#include "pdes/rank_reduce.hpp"
#include "pdes/window_exchange.hpp"

namespace rackscale::pdes {
namespace {
using Clock = std::chrono::steady_clock;
// One rank: events between two looks at the clock for progress, a few microseconds to a millisecond
// of handling, against one clock reading.
constexpr std::uint64_t kEventsBetweenProgressPolls = 1024;
double seconds_between(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}
double seconds_since(Clock::time_point start) { return seconds_between(start, Clock::now()); }
}  // namespace

Engine::Engine(boost::mpi::communicator comm, RankMap map, const EngineOptions& options)
    : comm_(std::move(comm)),
      map_(std::move(map)),
      rank_(comm_.rank()),
      seed_(options.seed),
      queue_(make_event_queue(options.queue)),
      sync_(make_synchronizer(options.sync, comm_)),
      local_by_id_(map_.lp_count(), nullptr),
      outboxes_(static_cast<std::size_t>(comm_.size())),
      name_of_([](LpId lp) { return fmt::format("LP {}", lp); }),
      progress_(options.progress ? options.progress : std::make_shared<NoProgress>()),
      work_gauge_([] { return WorkDone{}; }) {
  if (map_.ranks() != comm_.size())
    throw std::invalid_argument(
        fmt::format("engine: the rank map is for {} ranks but the run has {}", map_.ranks(), comm_.size()));
  stats_.rank = rank_;
  sync_->set_watchdog(WindowWatchdog(rank_, options.window_timeout_seconds));
}

Engine::~Engine() = default;

void Engine::add_lp(std::unique_ptr<LogicalProcess> lp) {
  const LpId id = lp->id();
  if (id >= map_.lp_count())
    throw std::invalid_argument(fmt::format("engine: LP {} is outside the rank map ({} LPs)", id, map_.lp_count()));
  if (!is_local(id))
    throw std::invalid_argument(
        fmt::format("engine: LP {} belongs to rank {}, not to rank {}", id, map_.owner(id), rank_));
  if (local_by_id_[id] != nullptr) throw std::invalid_argument(fmt::format("engine: LP {} added twice", id));
  lp->engine_ = this;
  lp->rng_ = CounterRng(seed_, id);
  local_by_id_[id] = lp.get();
  owned_.push_back(std::move(lp));
}

void Engine::add_link(const Link& link) {
  if (link.a >= map_.lp_count() || link.b >= map_.lp_count())
    throw std::invalid_argument(fmt::format("engine: link {}-{} names an LP outside the rank map ({} LPs)", link.a,
                                            link.b, map_.lp_count()));
  links_.push_back(link);
}

void Engine::declare_any_to_any_latency(SimTime latency) {
  any_to_any_latency_ = std::min(any_to_any_latency_, latency);
}

void Engine::set_work_gauge(WorkGauge gauge) { work_gauge_ = std::move(gauge); }

void Engine::set_lp_names(std::function<std::string(LpId)> name_of) { name_of_ = std::move(name_of); }

std::string Engine::lp_name(LpId lp) const { return name_of_(lp); }

void Engine::schedule(LogicalProcess& src, LpId dst, SimTime delay, EventKind kind, const Payload& payload,
                      std::uint32_t aux) {
  if (dst >= map_.lp_count())
    throw std::out_of_range(fmt::format("{} sent an event to LP {}, but the run has only {} LPs",
                                        lp_name(src.id_), dst, map_.lp_count()));
  const int owner = map_.owner(dst);
  if (owner != rank_) {
    if (delay < lookahead_) causality_error(src, dst, delay);
  } else if (delay == 0 && dst != src.id_) {
    // A zero-delay event to another LP could reach it after it handled later-ordered events at the
    // same time, and which of those it had handled would depend on the placement of LPs.
    throw std::logic_error(fmt::format("{} sent an event to {} with zero delay at {}; events between different "
                                       "LPs need a delay of at least 1 ps",
                                       lp_name(src.id_), lp_name(dst), format_time(now_)));
  }
  const SimTime time = saturating_add(now_, delay);
  if (time >= end_) return;  // would never be handled
  const Event event{time, dst, src.id_, src.next_seq_++, kind, aux, payload};
  if (owner == rank_) {
    queue_->push(event);
  } else {
    outboxes_[static_cast<std::size_t>(owner)].push_back(event);
    earliest_sent_ = std::min(earliest_sent_, time);
    ++stats_.remote_sent;
  }
}

void Engine::causality_error(const LogicalProcess& src, LpId dst, SimTime delay) const {
  const std::string bound =
      lookahead_ == kNever
          ? std::string("no link between these ranks was declared, so no event may cross them")
          : fmt::format("below the lookahead of {} ({} ps), the smallest latency of any link between ranks",
                        format_time(lookahead_), lookahead_);
  throw std::logic_error(fmt::format(
      "causality violation at {}: {} (rank {}) sent an event to {} (rank {}) with a delay of {} ({} ps), {}",
      format_time(now_), lp_name(src.id_), rank_, lp_name(dst), map_.owner(dst), format_time(delay), delay, bound));
}

void Engine::handle_until(SimTime limit) {
  Event event;
  while (queue_->pop_before(limit, event)) {
    // A two-step pipeline of loads: the LP handled after next has its table entry fetched, the next LP
    // (whose entry was fetched during the last handling) its first four lines, which hold the LP's
    // base (engine, sequence, random stream) and the start of the model's state.
    const EventQueue::Upcoming& upcoming = queue_->upcoming_destinations();
    if (upcoming[1] != kNoLp) __builtin_prefetch(&local_by_id_[upcoming[1]]);
    if (upcoming[0] != kNoLp) {
      const char* lp = reinterpret_cast<const char*>(local_by_id_[upcoming[0]]);
      for (int line = 0; line < 4; ++line) __builtin_prefetch(lp + 64 * line);
    }
    now_ = event.time;
    local_by_id_[event.dst]->handle(event);
    if (++stats_.events_processed == next_progress_poll_) {
      poll_progress();
      if (solo_cut_wanted()) return;  // one rank: a window boundary here, where the run may stop
    }
  }
}

void Engine::poll_progress() {
  next_progress_poll_ += kEventsBetweenProgressPolls;
  if (progress_->due(seconds_since(run_start_))) report_progress(now_);
}

void Engine::report_progress(SimTime simulated) {
  const WorkDone work = work_gauge_();
  const std::array<std::uint64_t, 3> mine{stats_.events_processed, work.done, work.total};
  std::array<std::uint64_t, 3> all{};
  reduce_to_root(comm_, mine, all, Reduction::sum);
  if (rank_ == 0) progress_->report({simulated, end_, all[0], {all[1], all[2]}, seconds_since(run_start_)});
}

SimTime Engine::end_window(const std::string& failure, Clock::time_point now, SimTime prepare_until) {
  const SimTime local_next = std::min(queue_->next_time(), earliest_sent_);
  earliest_sent_ = kNever;
  const bool progress_wanted = rank_ == 0 && progress_->due(seconds_between(run_start_, now));
  const WindowEnd agreed =
      sync_->end_window(outboxes_, local_next, prepare_until, progress_wanted, failure, *queue_, stats_);
  if (agreed.report_progress && agreed.global_next < end_) report_progress(agreed.global_next);
  return agreed.global_next;
}

EngineStats Engine::run(SimTime end) {
  if (ran_) throw std::logic_error("engine: run() may be called once");
  ran_ = true;
  run_start_ = Clock::now();
  // The display is finished however the run ends, so an error message starts on a line of its own.
  struct FinishProgress {
    ProgressMonitor* monitor;
    ~FinishProgress() {
      if (monitor != nullptr) monitor->finish();
    }
  } finish_progress{rank_ == 0 ? progress_.get() : nullptr};
  end_ = end;
  last_checkpoint_ = run_start_;
  if (comm_.size() == 1) next_progress_poll_ = stats_.events_processed + kEventsBetweenProgressPolls;
  std::sort(owned_.begin(), owned_.end(), [](const auto& a, const auto& b) { return a->id() < b->id(); });
  stats_.lps = owned_.size();

  SimTime local_lookahead = min_cross_rank_latency(links_, map_);
  if (comm_.size() > 1) local_lookahead = std::min(local_lookahead, any_to_any_latency_);
  lookahead_ = min_over_ranks(comm_, local_lookahead);
  stats_.lookahead = lookahead_;

  // A model exception on one rank must not leave the others blocked in the next exchange: it becomes
  // this rank's failure message, and end_window() makes every rank throw it together.
  std::string failure;
  const auto describe = [this](const std::exception& e) {
    return fmt::format("rank {} at {}: {}", rank_, format_time(now_), e.what());
  };

  if (!restored_) {
    now_ = 0;
    try {
      for (const auto& lp : owned_) lp->init();
    } catch (const std::exception& e) {
      failure = describe(e);
    }
  }
  // One clock reading per phase boundary: the hot loop of short windows pays two per window.
  auto mark = Clock::now();
  // Nothing is known of the first window's end before the first exchange.
  SimTime next = end_window(failure, mark, 0);
  while (next < end_) {
    const SimTime limit = std::min(saturating_add(next, lookahead_), end_);
    const auto handled = Clock::now();
    stats_.sync_seconds += seconds_between(mark, handled);
    try {
      handle_until(limit);
    } catch (const std::exception& e) {
      failure = describe(e);
    }
    mark = Clock::now();
    stats_.process_seconds += seconds_between(handled, mark);
    ++stats_.windows;
    // Every event left is at or after `limit`, so the next window runs to at least limit + lookahead:
    // the events before that are certain to be handled next, and the queue may sort them while this
    // rank waits.
    next = end_window(failure, mark, saturating_add(limit, lookahead_) - 1);
    if (stop_at_boundary(next)) break;
  }
  stats_.sync_seconds += seconds_since(mark);
  if (stats_.stopped) {
    // Stopped before the end: the LPs are not finished, so that a restart continues where this left.
    stats_.final_time = max_over_ranks(comm_, now_);
    stats_.wall_seconds = wall_before_ + seconds_since(run_start_);
    stats_.peak_memory_bytes = peak_memory_bytes();
    return stats_;
  }

  // now_ is the time of the last event this rank handled.
  stats_.final_time = max_over_ranks(comm_, now_);
  now_ = end_ == kNever ? stats_.final_time : end_;
  try {
    for (const auto& lp : owned_) lp->finish();
  } catch (const std::exception& e) {
    failure = describe(e);
  }
  const int lowest_failing_rank =
      boost::mpi::all_reduce(comm_, failure.empty() ? comm_.size() : rank_, boost::mpi::minimum<int>());
  if (lowest_failing_rank < comm_.size()) raise_window_failure(comm_, lowest_failing_rank, failure);
  stats_.wall_seconds = wall_before_ + seconds_since(run_start_);
  stats_.peak_memory_bytes = peak_memory_bytes();
  return stats_;
}

}  // namespace rackscale::pdes

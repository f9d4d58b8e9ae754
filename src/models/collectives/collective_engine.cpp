#include "models/network/fidelity.hpp"
#include "models/collectives/collective_engine.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <unordered_map>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"
#include "models/collectives/closed_form.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/collectives/member_layouts.hpp"
#include "models/collectives/send_pacer.hpp"
#include "pdes/checkpoint_containers.hpp"

namespace rackscale::models::collectives {

namespace {
class Engine final : public CollectiveEngine, private Outbox {
  struct Active {
    std::unique_ptr<CallState> state;
    CallRecord record;
    Completion done;
  };
  // A device has few calls in flight at once: a vector beats a hash map (and keeps them in start order).
  // The state's address is kept beside the key, so a delivery reaches it without first loading the
  // Active record; the first few are kept inside the engine, and these members come first, so that a
  // delivery finds its call in the cache lines of the engine's own start (its table pointers) instead
  // of two dependent misses further on (docs/performance.md).
  struct Running {
    std::uint32_t key;
    CallState* state;  // active->state
    std::unique_ptr<Active> active;
  };
  static constexpr std::size_t kInlineCalls = 4;
  std::uint32_t key_ = 0;  // the call whose state is sending (set at each delivery: next to the table pointers)
  // Made at the first send in analytical fidelity; here, not behind the memo, since every message a
  // device sends reads it (at the object's end it was a cache miss per message, docs/performance.md).
  std::unique_ptr<SendPacer> pacer_;
  boost::container::small_vector<Running, kInlineCalls> active_;
  // Deliveries for calls not started here yet, by key (rare; here among the hot members so that a start
  // sees it empty without touching a further line).
  std::unordered_map<std::uint32_t, std::vector<network::Delivery>> early_;
  static constexpr std::size_t kMemoEntries = 8;
  std::array<std::uint64_t, kMemoEntries> memo_tags_{};  // memo_tag() of each memo_ entry

 public:
  Engine(const network::ClusterSpec& cluster, const network::Topology& topology, const CollectiveOptions& options,
         std::shared_ptr<MemberLayouts> layouts)
      : cluster_(cluster),
        topology_(topology),
        options_(options),
        layouts_(std::move(layouts)) {}

  void start(network::DeviceLp& device, const CollectiveCall& call, Completion done) override {
    if (call.key >= accelerator::kCollectiveKeyLimit)
      throw std::invalid_argument(fmt::format("collective: call key {} is not below 2^20", call.key));
    if (call.members.empty() || call.rank >= call.members.size() || call.members[call.rank] != device.device())
      throw std::invalid_argument(fmt::format("collective {}: device {} is not member {} of the call's {} members",
                                              call.key, device.device(), call.rank, call.members.size()));
    if (find(call.key) != nullptr)
      throw std::invalid_argument(fmt::format("collective: device {} started call {} while a call with that key is "
                                              "still running",
                                              device.device(), call.key));
    CallPlan plan = plan_for(device, call);  // begun below, before the memo can change
    Active a;
    a.record = {call.key, call.kind, plan.algorithm, call.bytes, static_cast<std::uint32_t>(call.members.size()),
                device.time(), device.time()};
    a.done = std::move(done);
    a.state = std::move(plan.state);
    if (!a.state) {  // nothing to exchange: an empty or one-member call
      if (!early_.empty()) early_.erase(call.key);
      a.done(a.record);
      return;
    }
    const std::uint32_t key = call.key;
    CallState* const started = a.state.get();
    active_.push_back({key, started, std::make_unique<Active>(std::move(a))});
    key_ = key;
    started->begin(device, *this);
    if (const auto early = early_.empty() ? early_.end() : early_.find(key); early != early_.end()) {
      const std::vector<network::Delivery> waiting = std::move(early->second);
      early_.erase(early);
      for (const network::Delivery& d : waiting) {
        key_ = key;
        started->receive(device, *this, d.src_device, accelerator::collective_index(d.tag));
      }
    }
    finish_if_done(device, key);
  }

  void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) override {
    const std::uint32_t key = accelerator::collective_key(delivery.tag);
    CallState* const state = find(key);
    if (state == nullptr) {  // its call has not started here yet
      early_[key].push_back(delivery);
      return;
    }
    key_ = key;
    state->receive(device, *this, delivery.src_device, accelerator::collective_index(delivery.tag));
    finish_if_done(device, key);
  }

  void on_timer(network::DeviceLp& device, const pdes::Event& event) override {
    const auto wake = event.as<CallWakeUp>();
    if (wake.marker != kWakeCall)
      throw std::logic_error(fmt::format("collectives: device {} got a timer that is no call's wake-up",
                                         device.device()));
    const std::uint32_t key = wake.key;
    CallState* const state = find(key);
    if (state == nullptr) return;  // cannot happen: a call waits for its own wake-up
    key_ = key;
    state->wake(device, *this);
    finish_if_done(device, key);
  }

  void save(boost::archive::binary_oarchive& out) const override {
    pdes::save_sorted(out, early_, [&](const std::vector<network::Delivery>& waiting) {
      std::uint64_t count = waiting.size();
      out & count;
      for (const network::Delivery& d : waiting) out & d.id & d.src_device & d.bytes & d.tag;
    });
    std::uint64_t calls = active_.size();
    out & calls;
    for (const Running& r : active_) {  // in start order, which finish_if_done's search follows
      const CallRecord& record = r.active->record;
      const auto algorithm = static_cast<std::uint8_t>(record.algorithm);
      out & r.key & algorithm & record.start;
      r.state->save(out);
    }
    const bool paced = pacer_ != nullptr;
    out & paced;
    if (paced) pacer_->save(out);
  }

  void load(network::DeviceLp& device, boost::archive::binary_iarchive& in, const Resume& resume) override {
    pdes::load_sorted(in, early_, [&](std::vector<network::Delivery>& waiting) {
      std::uint64_t count = 0;
      in & count;
      waiting.resize(count);
      for (network::Delivery& d : waiting) in & d.id & d.src_device & d.bytes & d.tag;
    });
    std::uint64_t calls = 0;
    in & calls;
    active_.clear();
    for (std::uint64_t c = 0; c < calls; ++c) {
      std::uint32_t key = 0;
      std::uint8_t algorithm = 0;
      pdes::SimTime started = 0;
      in & key & algorithm & started;
      Resumed resumed = resume(key);
      const CollectiveCall& call = *resumed.call;
      CallPlan plan = plan_for(device, call);
      if (call.key != key || !plan.state || static_cast<std::uint8_t>(plan.algorithm) != algorithm)
        throw std::invalid_argument(fmt::format("device {}'s collective call {} does not plan again as it was saved",
                                                device.device(), key));
      plan.state->load(in);
      Active a;
      a.record = {key, call.kind, plan.algorithm, call.bytes, static_cast<std::uint32_t>(call.members.size()), started,
                  started};
      a.done = std::move(resumed.done);
      a.state = std::move(plan.state);
      CallState* const state = a.state.get();
      active_.push_back({key, state, std::make_unique<Active>(std::move(a))});
    }
    bool paced = false;
    in & paced;
    if (paced) pacer().load(in);
  }

 private:
  void send(network::DeviceLp& device, std::uint32_t dst_device, std::uint64_t bytes, std::uint32_t channel,
            std::uint32_t index) override {
    const std::uint64_t tag = accelerator::collective_tag(key_, index);
    // One flow per channel (and per call), so ECMP hashes channels onto different paths.
    const std::uint64_t flow = (static_cast<std::uint64_t>(key_) << 32) | channel;
    if (!network::models_contention(device.network().spec.fidelity))
      pacer().send(device, dst_device, bytes, flow, tag);
    else
      device.send_message(dst_device, bytes, flow, tag);
  }

  void signal(network::DeviceLp& device, std::uint32_t dst_device, std::uint32_t index,
              pdes::SimTime not_before) override {
    (void)device.send_signal(dst_device, accelerator::collective_tag(key_, index), not_before);
  }

  // NVLS traffic goes into the switch through the device's own scale-up port queue in both fidelities
  // (network/switch_multimem.hpp), so the pacer has nothing to do for it.
  void reduce_in_switch(network::DeviceLp& device, std::uint32_t owner_device, std::uint32_t contributors,
                        std::uint64_t bytes, std::uint32_t index) override {
    (void)device.reduce_in_switch(owner_device, contributors, bytes, accelerator::collective_tag(key_, index));
  }
  void multicast(network::DeviceLp& device, const network::MulticastGroup& group, std::uint64_t bytes,
                 std::uint32_t index) override {
    (void)device.multicast(group, bytes, accelerator::collective_tag(key_, index));
  }

  // A timer's record: kWakeCall marks a call's own wake-up (and `key` names the call), the only timer here.
  static constexpr std::uint32_t kWakeCall = 1;
  struct CallWakeUp {
    std::uint32_t key;
    std::uint32_t marker;
  };

  void wake_at(network::DeviceLp& device, pdes::SimTime at) override {
    device.schedule(at - device.time(), kCollectiveTimerKind, pdes::to_payload(CallWakeUp{key_, kWakeCall}));
  }

  // How `call` runs: the closed form or a state machine sending messages (collective_plan.hpp).
  CallPlan plan_for(network::DeviceLp& device, const CollectiveCall& call) {
    const std::uint64_t print = call.fingerprint != 0 ? call.fingerprint : members_fingerprint(call.members);
    // A remembered call was planned in closed form, which depends on its member list only: no need to
    // look its layout up again (a hash probe that misses the cache on most calls).
    if (const CallMemo* memo = remembered(call, print))
      return plan_closed_form(call, memo->timing, *memo->traffic, *memo->twins);
    const MemberLayout& layout = layouts_->of(cluster_, call.members, print);
    if (!use_closed_form(cluster_, layout, device.network().spec)) return plan_call(cluster_, call, options_, layout);
    const CallMemo& memo = remember(device, call, print, layout);
    return plan_closed_form(call, memo.timing, *memo.traffic, *memo.twins);
  }

  void finish_if_done(network::DeviceLp& device, std::uint32_t key) {
    const auto it = std::find_if(active_.begin(), active_.end(), [&](const Running& r) { return r.key == key; });
    if (it == active_.end() || !it->state->finished()) return;
    Active a = std::move(*it->active);
    active_.erase(it);
    a.record.end = device.time();
    a.done(a.record);  // last: it may start this device's next call
  }

  // A device's program repeats the same few calls (its TP all-reduce of one size, its DP reduce-scatter
  // of each bucket) thousands of times an iteration: their closed-form timing and messages-mode traffic
  // are remembered for the last few distinct calls. Member lists of up to kMemoMembers are kept and
  // compared whole; larger groups (data parallelism over hundreds of devices, where recomputing the
  // traffic of every call dominated the run) are recognized by their size and a 64-bit fingerprint, since
  // a device belongs to only a handful of groups and keeping a copy of each would cost memory per device.
  static constexpr std::size_t kMemoMembers = 64;
  struct CallMemo {
    CollectiveKind kind{};
    Algorithm algorithm{};
    std::uint64_t bytes = 0;
    std::uint32_t rank = 0, root = 0;
    std::size_t member_count = 0;
    std::uint64_t fingerprint = 0;
    std::vector<std::uint32_t> members;  // empty for groups larger than kMemoMembers
    ClosedFormTiming timing;
    std::shared_ptr<const CallTraffic> traffic;
    std::shared_ptr<const std::vector<TwinTraffic>> twins;  // one-replica runs: what the device's twins send
  };
  // The remembered closed form of `call` (whose members' fingerprint is `print`), or none.
  const CallMemo* remembered(const CollectiveCall& call, std::uint64_t print) const {
    const bool small = call.members.size() <= kMemoMembers;
    const std::uint64_t tag = memo_tag(call, print);
    for (std::size_t e = 0; e < kMemoEntries; ++e) {
      if (memo_tags_[e] != tag) continue;
      const CallMemo& m = memo_[e];
      if (m.traffic && m.kind == call.kind && m.algorithm == call.algorithm && m.bytes == call.bytes &&
          m.rank == call.rank && m.root == call.root && m.member_count == call.members.size() &&
          m.fingerprint == print && (!small || m.members == call.members))
        return &m;
    }
    return nullptr;
  }
  // `call`'s closed form worked out and remembered in place of the oldest entry.
  const CallMemo& remember(network::DeviceLp& device, const CollectiveCall& call, std::uint64_t print,
                           const MemberLayout& layout) {
    const bool small = call.members.size() <= kMemoMembers;
    const std::uint64_t tag = memo_tag(call, print);
    memo_tags_[next_memo_] = tag;
    CallMemo& m = memo_[next_memo_];
    m = {call.kind,
         call.algorithm,
         call.bytes,
         call.rank,
         call.root,
         call.members.size(),
         print,
         small ? call.members : std::vector<std::uint32_t>{},
         time_closed_form(cluster_, call, layout),
         std::make_shared<const CallTraffic>(messages_traffic(cluster_, call, options_, layout)),
         twin_traffic(device, call, layout)};
    next_memo_ = (next_memo_ + 1) % kMemoEntries;
    return m;
  }
  // In a one-replica run (network/replica_mirror.hpp), what this device's twins in the other replicas send
  // over their part of `call`: in a group that spans replicas a twin is a member of the same call, at its
  // own rank; otherwise it is at this device's rank in the same call of its own replica, whose members
  // are the call's translated by the replica's offset. In a full run, one shared empty list: no
  // allocation per remembered call.
  std::shared_ptr<const std::vector<TwinTraffic>> twin_traffic(network::DeviceLp& device, const CollectiveCall& call,
                                                               const MemberLayout& layout) {
    static const auto kNoTwins = std::make_shared<const std::vector<TwinTraffic>>();
    const network::ReplicaMirror& mirror = device.network().mirror;
    if (mirror.replicas() == 1) return kNoTwins;
    auto twins = std::make_shared<std::vector<TwinTraffic>>();
    const bool spans = !mirror.simulated(call.members.back());
    for (std::uint32_t r = 1; r < mirror.replicas(); ++r) {
      CollectiveCall twin = call;
      const std::uint32_t device_r = mirror.twin(device.device(), r);
      if (spans) {
        const auto at = std::find(call.members.begin(), call.members.end(), device_r);
        if (at == call.members.end())
          throw std::logic_error(fmt::format("one-replica run: device {}'s twin {} is not in its call's group",
                                             device.device(), device_r));
        twin.rank = static_cast<std::uint32_t>(at - call.members.begin());
      } else {
        for (std::uint32_t& m : twin.members) m = mirror.twin(m, r);
      }
      twin.fingerprint = 0;
      twins->push_back({device_r, messages_traffic(cluster_, twin, options_,
                                                  spans ? layout : analyse_members(cluster_, twin.members))});
    }
    return twins;
  }

  // A digest of what identifies a call, for a first comparison against one line of tags instead of the
  // entries themselves (about 100 bytes each: a start scanning all eight touched a dozen lines).
  // (Only a filter: the entry is compared in full before it is used, so truncations here are harmless.)
  static std::uint64_t memo_tag(const CollectiveCall& call, std::uint64_t fingerprint) noexcept {
    const std::array<std::uint32_t, 7> identity{static_cast<std::uint32_t>(call.kind),
                                                static_cast<std::uint32_t>(call.algorithm),
                                                static_cast<std::uint32_t>(call.bytes),
                                                static_cast<std::uint32_t>(call.bytes >> 32),
                                                call.rank,
                                                call.root,
                                                static_cast<std::uint32_t>(call.members.size())};
    return members_fingerprint(identity) ^ fingerprint;
  }
  std::array<CallMemo, kMemoEntries> memo_;
  std::size_t next_memo_ = 0;

  SendPacer& pacer() {
    if (!pacer_) pacer_ = std::make_unique<SendPacer>(topology_);
    return *pacer_;
  }

  const network::ClusterSpec& cluster_;
  const network::Topology& topology_;
  CollectiveOptions options_;
  std::shared_ptr<MemberLayouts> layouts_;
  [[nodiscard]] CallState* find(std::uint32_t key) noexcept {
    for (const Running& r : active_)
      if (r.key == key) return r.state;
    return nullptr;
  }
};
}  // namespace

std::uint64_t members_fingerprint(std::span<const std::uint32_t> members) noexcept {
  std::uint64_t h = members.size();
  for (const std::uint32_t m : members) {
    h = (h ^ m) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
  }
  return h;
}

void CollectiveEngine::save(boost::archive::binary_oarchive& /*out*/) const {
  throw std::logic_error("this collective engine cannot be checkpointed");
}

void CollectiveEngine::load(network::DeviceLp& /*device*/, boost::archive::binary_iarchive& /*in*/,
                            const Resume& /*resume*/) {
  throw std::logic_error("this collective engine cannot be checkpointed");
}

std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                         const network::Topology& topology) {
  return make_collective_engine(cluster, topology, CollectiveOptions{});
}

std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                         const network::Topology& topology,
                                                         const CollectiveOptions& options) {
  return make_collective_engine(cluster, topology, options, std::make_shared<MemberLayouts>());
}

std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                         const network::Topology& topology,
                                                         const CollectiveOptions& options,
                                                         std::shared_ptr<MemberLayouts> layouts) {
  return std::make_unique<Engine>(cluster, topology, options, std::move(layouts));
}

}  // namespace rackscale::models::collectives

#pragma once
// From a call to this member's state machine: which algorithm runs (the requested one, NCCL's choice
// for `automatic`, or a documented fallback), over how many channels and pipeline pieces.
//
// Fallbacks (the CallRecord says what ran): broadcast, reduce, all-to-all, gather, scatter and sendrecv
// have one algorithm each (the ring chain; the staggered pairwise exchange; point-to-point sends, all
// recorded as `ring`); tree and hierarchical are all-reduce
// only and run as ring otherwise; halving-doubling reduce-scatter / all-gather need a power-of-two
// member count (ring otherwise); hierarchical needs a regular layout over several domains with several
// members each (ring otherwise); NVLS runs all-reduce, reduce-scatter and all-gather inside one NVSwitch
// domain (ring otherwise), and is refused outright on a cluster that has no NVLS (nvls.hpp).
#include <cstdint>
#include <memory>

#include "models/collectives/call_state.hpp"
#include "models/collectives/closed_form.hpp"
#include "models/collectives/collective_engine.hpp"
#include "models/collectives/member_layout.hpp"

namespace rackscale::models::collectives {

// Channel counts by default (CollectiveOptions::channels == 0), and why:
inline constexpr std::uint32_t kMaxChannels = 64;       // NCCL's MAXCHANNELS
inline constexpr std::uint32_t kMinSpanningChannels = 2;  // across domains: at least two flows for ECMP

struct CallPlan {
  Algorithm algorithm = Algorithm::ring;
  std::uint32_t channels = 1;
  std::uint32_t pieces = 1;
  std::unique_ptr<CallState> state;  // null: nothing to exchange (0 bytes or one member)
};

// Whether `kind` runs one way whatever is asked for (recorded as Algorithm::ring): broadcast and reduce (a
// chain), all-to-all, gather, scatter and sendrecv (point-to-point sends).
[[nodiscard]] constexpr bool has_one_algorithm(CollectiveKind kind) noexcept {
  return kind != CollectiveKind::all_reduce && kind != CollectiveKind::reduce_scatter &&
         kind != CollectiveKind::all_gather;
}

// Throws std::invalid_argument for NVLS on a cluster without it, for a root that is not a member and for
// calls too large to number (more than 2^20 messages per call even without channels or pipelining).
[[nodiscard]] CallPlan plan_call(const network::ClusterSpec& cluster, const CollectiveCall& call,
                                 const CollectiveOptions& options);
// The same with the members' layout already worked out (analyse_members(cluster, call.members)).
[[nodiscard]] CallPlan plan_call(const network::ClusterSpec& cluster, const CollectiveCall& call,
                                 const CollectiveOptions& options, const MemberLayout& layout);

// Whether `network` (network.collectives, network.fidelity) wants `call` as a closed form rather than
// as messages: always, never, or (automatic) where the network could not add contention to it anyway.
[[nodiscard]] bool use_closed_form(const network::ClusterSpec& cluster, const MemberLayout& layout,
                                   const network::NetworkSpec& network);

// What this member would send if the call ran as messages (plan_call(cluster, call, options)), by peer
// and channel: what a closed-form call charges to the ports (closed_form.hpp).
[[nodiscard]] CallTraffic messages_traffic(const network::ClusterSpec& cluster, const CollectiveCall& call,
                                           const CollectiveOptions& options, const MemberLayout& layout);

// A call's closed form: the algorithm that would run and NCCL's predicted time for it. A function of
// the call's kind, requested algorithm, size and members only, so a device may remember it for the
// calls it repeats.
struct ClosedFormTiming {
  Algorithm algorithm = Algorithm::ring;
  bool exchanges = false;  // false: nothing to exchange (0 bytes or one member)
  pdes::SimTime duration = 0;
};
[[nodiscard]] ClosedFormTiming time_closed_form(const network::ClusterSpec& cluster, const CollectiveCall& call);
[[nodiscard]] ClosedFormTiming time_closed_form(const network::ClusterSpec& cluster, const CollectiveCall& call,
                                                const MemberLayout& layout);

// The call as a closed form (closed_form.hpp) taking `timing` (time_closed_form of the call), charging
// `traffic` (messages_traffic of the call) and, in a one-replica run, `twins` (what the member's twins
// send) to the ports when it begins; both must live until then.
[[nodiscard]] CallPlan plan_closed_form(const CollectiveCall& call, const ClosedFormTiming& timing,
                                        const CallTraffic& traffic, std::span<const TwinTraffic> twins = {});

// The algorithm that runs for `requested` (never automatic). Throws std::invalid_argument for nvls on a
// cluster without NVLS (nvls_unavailable()).
[[nodiscard]] Algorithm resolve_algorithm(const network::ClusterSpec& cluster, const MemberLayout& layout,
                                          CollectiveKind kind, Algorithm requested, std::uint64_t bytes);

}  // namespace rackscale::models::collectives

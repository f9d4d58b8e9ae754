#pragma once
// The collectives model: how one device takes part in collective operations. A call is decomposed, by
// its algorithm, into the point-to-point messages the network carries (DeviceLp::send_message); the
// engine reacts to the deliveries of its calls and reports each call's completion.
//
// Every member of a call starts it with the same CollectiveCall (apart from `rank`), in its own time;
// messages that arrive before the receiver has started the call are kept until it does.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "models/vocabulary/program.hpp"
#include "models/collectives/member_layouts.hpp"
#include "models/network/cluster_spec.hpp"
#include "models/network/device_lp.hpp"
#include "models/network/network_events.hpp"
#include "models/network/topology.hpp"
#include "pdes/event.hpp"
#include "pdes/time.hpp"

namespace boost::archive {
class binary_oarchive;
class binary_iarchive;
}  // namespace boost::archive

namespace rackscale::models::collectives {

using accelerator::Algorithm;
using accelerator::CollectiveKind;

struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::all_reduce;
  Algorithm algorithm = Algorithm::automatic;
  // The size nccl-tests reports: all_reduce, broadcast, reduce and sendrecv, the buffer; all_gather and
  // gather, the gathered output (p parts); reduce_scatter and scatter, the input being scattered;
  // all_to_all, the bytes each member sends in all (its part for itself included).
  std::uint64_t bytes = 0;
  std::vector<std::uint32_t> members;  // device indices in rank order; identical on every member
  std::uint32_t rank = 0;              // this device's position in `members`
  std::uint32_t root = 0;              // broadcast, reduce, gather, scatter: the root's rank
  std::uint32_t key = 0;               // < 2^20; identical on every member; unique among this device's calls in flight
  // members_fingerprint(members), when the caller knows it (a device calls its few groups thousands of
  // times); 0: the engine computes it.
  std::uint64_t fingerprint = 0;
};

// A 64-bit digest of a member list, by which the engine recognizes a call it has seen before.
[[nodiscard]] std::uint64_t members_fingerprint(std::span<const std::uint32_t> members) noexcept;

// One completed call, as this device saw it.
struct CallRecord {
  std::uint32_t key = 0;
  CollectiveKind kind = CollectiveKind::all_reduce;
  Algorithm algorithm = Algorithm::ring;  // the algorithm that ran (never automatic)
  std::uint64_t bytes = 0;
  std::uint32_t members = 0;
  pdes::SimTime start = 0;
  pdes::SimTime end = 0;
};

// The event kind of the engine's own timers. In analytical fidelity the fabric has no port queues, so a
// device's messages would all leave at once and share no bandwidth; the engine paces them itself (each
// port sends one message after another, as in the LogGP model) with self-events of this kind, scheduled
// through DeviceLp::schedule. The device's behaviour must hand every event of this kind to on_timer.
inline constexpr pdes::EventKind kCollectiveTimerKind = network::kFirstBehaviourKind + 1000;

// How calls are cut into messages. make_collective_engine(cluster, topology) uses the defaults, which
// are documented with their reasons in docs/models.md ("Collectives"); tests set them explicitly.
struct CollectiveOptions {
  // Parallel rings / tree pairs a call's data is split over, each its own flow (so ECMP spreads them)
  // and, across scale-up domains, its own NIC. 0: one per NIC of a domain when the call spans
  // several domains (at least 2), 1 inside one domain.
  std::uint32_t channels = 0;
  // Pipelining: each message of a step is cut into pieces of about this many bytes (piece k of step
  // s + 1 may leave once piece k of step s has arrived). 0: no pipelining, one piece per message.
  std::uint64_t piece_bytes = 512 * 1024;
  std::uint32_t max_pieces = 32;  // pieces per message at most (bounds the event count)
  // Flow control of the tree (tree.hpp): the receive buffer of one channel's connection, NCCL_BUFFSIZE's
  // default; a sender may have max(1, window_bytes / piece) pieces outstanding on it. 0: unbounded.
  std::uint64_t window_bytes = 4 * 1024 * 1024;
};

class CollectiveEngine {
 public:
  using Completion = std::function<void(const CallRecord&)>;
  virtual ~CollectiveEngine() = default;

  // Begins this device's part of `call` now (device.time()). `done` is called, possibly before start()
  // returns (a call of one member, or of 0 bytes), when this device's part has finished.
  virtual void start(network::DeviceLp& device, const CollectiveCall& call, Completion done) = 0;
  // A delivery whose tag is of class collective (accelerator/message_tags.hpp): consumed.
  virtual void on_delivery(network::DeviceLp& device, const network::Delivery& delivery) = 0;
  // An event of kind kCollectiveTimerKind on this device: consumed.
  // (Engines that never schedule timers, such as test doubles, need not override it.)
  virtual void on_timer(network::DeviceLp& /*device*/, const pdes::Event& /*event*/) {}

  // Checkpoints (pdes/checkpoint.hpp). A call in flight is saved as its key and progress; on restore the
  // device's behaviour gives back, for each key, the call as it started it (which the engine plans
  // again: plans are functions of their call) and where its completion goes. Engines that are not
  // meant to be checkpointed (test doubles) throw std::logic_error.
  struct Resumed {
    const CollectiveCall* call = nullptr;  // valid until resume is called again (a member list is not copied)
    Completion done;
  };
  using Resume = std::function<Resumed(std::uint32_t key)>;
  virtual void save(boost::archive::binary_oarchive& out) const;
  virtual void load(network::DeviceLp& device, boost::archive::binary_iarchive& in, const Resume& resume);
};

// One engine per device. `cluster` and `topology` describe the fabric (scale-up domains, bandwidths,
// latencies) that algorithm selection looks at; they outlive the engine.
[[nodiscard]] std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                                       const network::Topology& topology);
[[nodiscard]] std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                                       const network::Topology& topology,
                                                                       const CollectiveOptions& options);
// The same sharing `layouts` with the other engines of this rank (member_layouts.hpp): what a run makes
// its devices' engines with, so that a call's p members analyse its member list once, not p times.
[[nodiscard]] std::unique_ptr<CollectiveEngine> make_collective_engine(const network::ClusterSpec& cluster,
                                                                       const network::Topology& topology,
                                                                       const CollectiveOptions& options,
                                                                       std::shared_ptr<MemberLayouts> layouts);

}  // namespace rackscale::models::collectives

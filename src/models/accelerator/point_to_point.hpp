#pragma once
// A device's point-to-point transfers (pipeline sends and receives, the context-parallel ring, a trace's
// COMM_SEND/COMM_RECV), shared by the training executor (device_executor.hpp) and the trace replay
// (models/workload/trace_device.hpp). A send completes when the receiver has the data: the receiver
// acknowledges each transfer with an empty message on the same tag with kAckBit set. A receive completes
// when its data is in, which may be before the receive started.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

#include "models/collectives/collective_engine.hpp"
#include "models/network/device_lp.hpp"
#include "models/vocabulary/program.hpp"

namespace rackscale::models::accelerator {

class PointToPoint {
 public:
  // Bit 39 of a point-to-point tag: the acknowledgement of the transfer with the other bits.
  static constexpr std::uint64_t kAckBit = std::uint64_t{1} << 39;

  // Op `op` sends `bytes` to device `peer` on the device's own flow `label` (network::sender_flow) with
  // `tag` (pipeline_tag of the transfer's match id); it completes when on_delivery returns it, on the
  // acknowledgement.
  void send(network::DeviceLp& device, std::uint32_t peer, std::uint64_t bytes, std::uint32_t label, std::uint64_t tag,
            OpIndex op);
  // Op `op` receives the transfer `tag`: true when its data is already in (the op completes now), false
  // when on_delivery will return it.
  [[nodiscard]] bool receive(std::uint64_t tag, OpIndex op);
  // Routes a delivery: a collective's message to `collectives` (none returned); a transfer's data is
  // acknowledged and completes its waiting receive; an acknowledgement completes its send. Returns the op
  // completed, if any. Throws std::logic_error for a message no op expects.
  [[nodiscard]] std::optional<OpIndex> on_delivery(network::DeviceLp& device, const network::Delivery& delivery,
                                                   collectives::CollectiveEngine& collectives);

  // The state in flight, in a fixed order (checkpoints).
  void save(boost::archive::binary_oarchive& out) const;
  void load(boost::archive::binary_iarchive& in);

 private:
  // Transfers in flight by tag, each with its op. Nearly every device has a few at a time (a pipeline
  // stage's next transfers, the context ring's blocks): they sit in a vector scanned in place, since a
  // node-based hash table cost an allocation per transfer and a cache miss per look-up (8 % of a 405B
  // iteration with context parallelism). Past kScanned entries (a trace that posts thousands of sends at
  // once) they move to a hash table until it empties.
  class TagTable {
   public:
    static constexpr std::size_t kScanned = 64;
    // Adds `tag` with `op` unless the tag is there already.
    void insert(std::uint64_t tag, OpIndex op);
    // The op of `tag`, removed, or none.
    [[nodiscard]] std::optional<OpIndex> take(std::uint64_t tag);
    // Every entry in tag order (checkpoints).
    [[nodiscard]] std::vector<std::pair<std::uint64_t, OpIndex>> sorted() const;
    void clear() noexcept;

   private:
    std::vector<std::pair<std::uint64_t, OpIndex>> scanned_;
    std::unordered_map<std::uint64_t, OpIndex> hashed_;  // every entry while in use; scanned_ is then empty
  };
  TagTable arrived_;       // data that came before its receive started (op unused)
  TagTable waiting_recv_;  // receive started, data not in yet
  TagTable waiting_ack_;   // send started, not acknowledged yet
};

}  // namespace rackscale::models::accelerator

#pragma once
// Per-port traffic counters of one rank, indexed by Topology port id. Integers only, so summing the
// ranks' tables gives the same totals however LPs are spread (src/app reduces them).
//
// One record per port rather than one array per figure: a chunk's hop updates all five figures of its
// port, which as five arrays was five cache lines (five misses on a large cluster) per hop, and is one
// or two lines as records. The columns are copied out once, at the end, for the reductions and files.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pdes/time.hpp"

namespace rackscale::models::network {

class PortCounters {
 public:
  struct Record {
    std::uint64_t bytes = 0;     // bytes sent through the port
    std::uint64_t busy = 0;      // ps spent serializing
    std::uint64_t waited = 0;    // ps chunks spent queued before the serializer (summed)
    std::uint64_t max_wait = 0;  // longest single queueing delay, ps
    std::uint64_t chunks = 0;    // chunks (or, analytical, messages) sent
  };

  explicit PortCounters(std::size_t ports = 0) : records_(ports) {}
  [[nodiscard]] std::size_t size() const noexcept { return records_.size(); }

  void record(std::uint32_t port, std::uint64_t sent_bytes, pdes::SimTime serialize, pdes::SimTime wait) noexcept {
    Record& r = records_[port];
    r.bytes += sent_bytes;
    r.busy += serialize;
    r.waited += wait;
    if (wait > r.max_wait) r.max_wait = wait;
    ++r.chunks;
  }
  // Takes back what record() counted for a chunk that train fidelity scheduled and then had to move
  // (train_fabric.hpp): its bytes, serialization and wait, and the chunk. The longest wait is kept.
  void unrecord(std::uint32_t port, std::uint64_t sent_bytes, pdes::SimTime serialize, pdes::SimTime wait) noexcept {
    Record& r = records_[port];
    r.bytes -= sent_bytes;
    r.busy -= serialize;
    r.waited -= wait;
    --r.chunks;
  }
  // `count` chunks at once (train fidelity's steady stretches, train_run.cpp): what record() would have
  // counted for them one by one, given their sums, but for the longest wait, which the caller knows none
  // of them sets (the chunks next to them, counted one by one, waited at least as long).
  void record_many(std::uint32_t port, std::uint64_t count, std::uint64_t sent_bytes, std::uint64_t serialize,
                   std::uint64_t waited) noexcept {
    Record& r = records_[port];
    r.bytes += sent_bytes;
    r.busy += serialize;
    r.waited += waited;
    r.chunks += count;
  }
  void unrecord_many(std::uint32_t port, std::uint64_t count, std::uint64_t sent_bytes, std::uint64_t serialize,
                     std::uint64_t waited) noexcept {
    Record& r = records_[port];
    r.bytes -= sent_bytes;
    r.busy -= serialize;
    r.waited -= waited;
    r.chunks -= count;
  }
  // `messages` messages that loaded the port without being carried one by one (a closed-form collective's
  // traffic): bytes and serialization time, no queueing.
  void charge(std::uint32_t port, std::uint64_t sent_bytes, pdes::SimTime serialize, std::uint64_t messages) noexcept {
    Record& r = records_[port];
    r.bytes += sent_bytes;
    r.busy += serialize;
    r.chunks += messages;
  }

  // For checkpoints (pdes/checkpoint.hpp): the table's size is the topology's, so only the figures move.
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    for (Record& r : records_) ar & r.bytes & r.busy & r.waited & r.max_wait & r.chunks;
  }

  // One figure for every port, in port id order.
  [[nodiscard]] std::vector<std::uint64_t> bytes() const { return column(&Record::bytes); }
  [[nodiscard]] std::vector<std::uint64_t> busy() const { return column(&Record::busy); }
  [[nodiscard]] std::vector<std::uint64_t> waited() const { return column(&Record::waited); }
  [[nodiscard]] std::vector<std::uint64_t> max_wait() const { return column(&Record::max_wait); }
  [[nodiscard]] std::vector<std::uint64_t> chunks() const { return column(&Record::chunks); }

 private:
  [[nodiscard]] std::vector<std::uint64_t> column(std::uint64_t Record::*figure) const {
    std::vector<std::uint64_t> out;
    out.reserve(records_.size());
    for (const Record& r : records_) out.push_back(r.*figure);
    return out;
  }

  std::vector<Record> records_;
};

}  // namespace rackscale::models::network

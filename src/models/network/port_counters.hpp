#pragma once
// Per-port traffic counters of one rank, indexed by Topology port id. Integers only, so summing the
// ranks' tables gives the same totals however LPs are spread (src/app reduces them).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pdes/time.hpp"

namespace rackscale::models::network {

struct PortCounters {
  std::vector<std::uint64_t> bytes;        // bytes sent through the port
  std::vector<std::uint64_t> busy;         // ps spent serializing
  std::vector<std::uint64_t> waited;       // ps chunks spent queued before the serializer (summed)
  std::vector<std::uint64_t> max_wait;     // longest single queueing delay, ps
  std::vector<std::uint64_t> chunks;       // chunks (or, analytical, messages) sent

  explicit PortCounters(std::size_t ports = 0)
      : bytes(ports, 0), busy(ports, 0), waited(ports, 0), max_wait(ports, 0), chunks(ports, 0) {}
  [[nodiscard]] std::size_t size() const noexcept { return bytes.size(); }

  void record(std::uint32_t port, std::uint64_t sent_bytes, pdes::SimTime serialize, pdes::SimTime wait) noexcept {
    bytes[port] += sent_bytes;
    busy[port] += serialize;
    waited[port] += wait;
    if (wait > max_wait[port]) max_wait[port] = wait;
    ++chunks[port];
  }
  // `messages` messages that loaded the port without being carried one by one (a closed-form collective's
  // traffic): bytes and serialization time, no queueing.
  void charge(std::uint32_t port, std::uint64_t sent_bytes, pdes::SimTime serialize, std::uint64_t messages) noexcept {
    bytes[port] += sent_bytes;
    busy[port] += serialize;
    chunks[port] += messages;
  }
};

}  // namespace rackscale::models::network

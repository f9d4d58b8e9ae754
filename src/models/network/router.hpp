#pragma once
// Routing: which output port a chunk takes at each node. Routers are topology-specific arithmetic
// (no routing tables; at most a precomputed index of where each device sits), deterministic, and
// stateless apart from the small RouteTag each chunk carries, so the same chunk takes the same path on
// any rank.
//
// Contract: all chunks of one message (same src, dst and flow, any chunk index) reach `dst` over the
// same cable, even where they are sprayed or detoured on the way. The chunk fabric relies on it: the node
// before the destination counts a message's chunks and tells the destination once (chunk_fabric.hpp).
// The topology tests check it for every topology and routing mode (expect_one_last_cable).
#include <cstdint>
#include <string_view>

namespace rackscale::models::network {

class Topology;

// Carried by every chunk (and used once per message in analytical mode).
struct RouteTag {
  std::uint64_t entropy = 0;  // hash that picks among equal-cost ports (per flow for ECMP, per chunk for spraying)
  std::uint32_t via = 0xFFFF'FFFFu;  // dragonfly Valiant: the intermediate group, until reached
  std::uint32_t phase = 0;    // router-defined progress marker
};

class Router {
 public:
  virtual ~Router() = default;
  Router() = default;
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // The tag of a chunk of flow `flow` from device node `src` to device node `dst`; `chunk` is the chunk's
  // own entropy for spraying (the chunk fabric hashes the message and the chunk's index in it; the
  // analytical fabric and path queries pass 0).
  [[nodiscard]] virtual RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                                       std::uint64_t chunk) const = 0;
  // The index of the output port of node `at` that the chunk takes next towards device node `dst`
  // (at != dst). May update the tag (for example when a Valiant detour reaches its group).
  [[nodiscard]] virtual std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const = 0;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Whether every flow and chunk from device node `src` to device node `dst` takes the same ports (no
  // choice on the way uses the tag's entropy), so that one path found for the pair serves all its flows:
  // the analytical fabric's path table then keeps one entry for the pair instead of one per flow
  // (flow_path_cache.hpp). False is always correct; true only where the routing makes it so.
  [[nodiscard]] virtual bool flow_free(std::uint32_t /*src*/, std::uint32_t /*dst*/) const { return false; }
  // A key of the route that flow `flow` (chunk 0) takes from device node `src` to device node `dst`:
  // two flows of the pair with equal keys take the same ports. The analytical fabric's path table keys
  // its entries by it, so that the flows of a pair share the few paths the routing offers it instead of
  // each walking its own (a pipeline's and a context-parallel ring's transfers each have a flow of their
  // own). By default the flow itself, and 0 for every flow of a flow-free pair; a router may map flows
  // to fewer keys where it knows what of the flow its choices use.
  [[nodiscard]] virtual std::uint64_t path_key(std::uint32_t src, std::uint32_t dst, std::uint64_t flow) const {
    return flow_free(src, dst) ? 0 : flow;
  }
};

// A well-mixed 64-bit hash of up to four values (for ECMP and spraying entropy).
[[nodiscard]] std::uint64_t route_hash(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d = 0) noexcept;

}  // namespace rackscale::models::network

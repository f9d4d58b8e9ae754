#pragma once
// Links that are down (cluster.degraded_links with fraction 0, issue 26 item 1): a router that keeps
// the topology's own routing and moves each route that would cross a down link onto another of the
// routes that routing offers the same pair (another ECMP uplink or spine of a fat tree, another global
// cable or Valiant group of a dragonfly).
//
// The choice is made once, when a route starts (Router::start), from the pair's own data: the routing's
// tag for (src, dst, flow, chunk) if its route survives, otherwise the first surviving one of a fixed
// sequence of alternatives, the routing's tags for the same pair with the flow and chunk rehashed with
// the attempt number 1, 2, ... kRerouteAttempts. Every rank, partitioner and fidelity thus routes a flow
// the same way; next_port is the routing's own, so the tag carries the whole choice and the router
// contract (one last cable per message) still holds: no routing here picks the last cable by entropy.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "models/network/router.hpp"
#include "models/network/topology.hpp"

namespace rackscale::models::network {

// Alternatives tried before a pair is declared without a route: enough that a pair with one surviving
// route in 64 finds it with probability 1 - (63/64)^1024 > 1 - 1e-7.
inline constexpr std::uint32_t kRerouteAttempts = 1024;

class ReroutingRouter final : public Router {
 public:
  // `down[p]`: port id p (either direction of its cable) carries nothing. Keeps what it needs of
  // `topology` (node port offsets, port peers), so the topology may move afterwards.
  ReroutingRouter(const Topology& topology, std::unique_ptr<Router> routing, std::vector<bool> down);

  // Throws std::runtime_error naming the pair when none of the alternatives survives (the check
  // before simulating, check_routes_remain in degraded_links.hpp, makes this unreachable for the
  // pairs it covers).
  [[nodiscard]] RouteTag start(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                               std::uint64_t chunk) const override;
  [[nodiscard]] std::uint16_t next_port(std::uint32_t at, std::uint32_t dst, RouteTag& tag) const override {
    return routing_->next_port(at, dst, tag);
  }
  [[nodiscard]] std::string_view name() const override { return routing_->name(); }
  // A pair whose routing has one path has no alternative to move to, so the routing's answer stands.
  [[nodiscard]] bool flow_free(std::uint32_t src, std::uint32_t dst) const override {
    return routing_->flow_free(src, dst);
  }

  // The surviving tag, nullopt when every alternative crosses a down link.
  [[nodiscard]] std::optional<RouteTag> surviving_tag(std::uint32_t src, std::uint32_t dst, std::uint64_t flow,
                                                      std::uint64_t chunk) const;
  // The first down port (id) the route of `tag` crosses from `src` to `dst`, nullopt if none.
  [[nodiscard]] std::optional<std::uint32_t> first_down_port(std::uint32_t src, std::uint32_t dst, RouteTag tag) const;
  [[nodiscard]] const Router& routing() const noexcept { return *routing_; }

 private:
  std::unique_ptr<Router> routing_;
  std::vector<std::uint32_t> first_port_;  // by node
  std::vector<NodeId> peer_;               // by port id
  std::vector<bool> down_;                 // by port id
};

}  // namespace rackscale::models::network

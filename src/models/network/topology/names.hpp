#pragma once
// The YAML spellings of the spec enums, for errors and descriptions.
#include <initializer_list>
#include <string_view>

#include "models/network/cluster_spec.hpp"

namespace rackscale::models::network {

[[nodiscard]] std::string_view name_of(RoutingMode mode) noexcept;
[[nodiscard]] std::string_view name_of(ScaleOutKind kind) noexcept;
[[nodiscard]] std::string_view name_of(ScaleUpKind kind) noexcept;

// Throws "network.routing: <mode> does not apply to <topology>; use a, b or c" unless `mode` is allowed.
void require_routing(RoutingMode mode, std::initializer_list<RoutingMode> allowed, std::string_view topology);

}  // namespace rackscale::models::network

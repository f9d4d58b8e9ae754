#pragma once
// Spec errors name the config key at fault first ("cluster.scale_out.fat_tree.tiers: ..."), so the
// config loader can prefix the file position of that key (Scenario::locate).
#include <stdexcept>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace rackscale::models::network {

template <typename... Args>
[[noreturn]] void spec_error(std::string_view key, fmt::format_string<Args...> what, Args&&... args) {
  throw std::invalid_argument(fmt::format("{}: {}", key, fmt::format(what, std::forward<Args>(args)...)));
}

}  // namespace rackscale::models::network

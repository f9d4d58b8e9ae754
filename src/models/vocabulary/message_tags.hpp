#pragma once
// How a device's behaviours share the 44-bit message tag space (models/network/message.hpp), so that a
// delivery can be routed to the part of the device that expects it:
//
//   bits 43..40  class: 0 traffic and tests, 1 collective, 2 point-to-point send/recv (pipeline transfers
//                and the context-parallel ring)
//   collective:  bits 39..20 the call's key (identical on every member of the call),
//                bits 19..0  the message's index within the call (the algorithm numbers them)
//   pipeline:    bits 39..0  the transfer's match id (identical on sender and receiver; pipeline and
//                context-ring transfers use disjoint ids)
#include <cstdint>

namespace rackscale::models::accelerator {

enum class TagClass : std::uint64_t { other = 0, collective = 1, pipeline = 2 };

inline constexpr unsigned kTagClassShift = 40;
inline constexpr std::uint64_t kCollectiveKeyLimit = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kCollectiveIndexLimit = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kPipelineMatchLimit = std::uint64_t{1} << 40;

[[nodiscard]] constexpr TagClass tag_class(std::uint64_t tag) noexcept {
  return static_cast<TagClass>(tag >> kTagClassShift);
}
[[nodiscard]] constexpr std::uint64_t collective_tag(std::uint32_t key, std::uint32_t index) noexcept {
  return (static_cast<std::uint64_t>(TagClass::collective) << kTagClassShift) |
         ((key % kCollectiveKeyLimit) << 20) | (index % kCollectiveIndexLimit);
}
[[nodiscard]] constexpr std::uint32_t collective_key(std::uint64_t tag) noexcept {
  return static_cast<std::uint32_t>((tag >> 20) % kCollectiveKeyLimit);
}
[[nodiscard]] constexpr std::uint32_t collective_index(std::uint64_t tag) noexcept {
  return static_cast<std::uint32_t>(tag % kCollectiveIndexLimit);
}
[[nodiscard]] constexpr std::uint64_t pipeline_tag(std::uint64_t match) noexcept {
  return (static_cast<std::uint64_t>(TagClass::pipeline) << kTagClassShift) | (match % kPipelineMatchLimit);
}

}  // namespace rackscale::models::accelerator

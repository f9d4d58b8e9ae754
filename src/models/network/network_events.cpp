#include "models/network/network_events.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {
namespace {
constexpr std::uint32_t kViaBits = 28;
constexpr std::uint32_t kViaMask = (1u << kViaBits) - 1;
constexpr std::uint32_t kNoVia = 0xFFFF'FFFFu;
}  // namespace

pdes::Payload encode_chunk(const Chunk& chunk, std::uint32_t& aux) {
  // kNoVia travels as all via bits set.
  const std::uint32_t via = chunk.tag.via == kNoVia ? kViaMask : chunk.tag.via;
  if (via > kViaMask || chunk.tag.phase > 0xF)
    throw std::logic_error(
        fmt::format("chunk route tag out of range: via {} (max {}), phase {} (max 15)", chunk.tag.via, kViaMask - 1,
                    chunk.tag.phase));
  aux = chunk.bytes;
  const std::uint64_t route = via | (static_cast<std::uint64_t>(chunk.tag.phase) << kViaBits);
  return {chunk.message, chunk.dst_node | (static_cast<std::uint64_t>(chunk.tail_after) << 32), chunk.tag.entropy,
          route | (static_cast<std::uint64_t>(chunk.chunks_in_message) << 32)};
}

Chunk decode_chunk(const pdes::Event& event) {
  const pdes::Payload& p = event.payload;
  Chunk chunk;
  chunk.message = p[0];
  chunk.dst_node = static_cast<std::uint32_t>(p[1]);
  chunk.tail_after = static_cast<std::uint32_t>(p[1] >> 32);
  chunk.tag.entropy = p[2];
  const auto route = static_cast<std::uint32_t>(p[3]);
  const std::uint32_t via = route & kViaMask;
  chunk.tag.via = via == kViaMask ? kNoVia : via;
  chunk.tag.phase = route >> kViaBits;
  chunk.chunks_in_message = static_cast<std::uint32_t>(p[3] >> 32);
  chunk.bytes = event.aux;
  return chunk;
}

pdes::Payload encode_message_arrival(MessageId id, std::uint64_t bytes) noexcept { return {id, bytes, 0, 0}; }

}  // namespace rackscale::models::network

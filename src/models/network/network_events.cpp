#include "models/network/network_events.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::network {
namespace {
constexpr std::uint32_t kViaBits = 28;
constexpr std::uint32_t kViaMask = (1u << kViaBits) - 1;
constexpr std::uint32_t kNoVia = 0xFFFF'FFFFu;

struct ChunkRecord {
  MessageId message;
  std::uint32_t dst_node;
  std::uint32_t tail_after;
  std::uint64_t entropy;
  std::uint32_t route;  // via | phase << kViaBits
  std::uint32_t chunks_in_message;
};
static_assert(sizeof(ChunkRecord) == sizeof(pdes::Payload));
}  // namespace

pdes::Payload encode_chunk(const Chunk& chunk, std::uint32_t& aux) {
  // kNoVia travels as all via bits set.
  const std::uint32_t via = chunk.tag.via == kNoVia ? kViaMask : chunk.tag.via;
  if (via > kViaMask || chunk.tag.phase > 0xF)
    throw std::logic_error(
        fmt::format("chunk route tag out of range: via {} (max {}), phase {} (max 15)", chunk.tag.via, kViaMask - 1,
                    chunk.tag.phase));
  aux = chunk.bytes;
  const std::uint32_t route = via | (chunk.tag.phase << kViaBits);
  return pdes::to_payload(
      ChunkRecord{chunk.message, chunk.dst_node, chunk.tail_after, chunk.tag.entropy, route, chunk.chunks_in_message});
}

Chunk decode_chunk(const pdes::Event& event) {
  const auto r = event.as<ChunkRecord>();
  Chunk chunk;
  chunk.message = r.message;
  chunk.dst_node = r.dst_node;
  chunk.tail_after = r.tail_after;
  chunk.tag.entropy = r.entropy;
  const std::uint32_t via = r.route & kViaMask;
  chunk.tag.via = via == kViaMask ? kNoVia : via;
  chunk.tag.phase = r.route >> kViaBits;
  chunk.chunks_in_message = r.chunks_in_message;
  chunk.bytes = event.aux;
  return chunk;
}

pdes::Payload encode_message_arrival(MessageId id, std::uint64_t bytes) noexcept {
  return pdes::to_payload(MessageArrival{id, bytes});
}

}  // namespace rackscale::models::network

#include "models/network/chunk_fabric.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/network_node_lp.hpp"
#include "models/network/output_port.hpp"
#include "models/network/router.hpp"

namespace rackscale::models::network {

void ChunkFabric::send(NetworkNodeLp& source, const Message& message) {
  const Topology& topology = *context_.topology;
  const NodeId src = topology.devices[message.src_device];
  const NodeId dst = topology.devices[message.dst_device];
  if (send_without_links(source, message, src, dst)) return;
  if (message.depart_after != 0)  // chunks queue at the device's own port here; nothing paces them before it
    throw std::logic_error(fmt::format("chunk fidelity: device {} held a message {} ps before sending it",
                                       message.src_device, message.depart_after));
  const std::uint64_t size = context_.spec.chunk_bytes;
  const std::uint64_t chunks = std::max<std::uint64_t>(1, (message.bytes + size - 1) / size);
  if (chunks > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error(fmt::format("a message of {} bytes has more than 2^32-1 chunks of {} bytes",
                                        message.bytes, size));
  for (std::uint64_t k = 0; k < chunks; ++k) {
    Chunk chunk;
    chunk.message = message.id;
    chunk.dst_node = dst;
    chunk.bytes = static_cast<std::uint32_t>(std::min(size, message.bytes - k * size));
    chunk.chunks_in_message = static_cast<std::uint32_t>(chunks);
    // Spraying hashes the chunk's own identity, the message as well as its index in it: with the index
    // alone, chunk k of every message of a flow would take one path, and a flow of one-chunk messages
    // (pieces no larger than the chunk size) would not be sprayed at all.
    chunk.tag = topology.router->start(src, dst, message.flow, route_hash(message.id, k, 0));
    forward(source, chunk, 0);  // the data is all in memory: no tail to wait for
  }
}

void ChunkFabric::on_event(NetworkNodeLp& node, const pdes::Event& event) {
  if (event.kind == kMessageArrival) {  // a device's message to itself, or a zero-byte message
    const auto arrival = event.as<MessageArrival>();
    node.accept_message(arrival.message, arrival.bytes);
    return;
  }
  const Chunk chunk = decode_chunk(event);
  if (chunk.dst_node == node.node())  // forward() sends the last hop as kMessageComplete
    throw std::logic_error(fmt::format("node {}: a chunk of message {:#x} arrived as a chunk event at its destination",
                                       node.node(), chunk.message));
  forward(node, chunk, chunk.tail_after);
}

void ChunkFabric::forward(NetworkNodeLp& at, Chunk chunk, pdes::SimTime tail_after) {
  const Topology& topology = *context_.topology;
  const pdes::SimTime head = at.current_time();
  const PortIndex index = topology.router->next_port(at.node(), chunk.dst_node, chunk.tag);
  OutputPort& out = at.output_port(index);
  const pdes::SimTime serialize = chunk.bytes == context_.spec.chunk_bytes && out.full_chunk_serialize > 0
                                      ? out.full_chunk_serialize
                                      : serialization_time(chunk.bytes, out.bandwidth);
  const Transmission tx = out.transmit(head, tail_after, serialize);
  context_.counters.record(out.id, chunk.bytes, serialize, tx.start - head);

  pdes::SimTime ready;  // when the next node may forward it (its event time)
  if (context_.spec.forwarding == Forwarding::cut_through) {
    const pdes::SimTime tail = tx.finish - tx.start;
    if (tail > std::numeric_limits<std::uint32_t>::max())
      throw std::overflow_error(fmt::format("a {}-byte chunk takes {} ps on a {} B/s link, beyond 2^32 ps: use a "
                                            "smaller network.chunk_size",
                                            chunk.bytes, tail, out.bandwidth));
    chunk.tail_after = static_cast<std::uint32_t>(tail);
    ready = tx.start + out.latency;
  } else {
    chunk.tail_after = 0;
    ready = tx.finish + out.latency;
  }
  if (out.peer == chunk.dst_node) {
    deliver(at, out.peer, chunk, ready + chunk.tail_after);
    return;
  }
  std::uint32_t aux = 0;
  const pdes::Payload payload = encode_chunk(chunk, aux);
  at.emit(out.peer, ready - head, kChunkArrival, payload, aux);
}

// The destination would only count the chunks that reach it and then wait for the last tail, so the
// node before it counts them instead and sends one event per message, kMessageComplete, for when the
// message's last byte is in: all chunks of a message reach the destination over one cable (Router's
// contract), so the last one forwarded is the last to arrive, and its tail is the latest. The events
// left out did nothing but count and schedule that completion; the one sent has the completion's time,
// but comes from this node, so among events at the destination at the very same picosecond it is
// ordered by this node's id rather than the destination's (docs/network.md, "Events").
void ChunkFabric::deliver(NetworkNodeLp& at, NodeId destination, const Chunk& chunk, pdes::SimTime tail_at) {
  if (chunk.chunks_in_message == 1) {
    at.emit(destination, tail_at - at.current_time(), kMessageComplete, encode_message_arrival(chunk.message, chunk.bytes));
    return;
  }
  auto& counts = at.last_hop();
  const auto it = counts.try_emplace(chunk.message).first;
  NetworkNodeLp::LastHop& sofar = it->second;
  ++sofar.chunks;
  sofar.bytes += chunk.bytes;
  sofar.last_tail = std::max(sofar.last_tail, tail_at);
  if (sofar.chunks < chunk.chunks_in_message) return;
  at.emit(destination, sofar.last_tail - at.current_time(), kMessageComplete,
          encode_message_arrival(chunk.message, sofar.bytes));
  counts.erase(it);
}

}  // namespace rackscale::models::network

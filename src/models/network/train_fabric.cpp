#include "models/network/train_fabric.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/network_node_lp.hpp"
#include "models/network/output_port.hpp"
#include "models/network/router.hpp"

namespace rackscale::models::network {

TrainFabric::TrainFabric(NetworkContext& context)
    : context_(context),
      settings_{context.spec.forwarding, context.spec.chunk_bytes},
      chunks_(context),
      per_chunk_paths_(context.spec.routing == RoutingMode::spray || context.spec.routing == RoutingMode::valiant) {}

PortIndex TrainFabric::port_of(NetworkNodeLp& at, TrainMessage& state, const RouteTag& tag) const {
  if (!state.routed) {
    state.out_tag = tag;
    state.port = context_.topology->router->next_port(at.node(), state.dst, state.out_tag);
    state.routed = true;
  }
  return state.port;
}

void TrainFabric::send(NetworkNodeLp& source, const Message& message) {
  if (per_chunk_paths_) {
    chunks_.send(source, message);
    return;
  }
  const Topology& topology = *context_.topology;
  const NodeId src = topology.devices[message.src_device];
  const NodeId dst = topology.devices[message.dst_device];
  if (send_without_links(source, message, src, dst)) return;
  if (message.depart_after != 0)
    throw std::logic_error(fmt::format("train fidelity: device {} held a message {} ps before sending it",
                                       message.src_device, message.depart_after));
  const std::uint64_t size = settings_.chunk_bytes;
  const std::uint64_t chunks = std::max<std::uint64_t>(1, (message.bytes + size - 1) / size);
  if (chunks >= (std::uint64_t{1} << 28) || size >= (std::uint64_t{1} << 31))
    throw std::length_error(fmt::format("train fidelity: a message of {} bytes in chunks of {} bytes: at most 2^28-1 "
                                        "chunks of less than 2 GiB each",
                                        message.bytes, size));
  Run run;
  run.message = message.id;
  run.dst = dst;
  run.tag = topology.router->start(src, dst, message.flow, route_hash(message.id, 0, 0));
  run.count = static_cast<std::uint32_t>(chunks);
  run.head = source.current_time();
  run.bytes_end = static_cast<std::uint32_t>(message.bytes - (chunks - 1) * size);
  run.ends_message = true;  // the data is all in memory: every head is here now, no tail to wait for
  TrainNodeState& node = source.train_state();
  TrainMessage& state = node.messages[message.id];
  node.renew(state);  // an id is reused once delivered
  state.dst = dst;
  state.received = run.count;
  pass(source, run, state);
}

void TrainFabric::on_event(NetworkNodeLp& node, const pdes::Event& event) {
  switch (event.kind) {
    case kTrainRun: on_run(node, decode_run(event)); return;
    case kTrainHeldRun: on_held_run(node, event); return;
    case kTrainCut: {
      const auto cut = event.as<TrainCut>();
      on_cut(node, cut.message, cut.run_number, cut.first_taken);
      return;
    }
    case kTrainComplete: {
      const auto complete = event.as<TrainComplete>();
      on_complete(node, complete.message, complete.bytes, complete.token);
      return;
    }
    case kTrainVoid: {
      const auto voided = event.as<TrainVoid>();
      node.train_state().voided.emplace_back(voided.message, voided.token);
      return;
    }
    default: chunks_.on_event(node, event);  // chunks (per-chunk paths), messages that cross no link
  }
}

void TrainFabric::on_run(NetworkNodeLp& at, Run run) {
  TrainNodeState& node = at.train_state();
  TrainMessage& state = node.messages[run.message];  // may exist: a cut can come before its run
  // A sender reuses a message's id once it has been delivered: a record whose message has left is stale.
  if (state.ended) node.renew(state);
  state.dst = run.dst;
  run.first = state.received;
  const std::uint32_t number = state.runs_received++;
  std::uint32_t cut = TrainMessage::kWhole;
  if (state.cuts != TrainMessage::kNoCuts)
    std::erase_if(node.cuts[state.cuts].pending, [&](const std::pair<std::uint32_t, std::uint32_t>& c) {
      if (c.first != number) return false;
      cut = std::min(cut, c.second);
      return true;
    });
  if (cut != TrainMessage::kWhole) {  // sent before the node upstream took its later chunks back; they come again
    if (cut <= run.first || cut >= run.first + run.count)
      throw std::logic_error(fmt::format("node {}: run {} of message {:#x} (chunks {} to {}) cut at chunk {}", at.node(),
                                         number, run.message, run.first, run.first + run.count - 1, cut));
    run = run.prefix(cut - run.first, settings_.forwarding, settings_.chunk_bytes);
  }
  state.received += run.count;
  pass(at, run, state);
}

void TrainFabric::on_held_run(NetworkNodeLp& at, const pdes::Event& event) {
  TrainNodeState& node = at.train_state();
  std::vector<pdes::SimTime>& pending = node.ports[event.aux].pending;
  const auto due = std::find(pending.begin(), pending.end(), event.time);
  if (due == pending.end())
    throw std::logic_error(fmt::format("node {}: a held run at {} ps that its port does not list", at.node(), event.time));
  pending.erase(due);
  std::uint32_t generation = 0;
  Run run = decode_held_run(event, generation);
  TrainMessage* const found = node.messages.find(run.message);
  if (found == nullptr) return;  // the message has left: this part was taken back upstream
  TrainMessage& state = *found;
  if (generation < state.generation) {  // upstream took back chunks from every later cut on; they come again
    const std::vector<std::uint32_t>& taken = node.cuts[state.cuts].taken;
    const std::uint32_t limit = *std::min_element(taken.begin() + generation, taken.end());
    if (limit <= run.first) return;
    run = run.prefix(std::min(run.count, limit - run.first), settings_.forwarding, settings_.chunk_bytes);
  }
  run.dst = state.dst;
  pass(at, run, state);
}

void TrainFabric::pass(NetworkNodeLp& at, const Run& run, TrainMessage& state) {
  const pdes::SimTime now = at.current_time();
  const PortIndex index = port_of(at, state, run.tag);
  TrainNodeState& node = at.train_state();
  TrainPort& port = node.ports[index];
  if (port.holds) {
    if (port.run.last_head() > now) {
      // The chunks of the held run whose heads come after now would queue behind this run's first.
      cut_held(at, index, static_cast<std::uint32_t>((now - port.run.head) / port.run.pace) + 1, true);
    } else {
      port.holds = false;
      // (never `run`'s own message, whose chunks are still here: `state` stays valid)
      if (port.run.message != run.message) forget_if_done(at, port.run.message);
    }
  }
  OutputPort& out = at.output_port(index);
  pdes::SimTime limit = std::numeric_limits<pdes::SimTime>::max();
  for (const pdes::SimTime t : port.pending) limit = std::min(limit, t);
  const Passage passage = pass_port(run, out.free_at, out, settings_, limit, context_.counters);
  port.free_before = out.free_at;
  out.free_at = passage.free_after;
  const Run taken = run.prefix(passage.taken, settings_.forwarding, settings_.chunk_bytes);
  if (taken.ends_message) state.ended = true;
  if (passage.taken < run.count) hold_back(at, index, run.suffix(passage.taken), state.generation);
  if (out.peer == run.dst) {
    reach_destination(at, taken, passage, state);
  } else {
    Run forward = passage.out;
    forward.tag = state.out_tag;
    std::uint32_t aux = 0;
    const pdes::Payload payload = encode_run(forward, aux);
    at.emit(out.peer, forward.head - now, kTrainRun, payload, aux);
    port.run_number = state.runs_sent++;
  }
  port.holds = taken.count > 1 && taken.last_head() > now;
  if (port.holds) {
    port.run = taken;
  } else if (taken.ends_message) {
    forget_if_done(at, run.message);
  }
}

void TrainFabric::cut_held(NetworkNodeLp& at, PortIndex index, std::uint32_t keep, bool again) {
  TrainNodeState& node = at.train_state();
  TrainPort& port = node.ports[index];
  OutputPort& out = at.output_port(index);
  const Run held = port.run;
  const Passage kept = take_back(held, port.free_before, out, settings_, keep, context_.counters);
  out.free_at = kept.free_after;
  TrainMessage* const found = node.messages.find(held.message);
  if (found == nullptr)
    throw std::logic_error(fmt::format("node {}: port {} holds a run of message {:#x}, which it has no record of",
                                       at.node(), index, held.message));
  TrainMessage& state = *found;
  if (held.ends_message) state.ended = false;
  if (out.peer == held.dst) {
    state.bytes -= kept.bytes;
    state.last_tail = kept.last_tail_at;
    if (state.completion_voidable) {  // the chunks taken back were its last: that completion will not hold
      state.completion_voidable = false;
      at.emit(held.dst, out.latency, kTrainVoid, pdes::to_payload(TrainVoid{held.message, state.token}));
    }
  } else {
    at.emit(out.peer, out.latency, kTrainCut, pdes::to_payload(TrainCut{held.message, held.first + keep, port.run_number}));
  }
  if (again) hold_back(at, index, held.suffix(keep), state.generation);
  port.run = held.prefix(keep, settings_.forwarding, settings_.chunk_bytes);
  port.holds = port.run.count > 1 && port.run.last_head() > at.current_time();
}

void TrainFabric::hold_back(NetworkNodeLp& at, PortIndex index, const Run& rest, std::uint32_t generation) {
  at.train_state().ports[index].pending.push_back(rest.head);
  at.emit(at.node(), rest.head - at.current_time(), kTrainHeldRun, encode_held_run(rest, generation), index);
}

void TrainFabric::on_cut(NetworkNodeLp& at, MessageId message, std::uint32_t run_number, std::uint32_t chunk) {
  TrainNodeState& node = at.train_state();
  TrainMessage& state = node.messages[message];
  if (run_number >= state.runs_received) {  // the run it cuts is still on its way
    node.cuts_of(state).pending.emplace_back(run_number, chunk);
    return;
  }
  if (state.received <= chunk)
    throw std::logic_error(fmt::format("node {}: message {:#x} cut at chunk {} with {} chunks in", at.node(), message,
                                       chunk, state.received));
  node.cuts_of(state).taken.push_back(chunk);
  ++state.generation;
  state.received = chunk;
  if (!state.routed)
    throw std::logic_error(fmt::format("node {}: message {:#x} cut at chunk {} before any run of it passed",
                                       at.node(), message, chunk));
  const PortIndex index = state.port;
  const TrainPort& port = node.ports[index];
  if (!port.holds || port.run.message != message || chunk >= port.run.first + port.run.count) return;
  if (chunk <= port.run.first)
    throw std::logic_error(fmt::format("node {}: message {:#x} cut at chunk {}, whose head is already in",
                                       at.node(), message, chunk));
  cut_held(at, index, chunk - port.run.first, false);
}

void TrainFabric::reach_destination(NetworkNodeLp& at, const Run& taken, const Passage& passage, TrainMessage& state) {
  state.bytes += passage.bytes;
  state.last_tail = passage.last_tail_at;
  if (!taken.ends_message) return;
  const pdes::SimTime now = at.current_time();
  if (taken.last_head() <= now) {
    at.emit(taken.dst, state.last_tail - now, kMessageComplete, encode_message_arrival(taken.message, state.bytes));
    return;
  }
  // A competitor arriving before the last head could still take chunks back. The completion is announced
  // now all the same, numbered; a cut voids it by an event that leaves now or later, before the last head
  // is in, and so reaches the destination a link's latency later: before the completion, which is due no
  // earlier than the last head's arrival there. (A self-event just after the last head, sending the
  // completion only then, was a third of train fidelity's events: one per message, docs/performance.md.)
  state.completion_voidable = true;
  ++state.token;
  at.emit(taken.dst, state.last_tail - now, kTrainComplete,
          pdes::to_payload(TrainComplete{taken.message, state.bytes, state.token}));
}

void TrainFabric::on_complete(NetworkNodeLp& at, MessageId message, std::uint64_t bytes, std::uint32_t token) {
  std::vector<std::pair<MessageId, std::uint32_t>>& voided = at.train_state().voided;
  if (!voided.empty()) {
    const auto it = std::find(voided.begin(), voided.end(), std::pair{message, token});
    if (it != voided.end()) {
      voided.erase(it);
      return;
    }
  }
  at.accept_message(message, bytes);
}

void TrainFabric::forget_if_done(NetworkNodeLp& at, MessageId message) {
  TrainNodeState& node = at.train_state();
  TrainMessage* const state = node.messages.find(message);
  if (state == nullptr || !state->ended) return;
  const TrainPort& port = node.ports[state->port];  // (routed: its last chunk has passed)
  if (port.holds && port.run.message == message && port.run.last_head() > at.current_time()) return;
  node.forget(message);
}

}  // namespace rackscale::models::network

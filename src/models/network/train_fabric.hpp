#pragma once
// Train fidelity: chunk fidelity's results with an event per run of chunks instead of per chunk.
//
// A message leaves its device as one run (train_run.hpp): its chunks, all ready at once. At every output
// port a run is serialized chunk by chunk with chunk fidelity's arithmetic (OutputPort::transmit), and
// the chunks that leave as a uniform train travel to the next node as one event. A run whose later chunks
// reach the port after now may still meet a competitor there; the port remembers it, and when another run
// arrives before its last chunk, it takes back the chunks that would have come after the newcomer (a cut:
// the port's serializer is rolled back, the node downstream is told, by an event that precedes every chunk
// taken back, and the chunks are kept as a run that reaches the port again at the head of the first of
// them). Runs the node keeps back are known competitors: a run passes a port only up to the next of them.
// So every chunk is served in the order of its head's arrival, as in chunk fidelity; only chunks whose
// heads arrive at the very same picosecond may be ordered differently (chunk fidelity orders them by the
// sending node's id, this model the run already there first).
//
// The node before the destination sends the completion when the message's last chunk passes its port: as
// kMessageComplete when that chunk's head is in, else as kTrainComplete, which a cut before that head
// voids (kTrainVoid, which always reaches the destination first).
//
// Spraying and Valiant routing give every chunk its own path: there every chunk is its own train, and
// the chunk fabric carries them (same results as chunk fidelity, same events). docs/network.md, "train".
#include "models/network/chunk_fabric.hpp"
#include "models/network/fabric.hpp"
#include "models/network/network_context.hpp"
#include "models/network/train_run.hpp"
#include "models/network/train_state.hpp"

namespace rackscale::models::network {

class TrainFabric final : public Fabric {
 public:
  explicit TrainFabric(NetworkContext& context);
  void send(NetworkNodeLp& source, const Message& message) override;
  void on_event(NetworkNodeLp& node, const pdes::Event& event) override;

 private:
  void on_run(NetworkNodeLp& at, Run run);
  void on_held_run(NetworkNodeLp& at, const pdes::Event& event);
  void on_cut(NetworkNodeLp& at, MessageId message, std::uint32_t run_number, std::uint32_t chunk);
  // At the destination: a completion the node before announced, unless it voided it since.
  void on_complete(NetworkNodeLp& at, MessageId message, std::uint64_t bytes, std::uint32_t token);
  // `run` (its head here now), whose message this node records in `state`, is passed to its output port.
  void pass(NetworkNodeLp& at, const Run& run, TrainMessage& state);
  // The port's held run keeps its first `keep` chunks; the rest are kept back for later if `again`.
  void cut_held(NetworkNodeLp& at, PortIndex index, std::uint32_t keep, bool again);
  void hold_back(NetworkNodeLp& at, PortIndex index, const Run& rest, std::uint32_t generation);
  void reach_destination(NetworkNodeLp& at, const Run& taken, const Passage& passage, TrainMessage& state);
  void forget_if_done(NetworkNodeLp& at, MessageId message);
  // The output port of `state`'s message here, whose runs come with `tag` (asked of the router at its
  // first run, then kept in the record with the tag it leaves with).
  [[nodiscard]] PortIndex port_of(NetworkNodeLp& at, TrainMessage& state, const RouteTag& tag) const;

  NetworkContext& context_;
  TrainSettings settings_;
  ChunkFabric chunks_;  // per-chunk paths (spray, valiant)
  bool per_chunk_paths_;
};

}  // namespace rackscale::models::network

#pragma once
// What a node keeps in train fidelity (train_fabric.hpp): per message passing through, and per output port.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/network/message.hpp"
#include "models/network/train_run.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

struct TrainMessage {
  std::uint32_t dst = 0;
  RouteTag tag;                     // as the message reaches this node
  std::uint32_t received = 0;       // chunks that have reached this node: the first of its next run
  // Cuts from upstream that came before the runs they cut (one per run still on its way), ascending.
  std::vector<std::uint32_t> pending_cuts;
  std::uint32_t generation = 0;     // cuts from upstream that took back chunks already here
  std::vector<std::uint32_t> cuts;  // cuts[g]: the first chunk taken back by the cut that ended generation g
  bool ended = false;               // its last chunk has left
  // At the node before the destination: what has left for it so far.
  std::uint64_t bytes = 0;
  pdes::SimTime last_tail = 0;
  bool finalize_pending = false;
  std::uint32_t token = 0;  // the finalize event that is still valid
};

struct TrainPort {
  // The run this port passed last, while some of its chunks reach the port later than now: what a
  // competitor arriving in the meantime takes back.
  bool holds = false;
  Run run;
  pdes::SimTime free_before = 0;
  std::vector<pdes::SimTime> pending;  // times of the runs this node keeps for this port (known competitors)
};

struct TrainNodeState {
  std::unordered_map<MessageId, TrainMessage> messages;
  std::vector<TrainPort> ports;
};

}  // namespace rackscale::models::network

#pragma once
// What a node keeps in train fidelity (train_fabric.hpp): per message passing through, and per output port.
#include <cstdint>
#include <utility>
#include <vector>

#include "models/network/message.hpp"
#include "models/network/router.hpp"
#include "models/network/topology.hpp"
#include "models/network/train_messages.hpp"
#include "models/network/train_run.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::network {

struct TrainMessage {
  static constexpr std::uint32_t kWhole = 0xFFFF'FFFFu;  // no cut
  std::uint32_t dst = 0;
  RouteTag tag;                     // as the message reaches this node
  // Its output port here and its tag as it leaves, once asked of the router (routers are stateless, so
  // both follow from `dst` and `tag`): a cut or a forget finds the port without asking again.
  bool routed = false;
  PortIndex port = 0;
  RouteTag out_tag;
  std::uint32_t received = 0;       // chunks that have reached this node: the first of its next run
  std::uint32_t runs_received = 0;  // runs of it that have reached this node: the number of the next
  std::uint32_t runs_sent = 0;      // runs of it this node has sent on
  // Cuts from upstream that came before the runs they cut: (the run's number, its first chunk taken back).
  // A run may be cut more than once (by a cut from further up, then by a competitor); the lowest holds.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pending_cuts;
  std::uint32_t generation = 0;     // cuts from upstream that took back chunks already here
  std::vector<std::uint32_t> cuts;  // cuts[g]: the first chunk taken back by the cut that ended generation g
  // (a run kept back in generation g keeps only the chunks below every cut from cuts[g] on)
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
  std::uint32_t run_number = 0;  // among the runs of its message this node sent on (what a cut names)
  pdes::SimTime free_before = 0;
  std::vector<pdes::SimTime> pending;  // times of the runs this node keeps for this port (known competitors)
};

struct TrainNodeState {
  TrainMessages<TrainMessage> messages;
  std::vector<TrainPort> ports;
};

}  // namespace rackscale::models::network

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

// The cuts a message's record keeps, rarely any (only where it met contention): outside the record, so
// that the record fits one cache line (it is touched at every run, cut and forget, mostly cold).
struct TrainCuts {
  // Cuts from upstream that came before the runs they cut: (the run's number, its first chunk taken back).
  // A run may be cut more than once (by a cut from further up, then by a competitor); the lowest holds.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pending;
  std::vector<std::uint32_t> taken;  // taken[g]: the first chunk taken back by the cut that ended generation g
  // (a run kept back in generation g keeps only the chunks below every cut from taken[g] on)
};

struct alignas(64) TrainMessage {
  static constexpr std::uint32_t kWhole = 0xFFFF'FFFFu;  // no cut
  static constexpr std::uint32_t kNoCuts = 0xFFFF'FFFFu;
  // At the node before the destination: what has left for it so far.
  std::uint64_t bytes = 0;
  pdes::SimTime last_tail = 0;
  // Its tag as it leaves this node and its output port here, asked of the router at its first run
  // (routers are stateless, so every run of it takes the same port): later runs, cuts and forgets do not
  // ask again.
  RouteTag out_tag;
  std::uint32_t dst = 0;
  std::uint32_t received = 0;       // chunks that have reached this node: the first of its next run
  std::uint32_t runs_received = 0;  // runs of it that have reached this node: the number of the next
  std::uint32_t runs_sent = 0;      // runs of it this node has sent on
  std::uint32_t generation = 0;     // cuts from upstream that took back chunks already here
  std::uint32_t token = 0;          // numbers this node's kTrainComplete events for the message
  std::uint32_t cuts = kNoCuts;     // its TrainCuts in the node's pool (TrainNodeState::cuts), if any
  PortIndex port = 0;
  bool routed : 1 = false;
  bool ended : 1 = false;             // its last chunk has left
  bool completion_voidable : 1 = false;  // a kTrainComplete is out that a cut here would have to void
};
static_assert(sizeof(TrainMessage) == 64, "a train record is one cache line");

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
  std::vector<TrainCuts> cuts;            // the records' cut lists
  std::vector<std::uint32_t> free_cuts;   // lists no record points to
  // At a destination device: completions announced and then voided by the node before (kTrainVoid), each
  // until its kTrainComplete comes (always later); rarely more than one.
  std::vector<std::pair<MessageId, std::uint32_t>> voided;

  // `state`'s cut list, made if it has none.
  [[nodiscard]] TrainCuts& cuts_of(TrainMessage& state);
  // `state` as a new message's record (an id is reused once its message has left), its cuts released.
  void renew(TrainMessage& state);
  // Forgets `id`'s record and its cuts.
  void forget(MessageId id);
};

}  // namespace rackscale::models::network

#include "models/network/train_state.hpp"

namespace rackscale::models::network {

TrainCuts& TrainNodeState::cuts_of(TrainMessage& state) {
  if (state.cuts == TrainMessage::kNoCuts) {
    if (free_cuts.empty()) {
      state.cuts = static_cast<std::uint32_t>(cuts.size());
      cuts.emplace_back();
    } else {
      state.cuts = free_cuts.back();
      free_cuts.pop_back();
    }
  }
  return cuts[state.cuts];
}

void TrainNodeState::renew(TrainMessage& state) {
  if (state.cuts != TrainMessage::kNoCuts) {
    TrainCuts& list = cuts[state.cuts];
    list.pending.clear();
    list.taken.clear();
    free_cuts.push_back(state.cuts);
  }
  state = TrainMessage{};
}

void TrainNodeState::forget(MessageId id) {
  TrainMessage* const state = messages.find(id);
  if (state == nullptr) return;
  renew(*state);
  messages.erase(id);
}

}  // namespace rackscale::models::network

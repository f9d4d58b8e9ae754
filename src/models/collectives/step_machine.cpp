#include "models/collectives/step_machine.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/vector.hpp>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "pdes/checkpoint_containers.hpp"

namespace rackscale::models::collectives {

StepMachine::StepMachine(std::unique_ptr<StepPlan> plan, std::uint64_t bytes, std::uint32_t channels,
                         std::uint32_t pieces)
    : plan_(std::move(plan)),
      bytes_(bytes),
      channels_(channels),
      pieces_(pieces),
      steps_(plan_->steps()),
      unfinished_(channels * pieces),
      channel_bytes_(channels),
      pieces_state_(static_cast<std::size_t>(channels) * pieces),
      at_barrier_(channels) {
  for (std::uint32_t c = 0; c < channels; ++c) channel_bytes_[c] = split(bytes, channels, c);
}

void StepMachine::begin(network::DeviceLp& device, Outbox& out) {
  for (std::uint32_t c = 0; c < channels_; ++c)
    for (std::uint32_t k = 0; k < pieces_; ++k) {
      advance_arrivals(c, k);
      try_send(device, out, c, k);
      update_done(c, k);
    }
  for (std::uint32_t c = 0; c < channels_; ++c) release_barrier(device, out, c);
}

void StepMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) {
  // index = (s * C + c) * P + k, taken apart with two divisions (one when P = 1), not four.
  const std::uint32_t s = index / (channels_ * pieces_);
  const std::uint32_t in_step = index - s * channels_ * pieces_;
  const std::uint32_t c = pieces_ == 1 ? in_step : in_step / pieces_;
  const std::uint32_t k = in_step - c * pieces_;
  if (s >= steps_)
    throw std::logic_error(fmt::format("collective: device {} got message {} (step {}) from device {}, but the call "
                                       "has {} steps",
                                       device.device(), index, s, src_device, steps_));
  Piece& p = piece(c, k);
  const std::uint32_t ahead = s - p.arrived;
  bool fresh = false;
  if (s >= p.arrived && ahead < 64) {
    fresh = (p.early & (std::uint64_t{1} << ahead)) == 0 && (early_far_.empty() || !early_far_.contains(index));
    p.early |= std::uint64_t{1} << ahead;
  } else if (s >= p.arrived) {
    fresh = early_far_.insert(index).second;
  }
  if (!fresh)
    throw std::logic_error(fmt::format("collective: device {} got message {} from device {} twice", device.device(),
                                       index, src_device));
  advance_arrivals(c, k);
  try_send(device, out, c, k);
  update_done(c, k);
  release_barrier(device, out, c);
}

// A phase boundary waits for every piece of the step before: an arrival may release the pieces waiting.
void StepMachine::release_barrier(network::DeviceLp& device, Outbox& out, std::uint32_t channel) {
  if (barrier_pieces_ == 0) return;  // (most calls have no barrier: no look at the channel's list)
  std::vector<std::uint32_t>& waiting = at_barrier_[channel];
  if (waiting.empty()) return;
  const std::uint32_t least = min_arrived(channel);
  std::vector<std::uint32_t> still;
  const std::vector<std::uint32_t> candidates = std::move(waiting);
  waiting.clear();
  for (const std::uint32_t k : candidates) {
    Piece& p = piece(channel, k);
    if (least < p.next_send) {
      still.push_back(k);
      continue;
    }
    p.at_barrier = false;
    try_send(device, out, channel, k);
    update_done(channel, k);
  }
  barrier_pieces_ -= static_cast<std::uint32_t>(candidates.size() - still.size());
  waiting.insert(waiting.end(), still.begin(), still.end());
}

void StepMachine::advance_arrivals(std::uint32_t channel, std::uint32_t k) {
  Piece& p = piece(channel, k);
  const std::uint64_t data = channel_bytes(channel);
  while (p.arrived < steps_) {
    const Step st = plan_->step(p.arrived, channel, data);
    std::uint32_t next = p.arrived + 1;
    if (!takes_part(st, k)) {
      next = std::max(next, std::min(st.resume_at, steps_));
    } else if (st.recv_from != kNoPeer) {
      if ((p.early & 1) != 0) {
        p.early &= ~std::uint64_t{1};
      } else if (early_far_.empty() || early_far_.erase(index(p.arrived, channel, k)) == 0) {
        break;
      }
    }
    // Steps skipped hold no message, so nothing set is shifted out below bit 0.
    const std::uint32_t by = next - p.arrived;
    p.early = by < 64 ? p.early >> by : 0;
    p.arrived = next;
  }
}

std::uint32_t StepMachine::min_arrived(std::uint32_t channel) const noexcept {
  std::uint32_t least = steps_;
  for (std::uint32_t k = 0; k < pieces_; ++k) least = std::min(least, pieces_state_[channel * pieces_ + k].arrived);
  return least;
}

void StepMachine::try_send(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k) {
  Piece& p = piece(channel, k);
  const std::uint64_t data = channel_bytes(channel);
  while (p.next_send < steps_) {
    const std::uint32_t s = p.next_send;
    const Step st = plan_->step(s, channel, data);
    if (!takes_part(st, k)) {
      p.next_send = std::max(s + 1, std::min(st.resume_at, steps_));
      continue;
    }
    if (st.send_to != kNoPeer) {
      bool ready = true;
      switch (st.dependency) {
        case Dependency::none: break;
        case Dependency::previous_piece: ready = p.arrived >= s; break;
        case Dependency::same_piece: ready = p.arrived > s; break;
        case Dependency::previous_all: ready = min_arrived(channel) >= s; break;
      }
      if (!ready) {
        if (st.dependency == Dependency::previous_all && !p.at_barrier) {
          p.at_barrier = true;
          at_barrier_[channel].push_back(k);
          ++barrier_pieces_;
        }
        return;
      }
      const std::uint32_t parts = st.pieces ? st.pieces : pieces_;
      // (most messages are one piece: no division for them)
      out.send(device, st.send_to, parts == 1 ? st.send_bytes : split(st.send_bytes, parts, k), channel,
               index(s, channel, k));
    }
    ++p.next_send;
  }
}

// Piece k takes part in step s exactly when k < the step's pieces (a piece that skips to resume_at only
// passes over steps it does not take part in), so each step sends its message once per taking piece.
void StepMachine::list_sends(std::vector<SentMessages>& out) const {
  for (std::uint32_t c = 0; c < channels_; ++c) {
    const std::uint64_t data = channel_bytes(c);
    if (plan_->sum_sends(c, data, pieces_, out)) continue;
    for (std::uint32_t s = 0; s < steps_; ++s) {
      const Step st = plan_->step(s, c, data);
      if (st.send_to != kNoPeer) append_parts(out, st.send_to, c, st.send_bytes, st.pieces ? st.pieces : pieces_);
    }
  }
}

void StepMachine::update_done(std::uint32_t channel, std::uint32_t k) {
  Piece& p = piece(channel, k);
  if (!p.done && p.next_send == steps_ && p.arrived == steps_) {
    p.done = true;
    --unfinished_;
  }
}

// The plan is the call's; what moves is each piece's progress and the messages that came early.
void StepMachine::save(boost::archive::binary_oarchive& out) const {
  for (const Piece& p : pieces_state_) out & p.next_send & p.arrived & p.early & p.done & p.at_barrier;
  pdes::save_sorted(out, early_far_);
  for (const std::vector<std::uint32_t>& waiting : at_barrier_) out & waiting;
  out & unfinished_;
}

void StepMachine::load(boost::archive::binary_iarchive& in) {
  for (Piece& p : pieces_state_) in & p.next_send & p.arrived & p.early & p.done & p.at_barrier;
  pdes::load_sorted(in, early_far_);
  barrier_pieces_ = 0;
  for (std::vector<std::uint32_t>& waiting : at_barrier_) {
    in & waiting;
    barrier_pieces_ += static_cast<std::uint32_t>(waiting.size());
  }
  in & unfinished_;
}

}  // namespace rackscale::models::collectives

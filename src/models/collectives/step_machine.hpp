#pragma once
// The state machine shared by every algorithm that proceeds in steps (ring reduce-scatter, all-gather
// and all-reduce, chain broadcast, halving-doubling, hierarchical, all-to-all). A StepPlan says, for
// each step, whom this member sends to and receives from and how many bytes; the machine runs it over
// C channels (each with its share of the data) and P pipeline pieces per message:
//
//   piece k of step s is sent once its dependency is met:
//     none            at once (first steps, all-to-all);
//     previous_piece  piece k of step s - 1 has arrived (a ring step forwards what it just received);
//     previous_all    every piece of step s - 1 has arrived (the first step of a new phase, which needs
//                     the whole result of the phase before);
//     same_piece      piece k of step s has arrived (a broadcast chain forwards what it receives).
//
// Steps without a receive count as arrived; steps without a send are skipped (so are steps of fewer
// pieces than P, for the pieces beyond). Every member numbers
// steps the same way, so a message's index ((step * C + channel) * P + piece) names the same step on
// both ends. Messages may arrive in any order (spraying reorders them); early ones wait as bits of their
// piece, or in a set when they come 64 or more steps ahead.
#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "models/collectives/call_state.hpp"

namespace rackscale::models::collectives {

enum class Dependency : std::uint8_t { none, previous_piece, previous_all, same_piece };

struct Step {
  std::uint32_t send_to = kNoPeer;  // device
  std::uint64_t send_bytes = 0;
  std::uint32_t recv_from = kNoPeer;  // device
  Dependency dependency = Dependency::none;
  // Pieces this step's message is cut into, at most the call's P (0: P). Steps whose messages are much
  // smaller than the rest (the inter-domain ring of the hierarchical algorithm) use fewer, so they do
  // not cost P tiny messages each; the other pieces skip the step. Only a step that follows a phase
  // barrier (previous_all) or one with the same count may change it, so no piece can run ahead of data
  // it does not have.
  std::uint32_t pieces = 0;
  // For the pieces beyond `pieces`: the next step they take part in (0: the next step), so that they
  // skip a long run of few-piece steps at once.
  std::uint32_t resume_at = 0;
};

class StepPlan {
 public:
  virtual ~StepPlan() = default;
  [[nodiscard]] virtual std::uint32_t steps() const = 0;
  // Step `s` of channel `channel`, whose share of the call's data is `data` bytes.
  [[nodiscard]] virtual Step step(std::uint32_t s, std::uint32_t channel, std::uint64_t data) const = 0;
  // What channel `channel` sends over the whole call, each message cut into `pieces`, appended to `out`
  // by formula (the same messages, by size, as walking the steps), in O(1); false: no formula, walk the
  // steps (CallState::list_sends).
  [[nodiscard]] virtual bool sum_sends(std::uint32_t /*channel*/, std::uint64_t /*data*/, std::uint32_t /*pieces*/,
                                       std::vector<SentMessages>& /*out*/) const {
    return false;
  }
};

class StepMachine final : public CallState {
 public:
  // `bytes` is split over `channels`; each message over `pieces`.
  StepMachine(std::unique_ptr<StepPlan> plan, std::uint64_t bytes, std::uint32_t channels, std::uint32_t pieces);

  void begin(network::DeviceLp& device, Outbox& out) override;
  void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) override;
  [[nodiscard]] bool finished() const override { return unfinished_ == 0; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;
  void list_sends(std::vector<SentMessages>& out) const override;

 private:
  struct Piece {
    std::uint32_t next_send = 0;  // the next step whose send is pending
    std::uint32_t arrived = 0;    // steps [0, arrived) have arrived (or have no receive)
    // Steps arrived + i (i < 64) whose message is in but not yet taken: bit i. Messages of a piece nearly
    // always come in order, so a bit rather than a hash set (an insert and an erase per message); those
    // that come 64 or more steps ahead go to early_far_.
    std::uint64_t early = 0;
    bool done = false;
    bool at_barrier = false;      // its next send waits for every piece of the step before
  };
  [[nodiscard]] std::uint64_t channel_bytes(std::uint32_t channel) const noexcept { return channel_bytes_[channel]; }
  [[nodiscard]] Piece& piece(std::uint32_t channel, std::uint32_t k) noexcept { return pieces_state_[channel * pieces_ + k]; }
  [[nodiscard]] std::uint32_t index(std::uint32_t step, std::uint32_t channel, std::uint32_t k) const noexcept {
    return (step * channels_ + channel) * pieces_ + k;
  }
  [[nodiscard]] static bool takes_part(const Step& step, std::uint32_t k) noexcept {
    return step.pieces == 0 || k < step.pieces;
  }
  void advance_arrivals(std::uint32_t channel, std::uint32_t k);
  void try_send(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k);
  void release_barrier(network::DeviceLp& device, Outbox& out, std::uint32_t channel);
  [[nodiscard]] std::uint32_t min_arrived(std::uint32_t channel) const noexcept;
  void update_done(std::uint32_t channel, std::uint32_t k);

  // The members a message reads first, then its channel's bytes and its piece, inside the object for up
  // to 4 channels and 4 pieces per channel (a ring's call: 2 to 8 channels of one piece): a delivery read
  // the object and three allocations of its own (docs/performance.md).
  std::unique_ptr<StepPlan> plan_;
  std::uint64_t bytes_;
  std::uint32_t channels_;
  std::uint32_t pieces_;
  std::uint32_t steps_;
  std::uint32_t unfinished_;
  std::uint32_t barrier_pieces_ = 0;  // pieces waiting at a phase barrier, over all channels (at_barrier_)
  // Each channel's share of the bytes (split(bytes, channels, c)), asked twice per message: worked out once.
  boost::container::small_vector<std::uint64_t, 4> channel_bytes_;
  boost::container::small_vector<Piece, 4> pieces_state_;
  std::unordered_set<std::uint32_t> early_far_;  // indices that arrived 64 or more steps before their turn
  std::vector<std::vector<std::uint32_t>> at_barrier_;  // per channel: pieces waiting at a phase barrier
};

}  // namespace rackscale::models::collectives

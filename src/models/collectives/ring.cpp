#include "models/collectives/ring.hpp"

#include <boost/container/small_vector.hpp>

namespace rackscale::models::collectives {

namespace {
struct RingNeighbours {
  std::uint32_t position = 0;
  std::uint32_t next = kNoPeer;  // devices
  std::uint32_t previous = kNoPeer;
};

class RingPlan final : public StepPlan {
 public:
  RingPlan(accelerator::CollectiveKind kind, const MemberLayout& layout, std::span<const std::uint32_t> members,
           std::uint32_t rank, std::uint32_t channels)
      : kind_(kind), p_(layout.members), rings_(channels) {
    for (std::uint32_t c = 0; c < channels; ++c) {
      const std::uint32_t q = layout.ring_position(rank, c);
      rings_[c].position = q;
      rings_[c].next = members[layout.ring_member((q + 1) % p_, c)];
      rings_[c].previous = members[layout.ring_member((q + p_ - 1) % p_, c)];
    }
  }

  [[nodiscard]] std::uint32_t steps() const override {
    return kind_ == accelerator::CollectiveKind::all_reduce ? 2 * (p_ - 1) : p_ - 1;
  }

  [[nodiscard]] Step step(std::uint32_t s, std::uint32_t channel, std::uint64_t data) const override {
    const RingNeighbours& ring = rings_[channel];
    const std::uint32_t q = ring.position;
    std::uint32_t segment = 0;
    const bool gather = kind_ == accelerator::CollectiveKind::all_gather ||
                        (kind_ == accelerator::CollectiveKind::all_reduce && s >= p_ - 1);
    if (!gather) {
      segment = (q + p_ - s % p_) % p_;
    } else {
      const std::uint32_t j = kind_ == accelerator::CollectiveKind::all_gather ? s : s - (p_ - 1);
      segment = (q + 1 + p_ - j % p_) % p_;
    }
    Step st;
    st.send_to = ring.next;
    st.recv_from = ring.previous;
    st.send_bytes = split(data, p_, segment);
    st.dependency = s == 0 ? Dependency::none : Dependency::previous_piece;
    return st;
  }

  // Every step sends one segment of split(data, p) to the ring's next member: reduce-scatter every
  // segment but (q + 1) mod p, all-gather every one but (q + 2) mod p, all-reduce both. Segments come in
  // two sizes (the first data % p are a byte larger), so the steps' messages are those two sizes with
  // counts that follow from which segments are left out.
  [[nodiscard]] bool sum_sends(std::uint32_t channel, std::uint64_t data, std::uint32_t pieces,
                               std::vector<SentMessages>& out) const override {
    const RingNeighbours& ring = rings_[channel];
    const std::uint64_t larger = data % p_;  // segments [0, larger) hold one byte more
    std::uint64_t large = 0, small = 0;
    const auto all_but = [&](std::uint32_t left_out) {
      large += larger - (left_out < larger ? 1 : 0);
      small += (p_ - larger) - (left_out < larger ? 0 : 1);
    };
    const std::uint32_t q = ring.position;
    if (kind_ != accelerator::CollectiveKind::all_gather) all_but((q + 1) % p_);
    if (kind_ != accelerator::CollectiveKind::reduce_scatter) all_but((q + 2) % p_);
    const std::uint64_t segment = data / p_;
    for (const auto& [bytes, count] : {std::pair{segment + 1, large}, std::pair{segment, small}}) {
      if (count == 0 || bytes == 0) continue;
      // append_parts' two sizes of part, `count` times over.
      const std::uint64_t part = bytes / pieces, bigger = bytes % pieces;
      if (bigger > 0) out.push_back({ring.next, channel, part + 1, bigger * count, Leg::to_device});
      if (part > 0) out.push_back({ring.next, channel, part, (pieces - bigger) * count, Leg::to_device});
    }
    return true;
  }

 private:
  accelerator::CollectiveKind kind_;
  std::uint32_t p_;
  // The channels' neighbours, the first 8 inside the plan: a step reads its channel's at every message,
  // and a list of its own was one more cache miss per message (docs/performance.md).
  boost::container::small_vector<RingNeighbours, 8> rings_;
};

class ChainPlan final : public StepPlan {
 public:
  explicit ChainPlan(std::vector<RingNeighbours> chains) : chains_(std::move(chains)) {}
  [[nodiscard]] std::uint32_t steps() const override { return 1; }
  [[nodiscard]] Step step(std::uint32_t, std::uint32_t channel, std::uint64_t data) const override {
    Step st;
    st.send_to = chains_[channel].next;
    st.recv_from = chains_[channel].previous;
    st.send_bytes = data;
    st.dependency = Dependency::same_piece;
    return st;
  }

 private:
  std::vector<RingNeighbours> chains_;  // previous / next are kNoPeer at the chain's ends
};
}  // namespace

std::unique_ptr<StepPlan> make_ring_plan(accelerator::CollectiveKind kind, const MemberLayout& layout,
                                         std::span<const std::uint32_t> members, std::uint32_t rank,
                                         std::uint32_t channels) {
  return std::make_unique<RingPlan>(kind, layout, members, rank, channels);
}

namespace {
// A chain along each channel's ring that starts at ring position `first` (counted from the root's place)
// and runs through every member: each forwards each piece as soon as it has it.
std::unique_ptr<StepPlan> make_chain_plan(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                          std::uint32_t rank, std::uint32_t root, std::uint32_t first,
                                          std::uint32_t channels) {
  const std::uint32_t p = layout.members;
  std::vector<RingNeighbours> chains(channels);
  for (std::uint32_t c = 0; c < channels; ++c) {
    // Positions along the chain count from its head's place in this channel's ring.
    const std::uint32_t start = (layout.ring_position(root, c) + first) % p;
    const std::uint32_t q = (layout.ring_position(rank, c) + p - start) % p;
    chains[c].position = q;
    if (q + 1 < p) chains[c].next = members[layout.ring_member((start + q + 1) % p, c)];
    if (q > 0) chains[c].previous = members[layout.ring_member((start + q - 1) % p, c)];
  }
  return std::make_unique<ChainPlan>(std::move(chains));
}
}  // namespace

std::unique_ptr<StepPlan> make_chain_broadcast_plan(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                                    std::uint32_t rank, std::uint32_t root, std::uint32_t channels) {
  return make_chain_plan(layout, members, rank, root, 0, channels);
}

std::unique_ptr<StepPlan> make_chain_reduce_plan(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                                 std::uint32_t rank, std::uint32_t root, std::uint32_t channels) {
  // The chain starts at the root's successor and ends at the root, as NCCL's ring reduce does.
  return make_chain_plan(layout, members, rank, root, 1, channels);
}

}  // namespace rackscale::models::collectives

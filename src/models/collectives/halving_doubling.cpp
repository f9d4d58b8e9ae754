#include "models/collectives/halving_doubling.hpp"

#include <bit>
#include <stdexcept>
#include <vector>

namespace rackscale::models::collectives {

bool is_power_of_two(std::uint32_t n) noexcept { return std::has_single_bit(n); }

namespace {
using accelerator::CollectiveKind;

// Global step numbering, the same on every member:
//   all_reduce:      0 fold | 1 .. k halving | k+1 .. 2k doubling | 2k+1 unfold
//   reduce_scatter:  0 .. k-1 halving;   all_gather: 0 .. k-1 doubling
class HalvingDoublingPlan final : public StepPlan {
 public:
  HalvingDoublingPlan(CollectiveKind kind, std::span<const std::uint32_t> members, std::uint32_t rank) : kind_(kind) {
    const auto p = static_cast<std::uint32_t>(members.size());
    const std::uint32_t p2 = std::bit_floor(p);
    const std::uint32_t r = p - p2;
    k_ = static_cast<std::uint32_t>(std::countr_zero(p2));
    if (rank < 2 * r) {
      if (rank % 2 == 0) {  // folds into rank + 1 and waits for the result
        excluded_ = true;
        fold_peer_ = members[rank + 1];
        return;
      }
      fold_peer_ = members[rank - 1];
      virtual_rank_ = rank / 2;
    } else {
      virtual_rank_ = rank - r;
    }
    partners_.resize(k_);
    for (std::uint32_t i = 0; i < k_; ++i) {
      const std::uint32_t w = virtual_rank_ ^ (1u << i);
      partners_[i] = members[w < r ? 2 * w + 1 : w + r];
    }
  }

  [[nodiscard]] std::uint32_t steps() const override { return kind_ == CollectiveKind::all_reduce ? 2 * k_ + 2 : k_; }

  [[nodiscard]] Step step(std::uint32_t s, std::uint32_t, std::uint64_t data) const override {
    Step st;
    if (kind_ != CollectiveKind::all_reduce) return exchange(kind_ == CollectiveKind::reduce_scatter ? s : k_ + s, data);
    if (s == 0) {  // fold
      if (excluded_) {
        st.send_to = fold_peer_;
        st.send_bytes = data;
      } else if (fold_peer_ != kNoPeer) {
        st.recv_from = fold_peer_;
      }
      return st;
    }
    if (s == 2 * k_ + 1) {  // unfold
      if (excluded_) {
        st.recv_from = fold_peer_;
      } else if (fold_peer_ != kNoPeer) {
        st.send_to = fold_peer_;
        st.send_bytes = data;
        st.dependency = Dependency::previous_all;
      }
      return st;
    }
    if (excluded_) return st;
    st = exchange(s - 1, data);
    // The first exchange needs the whole folded-in buffer.
    if (s == 1) st.dependency = Dependency::previous_all;
    return st;
  }

 private:
  // Exchange e of the 2k (0 .. k-1 halving, k .. 2k-1 doubling) for a member of the power-of-two group.
  [[nodiscard]] Step exchange(std::uint32_t e, std::uint64_t data) const {
    // Block sizes: before halving step i the member holds held[i]; it sends sent[i] and keeps the rest.
    // The member whose bit i is 0 keeps the lower half (the smaller when odd).
    const std::uint32_t i = e < k_ ? e : 2 * k_ - 1 - e;
    std::uint64_t held = data, sent = 0, kept = 0;
    for (std::uint32_t j = 0; j <= i; ++j) {
      const std::uint64_t lower = held / 2, upper = held - held / 2;
      const bool low = ((virtual_rank_ >> j) & 1u) == 0;
      kept = low ? lower : upper;
      sent = low ? upper : lower;
      held = kept;
    }
    Step st;
    st.send_to = partners_[i];
    st.recv_from = partners_[i];
    // Halving sends the half it gives away; doubling sends the block it holds after halving step i.
    st.send_bytes = e < k_ ? sent : kept;
    st.dependency = e == 0 ? Dependency::none : Dependency::previous_piece;
    return st;
  }

  CollectiveKind kind_;
  std::uint32_t k_ = 0;
  bool excluded_ = false;
  std::uint32_t fold_peer_ = kNoPeer;
  std::uint32_t virtual_rank_ = 0;
  std::vector<std::uint32_t> partners_;  // device of the partner at distance 2^i
};
}  // namespace

std::unique_ptr<StepPlan> make_halving_doubling_plan(CollectiveKind kind, std::span<const std::uint32_t> members,
                                                     std::uint32_t rank) {
  if (kind != CollectiveKind::all_reduce && !is_power_of_two(static_cast<std::uint32_t>(members.size())))
    throw std::logic_error("halving-doubling reduce-scatter and all-gather need a power-of-two member count");
  return std::make_unique<HalvingDoublingPlan>(kind, members, rank);
}

}  // namespace rackscale::models::collectives

#include "models/collectives/hierarchical.hpp"

namespace rackscale::models::collectives {

namespace {
class HierarchicalPlan final : public StepPlan {
 public:
  HierarchicalPlan(const MemberLayout& layout, std::span<const std::uint32_t> members, std::uint32_t rank,
                   std::uint32_t inter_pieces)
      : L_(layout.per_domain),
        N_(layout.domains),
        n_(layout.domain_index(rank)),
        j_(layout.local_index(rank)),
        inter_pieces_(inter_pieces) {
    intra_next_ = members[layout.rank_of(n_, (j_ + 1) % L_)];
    intra_previous_ = members[layout.rank_of(n_, (j_ + L_ - 1) % L_)];
    inter_next_ = members[layout.rank_of((n_ + 1) % N_, j_)];
    inter_previous_ = members[layout.rank_of((n_ + N_ - 1) % N_, j_)];
  }

  [[nodiscard]] std::uint32_t steps() const override { return 2 * (L_ - 1) + 2 * (N_ - 1); }

  [[nodiscard]] Step step(std::uint32_t s, std::uint32_t, std::uint64_t data) const override {
    Step st;
    const std::uint32_t phase2 = L_ - 1, phase3 = L_ - 1 + 2 * (N_ - 1);
    if (s < phase2) {  // reduce-scatter inside the domain: position j sends segment (j - s) mod L
      st.send_to = intra_next_;
      st.recv_from = intra_previous_;
      st.send_bytes = split(data, L_, (j_ + L_ - s % L_) % L_);
      st.dependency = s == 0 ? Dependency::none : Dependency::previous_piece;
    } else if (s < phase3) {  // ring all-reduce across domains of the owned segment (j + 1) mod L
      const std::uint64_t owned = split(data, L_, (j_ + 1) % L_);
      const std::uint32_t t = s - phase2;
      const std::uint32_t segment = t < N_ - 1 ? (n_ + N_ - t % N_) % N_ : (n_ + 1 + N_ - (t - (N_ - 1)) % N_) % N_;
      st.send_to = inter_next_;
      st.recv_from = inter_previous_;
      st.send_bytes = split(owned, N_, segment);
      st.dependency = t == 0 ? Dependency::previous_all : Dependency::previous_piece;
      st.pieces = inter_pieces_;
      st.resume_at = phase3;
    } else {  // all-gather inside the domain
      const std::uint32_t t = s - phase3;
      st.send_to = intra_next_;
      st.recv_from = intra_previous_;
      st.send_bytes = split(data, L_, (j_ + 1 + L_ - t % L_) % L_);
      st.dependency = t == 0 ? Dependency::previous_all : Dependency::previous_piece;
    }
    return st;
  }

 private:
  std::uint32_t L_, N_, n_, j_, inter_pieces_;
  std::uint32_t intra_next_ = kNoPeer, intra_previous_ = kNoPeer, inter_next_ = kNoPeer, inter_previous_ = kNoPeer;
};
}  // namespace

std::unique_ptr<StepPlan> make_hierarchical_plan(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                                 std::uint32_t rank, std::uint32_t inter_pieces) {
  return std::make_unique<HierarchicalPlan>(layout, members, rank, inter_pieces);
}

}  // namespace rackscale::models::collectives

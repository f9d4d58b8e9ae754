#include "models/collectives/all_to_all.hpp"

namespace rackscale::models::collectives {

namespace {
class PairwisePlan final : public StepPlan {
 public:
  PairwisePlan(std::span<const std::uint32_t> members, std::uint32_t rank)
      : members_(members.begin(), members.end()), rank_(rank) {}

  [[nodiscard]] std::uint32_t steps() const override { return static_cast<std::uint32_t>(members_.size()) - 1; }

  [[nodiscard]] Step step(std::uint32_t s, std::uint32_t, std::uint64_t data) const override {
    const auto p = static_cast<std::uint32_t>(members_.size());
    const std::uint32_t offset = s + 1;
    Step st;
    st.send_to = members_[(rank_ + offset) % p];
    st.recv_from = members_[(rank_ + p - offset) % p];
    st.send_bytes = split(data, p, (rank_ + offset) % p);
    st.dependency = Dependency::none;
    return st;
  }

 private:
  std::vector<std::uint32_t> members_;  // every peer is addressed, so the plan keeps the list
  std::uint32_t rank_;
};
}  // namespace

std::unique_ptr<StepPlan> make_all_to_all_plan(std::span<const std::uint32_t> members, std::uint32_t rank) {
  return std::make_unique<PairwisePlan>(members, rank);
}

}  // namespace rackscale::models::collectives

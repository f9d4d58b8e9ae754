#include "models/collectives/point_to_point.hpp"

#include <vector>

namespace rackscale::models::collectives {

namespace {
// Gather and scatter: p - 1 rounds between the root and the member s + 1 places after it (round s). The
// root takes part in every round; any other member only in its own.
class RootedPlan final : public StepPlan {
 public:
  RootedPlan(std::span<const std::uint32_t> members, std::uint32_t rank, std::uint32_t root, bool to_root)
      : members_(members.begin(), members.end()), rank_(rank), root_(root), to_root_(to_root) {}

  [[nodiscard]] std::uint32_t steps() const override { return static_cast<std::uint32_t>(members_.size()) - 1; }

  [[nodiscard]] Step step(std::uint32_t s, std::uint32_t, std::uint64_t data) const override {
    const auto p = static_cast<std::uint32_t>(members_.size());
    const std::uint32_t peer = (root_ + s + 1) % p;  // the member of round s
    Step st;
    st.dependency = Dependency::none;
    if (rank_ == root_) {
      if (to_root_)
        st.recv_from = members_[peer];
      else
        st.send_to = members_[peer];
    } else if (rank_ == peer) {
      if (to_root_)
        st.send_to = members_[root_];
      else
        st.recv_from = members_[root_];
    }
    st.send_bytes = split(data, p, peer);  // the round's member's part of the buffer
    return st;
  }

 private:
  std::vector<std::uint32_t> members_;  // the root addresses every member, so the plan keeps the list
  std::uint32_t rank_;
  std::uint32_t root_;
  bool to_root_;  // gather; else scatter
};

class SendRecvPlan final : public StepPlan {
 public:
  SendRecvPlan(std::uint32_t next, std::uint32_t previous) : next_(next), previous_(previous) {}
  [[nodiscard]] std::uint32_t steps() const override { return 1; }
  [[nodiscard]] Step step(std::uint32_t, std::uint32_t, std::uint64_t data) const override {
    Step st;
    st.send_to = next_;
    st.recv_from = previous_;
    st.send_bytes = data;
    st.dependency = Dependency::none;
    return st;
  }

 private:
  std::uint32_t next_, previous_;  // devices
};
}  // namespace

std::unique_ptr<StepPlan> make_gather_plan(std::span<const std::uint32_t> members, std::uint32_t rank,
                                           std::uint32_t root) {
  return std::make_unique<RootedPlan>(members, rank, root, true);
}

std::unique_ptr<StepPlan> make_scatter_plan(std::span<const std::uint32_t> members, std::uint32_t rank,
                                            std::uint32_t root) {
  return std::make_unique<RootedPlan>(members, rank, root, false);
}

std::unique_ptr<StepPlan> make_sendrecv_plan(std::span<const std::uint32_t> members, std::uint32_t rank) {
  const auto p = static_cast<std::uint32_t>(members.size());
  return std::make_unique<SendRecvPlan>(members[(rank + 1) % p], members[(rank + p - 1) % p]);
}

}  // namespace rackscale::models::collectives

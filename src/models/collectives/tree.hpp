#pragma once
// Tree all-reduce as NCCL runs it: a double binary tree over the scale-up domains the members span, and
// a chain inside each domain. Each tree carries half of the data, split further over channel pairs;
// channel t uses tree t mod 2 and enters each domain at local index (t / 2) mod L (the chain's head, the
// one member of the domain in the inter-domain tree), so a pair of channels shares one device's NIC
// and different pairs use different NICs. With one member per domain (L = 1) it is a pure double binary
// tree over the members; inside one domain (N = 1), a chain.
//
// Reduce: a member sends piece k to its parent once piece k has arrived from all its children (leaves
// at once). The root then has piece k reduced and starts broadcasting it; every member forwards each
// broadcast piece to its children as it arrives. Pieces pipeline through the tree.
//
// Closed form used by the tests (pure double binary tree, p = 2^k members, one channel per tree, no
// pipelining, no contention, children served in order so a second child waits g = S / (2 B) more):
//   T = 2 k (a + S / (2 B)) + (k - 1) S / (2 B)
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "models/collectives/call_state.hpp"
#include "models/collectives/member_layout.hpp"

namespace rackscale::models::collectives {

struct TreeChannel {
  std::uint32_t parent = kNoPeer;  // devices
  std::array<std::uint32_t, 3> children{kNoPeer, kNoPeer, kNoPeer};  // inter-domain tree children, chain child
  std::uint32_t child_count = 0;
  void add_child(std::uint32_t device) noexcept { children[child_count++] = device; }
};

// Channel t's links for this member (tree_channels is even: channel pairs).
[[nodiscard]] std::vector<TreeChannel> tree_channels(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                                     std::uint32_t rank, std::uint32_t tree_channels);

class TreeMachine final : public CallState {
 public:
  TreeMachine(std::vector<TreeChannel> channels, std::uint64_t bytes, std::uint32_t pieces);

  void begin(network::DeviceLp& device, Outbox& out) override;
  void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) override;
  [[nodiscard]] bool finished() const override { return done_ == channels_.size() * pieces_; }
  void list_sends(std::vector<SentMessages>& out) const override;

 private:
  struct PieceState {
    std::uint32_t reduced_from = 0;  // children whose piece has arrived
    bool done = false;
  };
  [[nodiscard]] std::uint32_t index(std::uint32_t channel, std::uint32_t phase, std::uint32_t k) const noexcept {
    return (channel * 2 + phase) * pieces_ + k;
  }
  [[nodiscard]] std::uint64_t piece_bytes(std::uint32_t channel, std::uint32_t k) const noexcept;
  void reduced(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k);
  void broadcast(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k);

  std::vector<TreeChannel> channels_;
  std::uint64_t bytes_;
  std::uint32_t pieces_;
  std::vector<PieceState> state_;
  std::size_t done_ = 0;
};

}  // namespace rackscale::models::collectives

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
// Flow control, as NCCL's connections have it: a receiver holds a sender's pieces in a buffer of
// NCCL_BUFFSIZE (4 MiB) per channel and connection, so a sender may be at most W = buffer / piece pieces
// (at least 1) ahead of what the receiver has passed on. A member passes a child's reduce piece k on when
// it sends its own piece k up (the root: when it has sent piece k down to every child) and a parent's
// broadcast piece k when it has sent it to every child (a leaf: on arrival), and then returns a zero-byte
// credit for it. Only the first P - W credits of a connection are sent: the sender never waits for the
// others, and a member's part is over when its own pieces are out, so no credit outlives its call.
// Without the window (W = 0) every leaf would post all its pieces at once, and on a device's FIFO port
// the chain's reduce pieces of the farthest channel would queue behind everything the nearer channels
// had posted: at 4,096 H100s (512 domains of 8) the NICs started only when the chain had carried nearly
// all of its reduce traffic, serializing NVLink and NIC time (8.90 ms in analytical fidelity against a
// 5.71 ms NIC bound; docs/performance.md).
//
// Closed form used by the tests (pure double binary tree, p = 2^k members, one channel per tree, no
// pipelining, no contention, children served in order so a second child waits g = S / (2 B) more):
//   T = 2 k (a + S / (2 B)) + (k - 1) S / (2 B)
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <boost/align/aligned_allocator.hpp>

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

class alignas(64) TreeMachine final : public CallState {
 public:
  // `window`: pieces a sender may have outstanding per connection (0: unbounded, no credits).
  TreeMachine(std::vector<TreeChannel> channels, std::uint64_t bytes, std::uint32_t pieces, std::uint32_t window);

  void begin(network::DeviceLp& device, Outbox& out) override;
  void receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) override;
  [[nodiscard]] bool finished() const override { return done_ == channels_.size() * std::size_t{pieces_}; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;
  void list_sends(std::vector<SentMessages>& out) const override;

  // Message phases: data up and down, and the credits that return for each.
  static constexpr std::uint32_t kPhases = 4;

 private:
  enum Phase : std::uint32_t { reduce_data = 0, broadcast_data = 1, reduce_credit = 2, broadcast_credit = 3 };
  // Two bytes, so that a channel's pieces share a cache line or two: a device's tree state is touched at
  // every message, and on thousands of devices it is what a run's cache misses are made of.
  struct PieceState {
    std::uint8_t reduced_from = 0;  // children whose piece has arrived (at most 3)
    bool down = false;              // the reduced piece is here (broadcast received; the root: reduced)
  };
  // A channel's progress; each count is of pieces, which every connection carries in order.
  struct ChannelState {
    std::uint32_t up_sent = 0;      // reduce pieces passed up (the root: found reduced)
    std::uint32_t up_credits = 0;   // credits from the parent
    std::uint32_t passed_down = 0;  // broadcast pieces sent to every child (or, a leaf, received)
    std::array<std::uint32_t, 3> down_sent{};     // per child: broadcast pieces sent
    std::array<std::uint32_t, 3> down_credits{};  // per child: credits back
  };
  // A channel's links with its progress, in one record on a line of its own (56 bytes: unaligned, most
  // would straddle two lines).
  struct alignas(64) Channel {
    TreeChannel links;
    ChannelState progress;
  };
  [[nodiscard]] std::uint32_t index(std::uint32_t channel, Phase phase, std::uint32_t k) const noexcept {
    return (channel * kPhases + phase) * pieces_ + k;
  }
  [[nodiscard]] std::uint64_t piece_bytes(std::uint32_t channel, std::uint32_t k) const noexcept;
  [[nodiscard]] bool may_send(std::uint32_t sent, std::uint32_t credits) const noexcept {
    return window_ == 0 || sent - credits < window_;
  }
  // Credits a connection carries: one per piece the sender would otherwise wait for.
  [[nodiscard]] std::uint32_t credits_per_connection() const noexcept {
    return window_ == 0 || pieces_ <= window_ ? 0 : pieces_ - window_;
  }
  void credit(network::DeviceLp& device, Outbox& out, std::uint32_t peer, std::uint32_t channel, Phase phase,
              std::uint32_t k);
  void pump_up(network::DeviceLp& device, Outbox& out, std::uint32_t channel);
  void pump_down(network::DeviceLp& device, Outbox& out, std::uint32_t channel);

  // The members a message reads (table, channels, pieces, their counts) first, in the object's first
  // line; the object is line-aligned.
  std::vector<Channel> channels_;
  // channel-major: piece k of channel t at t * pieces_ + k. Line-aligned, so that a channel of up to 32
  // pieces is one line.
  std::vector<PieceState, boost::alignment::aligned_allocator<PieceState, 64>> state_;
  std::uint32_t pieces_;
  std::uint32_t window_;
  std::size_t done_ = 0;
  std::uint64_t bytes_;
};

}  // namespace rackscale::models::collectives

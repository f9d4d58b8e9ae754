#include "models/collectives/tree.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/collectives/binary_tree.hpp"

namespace rackscale::models::collectives {

std::vector<TreeChannel> tree_channels(const MemberLayout& layout, std::span<const std::uint32_t> members,
                                       std::uint32_t rank, std::uint32_t count) {
  const std::uint32_t L = layout.per_domain, N = layout.domains;
  const std::uint32_t n = layout.domain_index(rank), j = layout.local_index(rank);
  std::vector<TreeChannel> channels(count);
  for (std::uint32_t t = 0; t < count; ++t) {
    TreeChannel& ch = channels[t];
    const std::uint32_t head = (t / 2) % L;
    const std::uint32_t position = (j + L - head) % L;  // along the domain's chain
    if (position == 0) {
      const TreeLinks links = double_binary_tree(N, n, t % 2);
      if (links.parent != kNoRank) ch.parent = members[layout.rank_of(links.parent, head)];
      for (const std::uint32_t child : links.children)
        if (child != kNoRank) ch.add_child(members[layout.rank_of(child, head)]);
    } else {
      ch.parent = members[layout.rank_of(n, (j + L - 1) % L)];
    }
    if (position + 1 < L) ch.add_child(members[layout.rank_of(n, (j + 1) % L)]);
  }
  return channels;
}

TreeMachine::TreeMachine(std::vector<TreeChannel> channels, std::uint64_t bytes, std::uint32_t pieces)
    : channels_(std::move(channels)), bytes_(bytes), pieces_(pieces), state_(channels_.size() * pieces) {}

std::uint64_t TreeMachine::piece_bytes(std::uint32_t channel, std::uint32_t k) const noexcept {
  return split(split(bytes_, channels_.size(), channel), pieces_, k);
}

// Each piece of a channel goes up to the parent once (reduce) and down to every child once (broadcast).
void TreeMachine::list_sends(std::vector<SentMessages>& out) const {
  for (std::uint32_t t = 0; t < channels_.size(); ++t) {
    const TreeChannel& ch = channels_[t];
    const std::uint64_t channel_bytes = split(bytes_, channels_.size(), t);
    if (ch.parent != kNoPeer) append_parts(out, ch.parent, t, channel_bytes, pieces_);
    for (std::uint32_t i = 0; i < ch.child_count; ++i) append_parts(out, ch.children[i], t, channel_bytes, pieces_);
  }
}

void TreeMachine::begin(network::DeviceLp& device, Outbox& out) {
  for (std::uint32_t t = 0; t < channels_.size(); ++t)
    if (channels_[t].child_count == 0)
      for (std::uint32_t k = 0; k < pieces_; ++k) reduced(device, out, t, k);
}

void TreeMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) {
  const std::uint32_t k = index % pieces_;
  const std::uint32_t phase = index / pieces_ % 2;
  const std::uint32_t t = index / pieces_ / 2;
  if (t >= channels_.size())
    throw std::logic_error(fmt::format("collective tree: device {} got message {} from device {} beyond its {} channels",
                                       device.device(), index, src_device, channels_.size()));
  PieceState& s = state_[t * pieces_ + k];
  if (phase == 0) {
    if (++s.reduced_from == channels_[t].child_count) reduced(device, out, t, k);
  } else {
    broadcast(device, out, t, k);
  }
}

void TreeMachine::reduced(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k) {
  const TreeChannel& ch = channels_[channel];
  if (ch.parent != kNoPeer)
    out.send(device, ch.parent, piece_bytes(channel, k), channel, index(channel, 0, k));
  else
    broadcast(device, out, channel, k);  // the root: piece k is fully reduced
}

void TreeMachine::broadcast(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t k) {
  PieceState& s = state_[channel * pieces_ + k];
  if (s.done)
    throw std::logic_error(fmt::format("collective tree: device {} got piece {} of channel {} twice", device.device(), k,
                                       channel));
  const TreeChannel& ch = channels_[channel];
  for (std::uint32_t i = 0; i < ch.child_count; ++i)
    out.send(device, ch.children[i], piece_bytes(channel, k), channel, index(channel, 1, k));
  s.done = true;
  ++done_;
}

}  // namespace rackscale::models::collectives

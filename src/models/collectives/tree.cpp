#include "models/collectives/tree.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array.hpp>

#include <algorithm>
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

TreeMachine::TreeMachine(std::vector<TreeChannel> channels, std::uint64_t bytes, std::uint32_t pieces,
                         std::uint32_t window)
    : state_(channels.size() * pieces), pieces_(pieces), window_(window), bytes_(bytes) {
  channels_.reserve(channels.size());
  for (const TreeChannel& links : channels) channels_.push_back({links, {}});
}

std::uint64_t TreeMachine::piece_bytes(std::uint32_t channel, std::uint32_t k) const noexcept {
  return split(split(bytes_, channels_.size(), channel), pieces_, k);
}

// Each piece of a channel goes up to the parent once (reduce) and down to every child once (broadcast).
// Credits are zero-byte messages: they load no port.
void TreeMachine::list_sends(std::vector<SentMessages>& out) const {
  for (std::uint32_t t = 0; t < channels_.size(); ++t) {
    const TreeChannel& ch = channels_[t].links;
    const std::uint64_t channel_bytes = split(bytes_, channels_.size(), t);
    if (ch.parent != kNoPeer) append_parts(out, ch.parent, t, channel_bytes, pieces_);
    for (std::uint32_t i = 0; i < ch.child_count; ++i) append_parts(out, ch.children[i], t, channel_bytes, pieces_);
  }
}

void TreeMachine::begin(network::DeviceLp& device, Outbox& out) {
  for (std::uint32_t t = 0; t < channels_.size(); ++t) pump_up(device, out, t);  // leaves send at once
}

void TreeMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t src_device, std::uint32_t index) {
  const std::uint32_t k = index % pieces_;
  const std::uint32_t phase = index / pieces_ % kPhases;
  const std::uint32_t t = index / pieces_ / kPhases;
  if (t >= channels_.size())
    throw std::logic_error(fmt::format("collective tree: device {} got message {} from device {} beyond its {} channels",
                                       device.device(), index, src_device, channels_.size()));
  PieceState& s = state_[t * pieces_ + k];
  ChannelState& c = channels_[t].progress;
  switch (phase) {
    case reduce_data:
      ++s.reduced_from;
      pump_up(device, out, t);
      return;
    case broadcast_data:
      if (s.down)
        throw std::logic_error(fmt::format("collective tree: device {} got piece {} of channel {} twice",
                                           device.device(), k, t));
      s.down = true;
      pump_down(device, out, t);
      return;
    case reduce_credit:
      ++c.up_credits;
      pump_up(device, out, t);
      return;
    default: {
      const TreeChannel& ch = channels_[t].links;
      std::uint32_t i = 0;
      while (i < ch.child_count && ch.children[i] != src_device) ++i;
      if (i == ch.child_count)
        throw std::logic_error(fmt::format("collective tree: device {} got a credit on channel {} from device {}, "
                                           "which is not its child",
                                           device.device(), t, src_device));
      ++c.down_credits[i];
      pump_down(device, out, t);
      return;
    }
  }
}

void TreeMachine::credit(network::DeviceLp& device, Outbox& out, std::uint32_t peer, std::uint32_t channel, Phase phase,
                         std::uint32_t k) {
  if (k < credits_per_connection()) out.send(device, peer, 0, channel, index(channel, phase, k));
}

// Passes reduced pieces up, in order, as far as the children's pieces and the parent's credits allow; a
// piece passed up frees the children's buffer slots. At the root a reduced piece starts down instead.
void TreeMachine::pump_up(network::DeviceLp& device, Outbox& out, std::uint32_t channel) {
  const TreeChannel& ch = channels_[channel].links;
  ChannelState& c = channels_[channel].progress;
  bool reduced = false;
  while (c.up_sent < pieces_ && state_[channel * pieces_ + c.up_sent].reduced_from == ch.child_count) {
    const std::uint32_t k = c.up_sent;
    if (ch.parent == kNoPeer) {  // the root: piece k is fully reduced
      state_[channel * pieces_ + k].down = true;
      reduced = true;
    } else {
      if (!may_send(c.up_sent, c.up_credits)) break;
      out.send(device, ch.parent, piece_bytes(channel, k), channel, index(channel, reduce_data, k));
      for (std::uint32_t i = 0; i < ch.child_count; ++i) credit(device, out, ch.children[i], channel, reduce_credit, k);
    }
    ++c.up_sent;
  }
  if (reduced) pump_down(device, out, channel);
}

// Sends the pieces that have come down to each child, in order, as far as that child's credits allow. A
// piece sent to every child (a leaf: one that has arrived) is done and frees the parent's slot; at the
// root it frees the children's reduce slots instead, since the root passes their data on downwards.
void TreeMachine::pump_down(network::DeviceLp& device, Outbox& out, std::uint32_t channel) {
  const TreeChannel& ch = channels_[channel].links;
  ChannelState& c = channels_[channel].progress;
  const auto has = [&](std::uint32_t k) { return k < pieces_ && state_[channel * pieces_ + k].down; };
  std::uint32_t everywhere = pieces_;  // pieces sent to every child
  for (std::uint32_t i = 0; i < ch.child_count; ++i) {
    std::uint32_t& sent = c.down_sent[i];
    while (has(sent) && may_send(sent, c.down_credits[i])) {
      out.send(device, ch.children[i], piece_bytes(channel, sent), channel, index(channel, broadcast_data, sent));
      ++sent;
    }
    everywhere = std::min(everywhere, sent);
  }
  while (has(c.passed_down) && (ch.child_count == 0 || c.passed_down < everywhere)) {
    const std::uint32_t k = c.passed_down++;
    ++done_;
    if (ch.parent != kNoPeer)
      credit(device, out, ch.parent, channel, broadcast_credit, k);
    else
      for (std::uint32_t i = 0; i < ch.child_count; ++i) credit(device, out, ch.children[i], channel, reduce_credit, k);
  }
}

// The channels' links are the call's; what moves is their progress and the pieces'.
void TreeMachine::save(boost::archive::binary_oarchive& out) const {
  for (const Channel& c : channels_) {
    const ChannelState& p = c.progress;
    out & p.up_sent & p.up_credits & p.passed_down & p.down_sent & p.down_credits;
  }
  for (const PieceState& s : state_) out & s.reduced_from & s.down;
  out & done_;
}

void TreeMachine::load(boost::archive::binary_iarchive& in) {
  for (Channel& c : channels_) {
    ChannelState& p = c.progress;
    in & p.up_sent & p.up_credits & p.passed_down & p.down_sent & p.down_credits;
  }
  for (PieceState& s : state_) in & s.reduced_from & s.down;
  in & done_;
}

}  // namespace rackscale::models::collectives

#include "models/collectives/nvls.hpp"

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/network/switch_multimem.hpp"
#include "models/network/topology/names.hpp"

namespace rackscale::models::collectives {

using accelerator::CollectiveKind;

namespace {
constexpr std::uint32_t kContribution = 0;  // op of a message index: a contribution, or its sum
constexpr std::uint32_t kMulticast = 1;
}  // namespace

std::string nvls_unavailable(const network::ClusterSpec& cluster) {
  const network::ScaleUpSpec& up = cluster.scale_up;
  if (up.kind != network::ScaleUpKind::nvswitch)
    return fmt::format("needs an NVSwitch scale-up domain: expected cluster.scale_up.kind nvswitch, found {}",
                       network::name_of(up.kind));
  if (!(up.switch_spec.nvls_reduce_bandwidth > 0))
    return fmt::format("needs a scale-up switch that reduces: expected cluster.scale_up.switch with "
                       "nvls_reduce_bandwidth > 0, found switch '{}' without it",
                       up.switch_spec.name);
  if (!cluster.accelerator.nvlink_multicast)
    return fmt::format("needs GPUs with NVLink multicast (Hopper or later): expected cluster.accelerator with "
                       "nvlink_multicast: true, found '{}' without it",
                       cluster.accelerator.name);
  if (up.domain_devices > network::kMaxMulticastPorts)
    return fmt::format("multicasts to at most {} devices of a domain: expected cluster.scale_up.domain_devices <= {}, "
                       "found {}",
                       network::kMaxMulticastPorts, network::kMaxMulticastPorts, up.domain_devices);
  return {};
}

bool nvls_runs(CollectiveKind kind) noexcept {
  return kind == CollectiveKind::all_reduce || kind == CollectiveKind::reduce_scatter ||
         kind == CollectiveKind::all_gather;
}

NvlsMachine::NvlsMachine(CollectiveKind kind, std::span<const std::uint32_t> members, std::uint32_t rank,
                         std::uint64_t bytes, std::uint32_t channels, std::uint32_t pieces)
    : kind_(kind),
      members_(members.begin(), members.end()),
      rank_(rank),
      bytes_(bytes),
      channels_(channels),
      pieces_(pieces) {
  if (!nvls_runs(kind)) throw std::logic_error("NVLS runs all-reduce, reduce-scatter and all-gather only");
  const std::uint64_t per_stream = std::uint64_t{channels_} * pieces_;
  if (reduces()) expected_ += per_stream;                  // the sums of its own slice
  if (multicasts()) expected_ += per_stream * members_.size();  // every slice's multicasts, its own included
}

void NvlsMachine::begin(network::DeviceLp& device, Outbox& out) {
  begun_ = true;
  if (multicasts()) group_ = network::multicast_group(*device.network().topology, members_);
  if (!reduces()) {  // all-gather: its own slice to everyone, nothing to wait for
    for (std::uint32_t k = 0; k < pieces_; ++k)
      for (std::uint32_t c = 0; c < channels_; ++c)
        out.multicast(device, group_, piece_bytes(c, rank_, k), index(kMulticast, c, k, rank_));
    return;
  }
  for (std::uint32_t k = 0; k < std::min(pieces_, kNvlsPiecesInFlight); ++k)
    for (std::uint32_t c = 0; c < channels_; ++c) contribute(device, out, c, k);
}

void NvlsMachine::contribute(network::DeviceLp& device, Outbox& out, std::uint32_t channel, std::uint32_t piece) {
  const std::uint32_t p = members();
  for (std::uint32_t slice = 0; slice < p; ++slice)
    out.reduce_in_switch(device, members_[slice], p, piece_bytes(channel, slice, piece),
                         index(kContribution, channel, piece, slice));
}

void NvlsMachine::receive(network::DeviceLp& device, Outbox& out, std::uint32_t /*src_device*/, std::uint32_t index) {
  const std::uint32_t p = members();
  const std::uint32_t slice = index % p;
  const std::uint32_t stream = index / p;  // (op C + channel) P + piece
  const std::uint32_t piece = stream % pieces_;
  const std::uint32_t channel = (stream / pieces_) % channels_;
  const std::uint32_t op = stream / pieces_ / channels_;
  if (op == kContribution) {
    if (slice != rank_ || !reduces())
      throw std::logic_error(fmt::format("NVLS: member {} got the sum of slice {}", rank_, slice));
    // All-reduce: what it has just reduced goes straight out to everyone; then the next piece's
    // contributions.
    if (multicasts())
      out.multicast(device, group_, piece_bytes(channel, slice, piece), this->index(kMulticast, channel, piece, slice));
    if (piece + kNvlsPiecesInFlight < pieces_) contribute(device, out, channel, piece + kNvlsPiecesInFlight);
  } else if (op != kMulticast || !multicasts()) {
    throw std::logic_error(fmt::format("NVLS: member {} got message index {} of no step", rank_, index));
  }
  ++arrived_;
}

void NvlsMachine::list_sends(std::vector<SentMessages>& out) const {
  const std::uint32_t self = members_[rank_];
  for (std::uint32_t c = 0; c < channels_; ++c) {
    if (reduces()) {
      for (std::uint32_t slice = 0; slice < members(); ++slice)
        append_parts(out, self, c, slice_bytes(c, slice), pieces_, Leg::into_switch);
      append_parts(out, self, c, slice_bytes(c, rank_), pieces_, Leg::out_of_switch);  // the sums
    }
    if (multicasts()) {
      append_parts(out, self, c, slice_bytes(c, rank_), pieces_, Leg::into_switch);
      for (std::uint32_t slice = 0; slice < members(); ++slice)
        append_parts(out, self, c, slice_bytes(c, slice), pieces_, Leg::out_of_switch);
    }
  }
}

void NvlsMachine::save(boost::archive::binary_oarchive& out) const {
  out & group_.low & group_.high & expected_ & arrived_ & begun_;
}

void NvlsMachine::load(boost::archive::binary_iarchive& in) {
  in & group_.low & group_.high & expected_ & arrived_ & begun_;
}

}  // namespace rackscale::models::collectives

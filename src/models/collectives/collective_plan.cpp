#include "models/network/fidelity.hpp"
#include "models/collectives/collective_plan.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"
#include "models/collectives/all_to_all.hpp"
#include "models/collectives/closed_form.hpp"
#include "models/collectives/cost_model.hpp"
#include "models/collectives/halving_doubling.hpp"
#include "models/collectives/hierarchical.hpp"
#include "models/collectives/nvls.hpp"
#include "models/collectives/point_to_point.hpp"
#include "models/collectives/ring.hpp"
#include "models/collectives/step_machine.hpp"
#include "models/collectives/tree.hpp"

namespace rackscale::models::collectives {

namespace {
bool hierarchical_applies(const MemberLayout& layout) { return layout.per_domain > 1 && layout.domains > 1; }

std::uint32_t pieces_for(const CollectiveOptions& options, std::uint64_t nominal_message_bytes) {
  if (options.piece_bytes == 0) return 1;
  const std::uint64_t wanted = (nominal_message_bytes + options.piece_bytes - 1) / options.piece_bytes;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(wanted, 1, std::max(1u, options.max_pieces)));
}

// Shrinks pieces, then channels, until every message of the call has its own index below 2^20.
void fit_index_space(std::uint64_t messages_per_piece_and_channel, std::uint32_t& channels, std::uint32_t& pieces,
                     std::uint32_t members) {
  const std::uint64_t limit = accelerator::kCollectiveIndexLimit;
  if (messages_per_piece_and_channel >= limit)
    throw std::invalid_argument(fmt::format("collective: a call over {} members needs {} message numbers, more than the "
                                            "2^20 a call has; use a hierarchical or tree algorithm",
                                            members, messages_per_piece_and_channel));
  while (pieces > 1 && messages_per_piece_and_channel * channels * pieces >= limit) --pieces;
  while (channels > 1 && messages_per_piece_and_channel * channels * pieces >= limit) --channels;
}
}  // namespace

Algorithm resolve_algorithm(const network::ClusterSpec& cluster, const MemberLayout& layout, CollectiveKind kind,
                            Algorithm requested, std::uint64_t bytes) {
  // Asking for NVLS on hardware that has none is a configuration error; a group it cannot serve (one that
  // spans domains, a broadcast) falls back like any other algorithm.
  if (requested == Algorithm::nvls)
    if (const std::string why = nvls_unavailable(cluster); !why.empty())
      throw std::invalid_argument("collective: algorithm nvls (NVLink SHARP) " + why);
  if (has_one_algorithm(kind)) return Algorithm::ring;
  if (requested == Algorithm::automatic)
    return select_algorithm(kind, bytes, fabric_figures(cluster, layout)).algorithm;
  if (requested == Algorithm::nvls) return layout.distinct_domains == 1 ? Algorithm::nvls : Algorithm::ring;
  if (kind != CollectiveKind::all_reduce)  // reduce-scatter, all-gather
    return requested == Algorithm::halving_doubling && is_power_of_two(layout.members) ? Algorithm::halving_doubling
                                                                                        : Algorithm::ring;
  if (requested == Algorithm::hierarchical && !hierarchical_applies(layout)) return Algorithm::ring;
  return requested;
}

bool use_closed_form(const network::ClusterSpec& cluster, const MemberLayout& layout,
                     const network::NetworkSpec& network) {
  switch (network.collectives) {
    case network::CollectiveModel::closed_form: return true;
    case network::CollectiveModel::messages: return false;
    case network::CollectiveModel::automatic: break;
  }
  if (!network::models_contention(network.fidelity)) return true;
  // Inside one NVSwitch domain the fabric is non-blocking: only the call's own traffic meets at a port.
  return cluster.scale_up.kind == network::ScaleUpKind::nvswitch && layout.distinct_domains <= 1;
}

CallTraffic messages_traffic(const network::ClusterSpec& cluster, const CollectiveCall& call,
                             const CollectiveOptions& options, const MemberLayout& layout) {
  const CallPlan messages = plan_call(cluster, call, options, layout);
  std::vector<SentMessages> sends;
  if (messages.state) messages.state->list_sends(sends);
  CallTraffic traffic;
  for (const SentMessages& m : sends) {
    auto peer = std::find_if(traffic.begin(), traffic.end(), [&](const PeerTraffic& t) {
      return t.dst_device == m.dst_device && t.channel == m.channel && t.leg == m.leg;
    });
    if (peer == traffic.end()) peer = traffic.insert(traffic.end(), PeerTraffic{m.dst_device, m.channel, {}, m.leg});
    auto size = std::find_if(peer->batches.begin(), peer->batches.end(),
                             [&](const network::MessageBatch& b) { return b.bytes == m.bytes; });
    if (size == peer->batches.end())
      peer->batches.push_back({m.bytes, m.count});
    else
      size->count += m.count;
  }
  return traffic;
}

ClosedFormTiming time_closed_form(const network::ClusterSpec& cluster, const CollectiveCall& call) {
  return time_closed_form(cluster, call, analyse_members(cluster, call.members));
}

ClosedFormTiming time_closed_form(const network::ClusterSpec& cluster, const CollectiveCall& call,
                                  const MemberLayout& layout) {
  ClosedFormTiming timing;
  timing.algorithm = resolve_algorithm(cluster, layout, call.kind, call.algorithm, call.bytes);
  if (call.bytes == 0 || layout.members <= 1) return timing;
  // NCCL's model covers ring and tree (and here NVLS); the other algorithms are given the ring's time.
  const Algorithm modelled =
      timing.algorithm == Algorithm::tree || timing.algorithm == Algorithm::nvls ? timing.algorithm : Algorithm::ring;
  const double seconds = predict(call.kind, modelled, call.bytes, fabric_figures(cluster, layout)).seconds;
  timing.exchanges = true;
  timing.duration = static_cast<pdes::SimTime>(std::llround(seconds * 1e12));
  return timing;
}

CallPlan plan_closed_form(const CollectiveCall& call, const ClosedFormTiming& timing, const CallTraffic& traffic,
                          std::span<const TwinTraffic> twins) {
  CallPlan plan;
  plan.algorithm = timing.algorithm;
  if (!timing.exchanges) return plan;
  plan.state = std::make_unique<ClosedFormMachine>(call.members, call.rank, timing.duration, call.key, traffic, twins);
  return plan;
}

CallPlan plan_call(const network::ClusterSpec& cluster, const CollectiveCall& call, const CollectiveOptions& options) {
  return plan_call(cluster, call, options, analyse_members(cluster, call.members));
}

CallPlan plan_call(const network::ClusterSpec& cluster, const CollectiveCall& call, const CollectiveOptions& options,
                   const MemberLayout& layout) {
  CallPlan plan;
  plan.algorithm = resolve_algorithm(cluster, layout, call.kind, call.algorithm, call.bytes);
  const std::uint32_t p = layout.members;
  if (call.bytes == 0 || p <= 1) return plan;
  if (accelerator::has_root(call.kind) && call.root >= p)
    throw std::invalid_argument(fmt::format("collective {}: root {} is not among the {} members", call.key, call.root,
                                            p));

  // Channels: across domains one per member of a domain, so each ring or tree pair leaves every domain
  // through a different device's NIC; inside one domain one, since every channel would share the
  // device's single scale-up port anyway. Algorithms that already use every NIC (halving-doubling,
  // hierarchical) need only enough flows for ECMP to spread; all-to-all spreads over its peers.
  const bool spanning = layout.distinct_domains > 1;
  const std::uint32_t rails = spanning ? std::clamp(layout.per_domain, kMinSpanningChannels, kMaxChannels) : 1;
  const std::uint32_t few = spanning ? kMinSpanningChannels : 1;
  const auto channels = [&](std::uint32_t by_default) { return options.channels ? options.channels : by_default; };
  const std::span<const std::uint32_t> members(call.members);
  const std::uint64_t S = call.bytes;

  // Grouped point-to-point: one message per peer and channel, unpipelined (each is a single hop, and the
  // sender's port already serializes them).
  const auto point_to_point = [&](std::unique_ptr<StepPlan> steps) {
    plan.channels = channels(1);
    fit_index_space(steps->steps(), plan.channels, plan.pieces, p);
    plan.state = std::make_unique<StepMachine>(std::move(steps), S, plan.channels, 1);
    return std::move(plan);
  };
  switch (call.kind) {
    case CollectiveKind::all_to_all: return point_to_point(make_all_to_all_plan(members, call.rank));
    case CollectiveKind::gather: return point_to_point(make_gather_plan(members, call.rank, call.root));
    case CollectiveKind::scatter: return point_to_point(make_scatter_plan(members, call.rank, call.root));
    case CollectiveKind::sendrecv: return point_to_point(make_sendrecv_plan(members, call.rank));
    case CollectiveKind::broadcast:
    case CollectiveKind::reduce: {
      plan.channels = channels(rails);
      plan.pieces = pieces_for(options, S / plan.channels);
      fit_index_space(1, plan.channels, plan.pieces, p);
      auto chain = call.kind == CollectiveKind::broadcast
                       ? make_chain_broadcast_plan(layout, members, call.rank, call.root, plan.channels)
                       : make_chain_reduce_plan(layout, members, call.rank, call.root, plan.channels);
      plan.state = std::make_unique<StepMachine>(std::move(chain), S, plan.channels, plan.pieces);
      return plan;
    }
    case CollectiveKind::all_reduce:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_gather: break;
  }
  switch (plan.algorithm) {
    case Algorithm::tree: {
      // Two trees, each with `pairs` channels: tree channels come in pairs (A and B).
      const std::uint32_t pairs = options.channels ? options.channels : (spanning ? rails : 1);
      std::uint32_t tree_channels = 2 * pairs;
      plan.pieces = pieces_for(options, S / tree_channels);
      fit_index_space(TreeMachine::kPhases, tree_channels, plan.pieces, p);
      tree_channels = std::max(2u, tree_channels - tree_channels % 2);
      plan.channels = tree_channels;
      // NCCL's buffer per connection, in pieces (at least one: a piece larger than the buffer still goes).
      const std::uint64_t piece = std::max<std::uint64_t>(1, S / tree_channels / plan.pieces);
      const std::uint32_t window =
          options.window_bytes == 0
              ? 0
              : static_cast<std::uint32_t>(std::clamp<std::uint64_t>(options.window_bytes / piece, 1, plan.pieces));
      plan.state = std::make_unique<TreeMachine>(collectives::tree_channels(layout, members, call.rank, tree_channels), S,
                                                 plan.pieces, window);
      return plan;
    }
    case Algorithm::halving_doubling: {
      // No pipelining: every step is a direct exchange that already uses the full bandwidth (pieces
      // would only overlap one latency per step), and message sizes halve from step to step.
      plan.channels = channels(few);
      auto steps = make_halving_doubling_plan(call.kind, members, call.rank);
      fit_index_space(steps->steps(), plan.channels, plan.pieces, p);
      plan.state = std::make_unique<StepMachine>(std::move(steps), S, plan.channels, plan.pieces);
      return plan;
    }
    case Algorithm::nvls: {
      plan.channels = channels(1);
      plan.pieces = pieces_for(options, S / plan.channels / p);
      fit_index_space(2 * p, plan.channels, plan.pieces, p);
      plan.state = std::make_unique<NvlsMachine>(call.kind, members, call.rank, S, plan.channels, plan.pieces);
      return plan;
    }
    case Algorithm::hierarchical: {
      plan.channels = channels(few);
      plan.pieces = pieces_for(options, S / plan.channels / layout.per_domain);
      fit_index_space(2 * (layout.per_domain - 1) + 2 * (layout.domains - 1), plan.channels, plan.pieces, p);
      const std::uint32_t inter = std::min(plan.pieces, pieces_for(options, S / plan.channels / p));
      auto steps = make_hierarchical_plan(layout, members, call.rank, inter);
      plan.state = std::make_unique<StepMachine>(std::move(steps), S, plan.channels, plan.pieces);
      return plan;
    }
    default: {
      plan.channels = channels(rails);
      plan.pieces = pieces_for(options, S / plan.channels / p);
      const std::uint32_t steps = call.kind == CollectiveKind::all_reduce ? 2 * (p - 1) : p - 1;
      fit_index_space(steps, plan.channels, plan.pieces, p);
      plan.state = std::make_unique<StepMachine>(make_ring_plan(call.kind, layout, members, call.rank, plan.channels), S,
                                                 plan.channels, plan.pieces);
      return plan;
    }
  }
}

}  // namespace rackscale::models::collectives

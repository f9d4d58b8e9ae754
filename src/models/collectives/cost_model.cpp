#include "models/collectives/cost_model.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <stdexcept>

#include "models/collectives/nvls.hpp"

namespace rackscale::models::collectives {

namespace {
using accelerator::Algorithm;
using accelerator::CollectiveKind;

// Microseconds, protocol order LL, LL128, Simple (data/reference/collectives.md, from tuning.cc).
constexpr std::array<double, 3> kTreeBase{6.8, 14.0, 8.4};
constexpr std::array<double, 3> kRingBase{6.6, 14.0, 8.4};
constexpr std::array<double, 3> kTreeNvlink{0.6, 1.25, 4.0};
constexpr std::array<double, 3> kRingNvlink{0.6, 1.9, 3.4};
constexpr std::array<double, 3> kTreePci{1.0, 1.9, 4.0};
constexpr std::array<double, 3> kRingPci{1.0, 2.5, 5.7};
constexpr std::array<double, 3> kTreeNet{5.0, 8.5, 14.0};
constexpr std::array<double, 3> kRingNet{2.7, 4.0, 14.0};
constexpr double kRingSimpleMultiDomainFactor = 1.4;  // multi-node ring Simple all-reduce, sm80 and newer
constexpr double kTreeBandwidthFactor = 0.92;
// NVLS: no base latency and 25 us of NVLink hardware latency, Simple protocol only, as NCCL's tuning.cc
// has it to the best of our reading; data/reference/collectives.md has no NVLS latency, so it is
// unconfirmed. It alone sets where NVLS starts to beat the ring and tree.
constexpr double kNvlsLatencyUs = 25.0;

constexpr std::array<Protocol, 3> kProtocols{Protocol::ll, Protocol::ll128, Protocol::simple};

// The busiest member's time on its ports for a point-to-point collective, its scale-up port and its NIC
// working at once: all-to-all (every member), gather and scatter (the root) exchange S / p with each of
// the L - 1 other members of their domain over the scale-up fabric and with the p - L others over the
// NIC; sendrecv sends S over the scale-up fabric when its domain has several members and over a NIC when
// there are several domains (some member's successor is in the next domain).
double point_to_point_port_seconds(CollectiveKind kind, std::uint64_t bytes, const FabricFigures& f) {
  const double S = static_cast<double>(bytes), n = f.ranks;
  const double local = f.scale_up ? f.ranks_per_domain : 1.0;  // members sharing the scale-up fabric
  double scale_up_bytes = 0, nic_bytes = 0;
  if (kind == CollectiveKind::sendrecv) {
    if (local > 1) scale_up_bytes = S;
    if (f.domains > 1 || local == 1) nic_bytes = S;
  } else {
    scale_up_bytes = (local - 1) * S / n;
    nic_bytes = (n - local) * S / n;
  }
  const double up = scale_up_bytes > 0 ? scale_up_bytes / f.scale_up_bandwidth : 0.0;
  const double out = nic_bytes > 0 ? nic_bytes / f.nic_bandwidth : 0.0;
  return std::max(up, out);
}

double predict_seconds(CollectiveKind kind, Algorithm algorithm, Protocol protocol, std::uint64_t bytes,
                       const FabricFigures& f) {
  const auto pi = static_cast<std::size_t>(protocol);
  const double n = f.ranks, domains = f.domains;
  double latency_us = 0, algbw = 0;  // bytes/s
  if (algorithm == Algorithm::nvls) {
    if (!f.nvls || !nvls_runs(kind)) throw std::logic_error("cost model: NVLS cannot run this call");
    if (protocol != Protocol::simple) return std::numeric_limits<double>::infinity();
    latency_us = kNvlsLatencyUs;
    // The bound of the simulated mechanism: a member's scale-up port carries S (1 + 1/p) each way for
    // all-reduce, both directions at once; the switch reduces every member's S at X per port.
    const double B = f.bus_bandwidth, X = f.nvls_reduce_bandwidth;
    if (kind == CollectiveKind::all_reduce)
      algbw = std::min(n * B / (n + 1), X);
    else if (kind == CollectiveKind::reduce_scatter)
      algbw = std::min(B, X);
    else
      algbw = B;
  } else if (algorithm == Algorithm::tree) {
    const double intra = (f.scale_up ? kTreeNvlink : kTreePci)[pi];
    latency_us = kTreeBase[pi] + 2.0 * ((f.ranks_per_domain - 1.0) * intra +
                                        static_cast<double>(std::bit_width(f.domains) - 1) /* floor(log2) */ *
                                            kTreeNet[pi]);
    double busbw = f.bus_bandwidth * kTreeBandwidthFactor;
    if (protocol == Protocol::ll) busbw /= 3.8;
    if (protocol == Protocol::ll128) busbw *= f.domains == 1 ? 7.0 / 9.0 : 120.0 / 128.0;
    algbw = busbw / 2.0;
  } else {
    const bool pairs = accelerator::is_point_to_point(kind);
    // Steps a member goes through, and how many of them cross domains. NCCL counts nRanks steps for
    // broadcast and reduce (its ring moves the whole buffer over every link); point-to-point collectives,
    // which NCCL does not model, are given one step per peer round.
    double nsteps = n - 1, inter_steps = domains - 1;
    if (kind == CollectiveKind::all_reduce) {
      nsteps = 2 * (n - 1);
      inter_steps = 2 * (domains - 1);
    } else if (kind == CollectiveKind::broadcast || kind == CollectiveKind::reduce) {
      nsteps = n;
    } else if (kind == CollectiveKind::sendrecv) {
      nsteps = 1;
      inter_steps = domains > 1 ? 1 : 0;
    }
    const double intra = (f.scale_up ? kRingNvlink : kRingPci)[pi];
    latency_us = kRingBase[pi] + (nsteps - inter_steps) * intra + inter_steps * kRingNet[pi];
    if (protocol == Protocol::simple && kind == CollectiveKind::all_reduce && f.domains > 1)
      latency_us *= kRingSimpleMultiDomainFactor;
    double efficiency = 1;
    if (protocol == Protocol::ll) efficiency = (f.domains > 1 || kind == CollectiveKind::all_reduce) ? 0.25 : 1.0 / 3;
    if (protocol == Protocol::ll128) efficiency = 0.92;
    if (pairs) return latency_us * 1e-6 + point_to_point_port_seconds(kind, bytes, f) / efficiency;
    algbw = f.bus_bandwidth * efficiency * n / std::max(nsteps, 1.0);
  }
  return latency_us * 1e-6 + static_cast<double>(bytes) / algbw;
}
}  // namespace

FabricFigures fabric_figures(const network::ClusterSpec& cluster, const MemberLayout& layout) {
  FabricFigures f;
  f.ranks = layout.members;
  f.domains = std::max<std::uint32_t>(1, layout.distinct_domains);
  f.ranks_per_domain = std::max<std::uint32_t>(1, layout.members / f.domains);
  f.scale_up = cluster.scale_up.kind != network::ScaleUpKind::none && cluster.scale_up.domain_devices > 1;
  // The links as the network carries them (nominal bandwidth x efficiency).
  double nic = cluster.nic.bandwidth * cluster.nic.efficiency;
  if (cluster.scale_out.kind == network::ScaleOutKind::torus3d) nic = cluster.scale_out.torus.link_bandwidth;
  if (cluster.scale_out.switch_spec.port_bandwidth > 0) nic = std::min(nic, cluster.scale_out.switch_spec.port_bandwidth);
  const double scale_up = cluster.scale_up.bandwidth * cluster.scale_up.efficiency;
  f.scale_up_bandwidth = scale_up;
  f.nic_bandwidth = nic;
  if (f.domains == 1 && f.scale_up)
    f.bus_bandwidth = scale_up;
  else if (f.scale_up)
    f.bus_bandwidth = std::min(scale_up, f.ranks_per_domain * nic);
  else
    f.bus_bandwidth = nic;
  f.nvls = f.domains == 1 && f.ranks > 1 && nvls_unavailable(cluster).empty();
  f.nvls_reduce_bandwidth = cluster.scale_up.switch_spec.nvls_reduce_bandwidth;
  return f;
}

Prediction predict(CollectiveKind kind, Algorithm algorithm, std::uint64_t bytes, const FabricFigures& figures) {
  Prediction best{algorithm, Protocol::simple, std::numeric_limits<double>::infinity()};
  for (const Protocol p : kProtocols) {
    const double t = predict_seconds(kind, algorithm, p, bytes, figures);
    if (t < best.seconds) best = {algorithm, p, t};
  }
  return best;
}

Prediction select_algorithm(CollectiveKind kind, std::uint64_t bytes, const FabricFigures& figures) {
  Prediction best = predict(kind, Algorithm::ring, bytes, figures);
  if (kind == CollectiveKind::all_reduce && figures.ranks >= 2) {
    const Prediction tree = predict(kind, Algorithm::tree, bytes, figures);
    if (tree.seconds < best.seconds) best = tree;
  }
  if (figures.nvls && nvls_runs(kind)) {
    const Prediction nvls = predict(kind, Algorithm::nvls, bytes, figures);
    if (nvls.seconds < best.seconds) best = nvls;
  }
  return best;
}

std::string_view protocol_name(Protocol protocol) noexcept {
  switch (protocol) {
    case Protocol::ll: return "LL";
    case Protocol::ll128: return "LL128";
    case Protocol::simple: return "Simple";
  }
  return "?";
}

}  // namespace rackscale::models::collectives

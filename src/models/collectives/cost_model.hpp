#pragma once
// NCCL's cost model (NVIDIA/nccl src/graph/tuning.cc, v2.30; constants in data/reference/collectives.md
// and docs/models.md "Collectives"), used to choose an algorithm as NCCL does: predict the time of each
// algorithm under each protocol (LL, LL128, Simple) and take the fastest. The simulation itself does
// not model protocols; they only matter here, for the choice.
//
//   time = latency + bytes / algorithm bandwidth
//   ring:  latency = base + (nsteps - nInterSteps) intra + nInterSteps inter   (x 1.4 multi-node Simple
//          all-reduce); algbw = busbw * n / nsteps; busbw = B (LL / 4, LL128 * 0.92). nsteps: all-reduce
//          2 (n - 1), reduce-scatter and all-gather n - 1, broadcast and reduce n (NCCL's count).
//   point-to-point (all-to-all, gather, scatter, sendrecv; NCCL has no model of its own for them): the
//          ring's latency over the peer rounds (n - 1; sendrecv 1), plus the busiest member's time on
//          its scale-up port and NIC (point_to_point_port_seconds), with the ring's protocol factors.
//   tree:  latency = base + 2 ((ranks per domain - 1) intra + floor(log2 domains) inter);
//          algbw = busbw / 2; busbw = 0.92 B (LL / 3.8, LL128 * 7/9 in one domain, 120/128 across)
//   B: inside one domain the scale-up bandwidth per device; across domains min(scale-up, L x NIC), the
//   L NICs of a domain's L members working in parallel (channels on distinct rails).
//   nvls:  (inside one NVSwitch domain whose switch reduces, nvls.hpp) Simple only; latency 25 us;
//          algbw the bound of the simulated mechanism (network/switch_multimem.hpp): all-reduce
//          min(p B / (p + 1), X), reduce-scatter min(B, X), all-gather B, with X the switch's
//          reduction rate per port. Not NCCL's NVLS bandwidth model, which data/reference lacks.
#include <cstdint>
#include <string_view>

#include "models/vocabulary/program.hpp"
#include "models/collectives/member_layout.hpp"
#include "models/network/cluster_spec.hpp"

namespace rackscale::models::collectives {

enum class Protocol : std::uint8_t { ll, ll128, simple };

// What the model needs to know of a call's members and fabric.
struct FabricFigures {
  std::uint32_t ranks = 0;
  std::uint32_t domains = 1;           // NCCL's nNodes: scale-up domains spanned
  std::uint32_t ranks_per_domain = 1;  // NCCL's ppn
  bool scale_up = false;               // intra-domain hops on NVLink (else PCI figures)
  double bus_bandwidth = 0;            // B above, bytes/s
  double scale_up_bandwidth = 0;       // one device's scale-up port and its NIC, as the network carries
  double nic_bandwidth = 0;            // them, bytes/s (point-to-point collectives)
  // NVLS can run (nvls_unavailable() is empty and the members are in one domain), and the switch's
  // reduction rate per port (X above), bytes/s.
  bool nvls = false;
  double nvls_reduce_bandwidth = 0;
};

[[nodiscard]] FabricFigures fabric_figures(const network::ClusterSpec& cluster, const MemberLayout& layout);

struct Prediction {
  accelerator::Algorithm algorithm = accelerator::Algorithm::ring;
  Protocol protocol = Protocol::simple;
  double seconds = 0;
};

// The best protocol's prediction for one algorithm (ring or tree, tree only for all_reduce; nvls where
// figures.nvls, for all_reduce, reduce_scatter and all_gather). For the point-to-point collectives
// (accelerator::is_point_to_point) `ring` stands for their sends.
[[nodiscard]] Prediction predict(accelerator::CollectiveKind kind, accelerator::Algorithm algorithm,
                                 std::uint64_t bytes, const FabricFigures& figures);
// NCCL's choice: the fastest of ring, tree (all_reduce) and NVLS (where it can run, for all_reduce,
// reduce_scatter and all_gather); ring for the others.
[[nodiscard]] Prediction select_algorithm(accelerator::CollectiveKind kind, std::uint64_t bytes,
                                          const FabricFigures& figures);

[[nodiscard]] std::string_view protocol_name(Protocol protocol) noexcept;

}  // namespace rackscale::models::collectives

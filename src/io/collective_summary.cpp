#include "io/collective_summary.hpp"

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/partition_summary.hpp"
#include "io/text_table.hpp"
#include "io/traffic_summary.hpp"

namespace rackscale::io {

using models::accelerator::Algorithm;
using models::accelerator::CollectiveKind;
namespace coll = models::collectives;

std::string_view collective_name(CollectiveKind op) noexcept {
  switch (op) {
    case CollectiveKind::all_reduce: return "all_reduce";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::all_to_all: return "all_to_all";
  }
  return "?";
}

std::string_view algorithm_name(CollectiveKind op, Algorithm algorithm) noexcept {
  if (op == CollectiveKind::all_to_all && algorithm != Algorithm::automatic) return "pairwise";
  switch (algorithm) {
    case Algorithm::automatic: return "automatic";
    case Algorithm::ring: return op == CollectiveKind::broadcast ? "ring (chain)" : "ring";
    case Algorithm::tree: return "tree";
    case Algorithm::halving_doubling: return "halving_doubling";
    case Algorithm::hierarchical: return "hierarchical";
    case Algorithm::nvls: return "nvls";
  }
  return "?";
}

namespace {
const char* fidelity_name(const models::network::NetworkSpec& n) {
  return n.fidelity == models::network::Fidelity::chunk ? "chunk" : "analytical";
}
}  // namespace

std::string collective_summary(const models::Scenario& s, const coll::CollectiveReport& r) {
  std::string out;
  out += fmt::format("{}: {}\n", s.name, s.description);
  out += fmt::format("cluster: {} devices, {} switches; {}\n", with_commas(r.cluster_devices), with_commas(r.switches),
                     r.topology);
  out += fmt::format("network: {}{}\n", fidelity_name(s.network),
                     s.network.fidelity == models::network::Fidelity::chunk
                         ? fmt::format(" ({} chunks)", format_bytes(static_cast<double>(s.network.chunk_bytes)))
                         : std::string(" (no contention; senders paced per port)"));
  out += fmt::format("collective: {} over {} devices, algorithm {}; busbw = algbw x {:.4g} (nccl-tests)\n\n",
                     collective_name(r.op), r.devices, algorithm_name(r.op, r.requested),
                     coll::bus_bandwidth_factor(r.op, r.devices));
  using A = TextTable::Align;
  TextTable table({"size (B)", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "algorithm", "channels", "pieces",
                   "NCCL model (us)", "events"},
                  {A::right, A::right, A::right, A::right, A::left, A::right, A::right, A::right, A::right});
  for (const coll::CollectivePoint& p : r.results)
    table.add_row({std::to_string(p.bytes), fmt::format("{:.2f}", pdes::to_seconds(p.time) * 1e6),
                   fmt::format("{:.2f}", p.algbw / 1e9), fmt::format("{:.2f}", p.busbw / 1e9),
                   std::string(algorithm_name(r.op, p.algorithm)), std::to_string(p.channels), std::to_string(p.pieces),
                   p.predicted_seconds > 0 ? fmt::format("{:.2f}", p.predicted_seconds * 1e6) : std::string("-"),
                   with_commas(p.events)});
  out += table.render();
  out += fmt::format("\nsetup {:.3f} s, {} size(s) simulated in {:.3f} s on {} rank(s) ({} partition)\n",
                     r.setup_seconds, r.results.size(), r.run_seconds, r.partition.ranks, r.partition.method);
  return out;
}

nlohmann::ordered_json collective_json(const models::Scenario& s, const coll::CollectiveReport& r) {
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const coll::CollectivePoint& p : r.results)
    results.push_back({{"bytes", p.bytes},
                       {"time_us", pdes::to_seconds(p.time) * 1e6},
                       {"algbw_GBps", p.algbw / 1e9},
                       {"busbw_GBps", p.busbw / 1e9},
                       {"algorithm", algorithm_name(r.op, p.algorithm)},
                       {"channels", p.channels},
                       {"pieces", p.pieces},
                       {"nccl_model_us", p.predicted_seconds > 0 ? nlohmann::ordered_json(p.predicted_seconds * 1e6)
                                                                 : nlohmann::ordered_json(nullptr)},
                       {"events", p.events},
                       {"wall_s", p.wall_seconds},
                       {"engine", engine_json(p.engine)}});
  return {{"scenario", s.name},
          {"op", collective_name(r.op)},
          {"devices", r.devices},
          {"algorithm", algorithm_name(r.op, r.requested)},
          {"topology", r.topology},
          {"fidelity", fidelity_name(s.network)},
          {"results", results},
          {"setup_s", r.setup_seconds},
          {"run_s", r.run_seconds},
          {"partition", partition_json(r.partition)}};
}

}  // namespace rackscale::io

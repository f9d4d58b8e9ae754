#include "models/network/fidelity.hpp"
#include "io/collective_summary.hpp"

#include <fmt/format.h>

#include "io/engine_report.hpp"
#include "io/nccl_tests_log.hpp"
#include "io/partition_summary.hpp"
#include "io/text_table.hpp"
#include "io/traffic_summary.hpp"
#include "models/workload/training_report.hpp"

namespace rackscale::io {

using models::accelerator::Algorithm;
using models::accelerator::CollectiveKind;
namespace coll = models::collectives;

std::string_view algorithm_name(CollectiveKind op, Algorithm algorithm) noexcept {
  if (algorithm != Algorithm::automatic) {
    if (op == CollectiveKind::all_to_all) return "pairwise";
    if (models::accelerator::is_point_to_point(op)) return "p2p";
  }
  switch (algorithm) {
    case Algorithm::automatic: return "automatic";
    case Algorithm::ring:
      return op == CollectiveKind::broadcast || op == CollectiveKind::reduce ? "ring (chain)" : "ring";
    case Algorithm::tree: return "tree";
    case Algorithm::halving_doubling: return "halving_doubling";
    case Algorithm::hierarchical: return "hierarchical";
    case Algorithm::nvls: return "nvls";
  }
  return "?";
}

namespace {
std::string fidelity_label(const models::network::NetworkSpec& n) {
  return std::string(models::network::fidelity_name(n.fidelity));
}

// Each line of `text` as a comment of the log.
std::string commented(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    out += line.empty() ? "#\n" : "# " + line + '\n';
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}
}  // namespace

std::string collective_summary(const models::Scenario& s, const coll::CollectiveReport& r) {
  std::string preamble;
  preamble += fmt::format("rackscale: nccl-tests {} simulated; {}: {}\n", nccl_tests_binary(r.op), s.name,
                          s.description);
  preamble += fmt::format("cluster: {} devices, {} switches; {}\n", with_commas(r.cluster_devices),
                          with_commas(r.switches), r.topology);
  preamble += fmt::format("network: {}{}\n", fidelity_label(s.network),
                          models::network::models_contention(s.network.fidelity)
                              ? fmt::format(" ({} chunks)", format_bytes(static_cast<double>(s.network.chunk_bytes)))
                              : std::string(" (no contention; senders paced per port)"));
  preamble += fmt::format("collective: {} over {} devices, algorithm {}; busbw = algbw x {:.4g} (nccl-tests)\n",
                          models::workload::collective_name(r.op), r.devices, algorithm_name(r.op, r.requested),
                          coll::bus_bandwidth_factor(r.op, r.devices));
  preamble += "one simulated call per size: in-place is the same call as out-of-place, and there is no data to check\n";
  std::string out = commented(preamble);
  out += nccl_tests_header(s, r);
  out += nccl_tests_table(s, r);

  using A = TextTable::Align;
  TextTable table({"size (B)", "algorithm", "channels", "pieces", "NCCL model (us)", "events"},
                  {A::right, A::left, A::right, A::right, A::right, A::right});
  for (const coll::CollectivePoint& p : r.results)
    table.add_row({std::to_string(p.bytes), std::string(algorithm_name(r.op, p.algorithm)), std::to_string(p.channels),
                   std::to_string(p.pieces),
                   p.predicted_seconds > 0 ? fmt::format("{:.2f}", p.predicted_seconds * 1e6) : std::string("-"),
                   with_commas(p.events)});
  std::string extra = "rackscale, per size: what ran, and NCCL's own cost model for it (- where it has none)\n";
  extra += table.render();
  extra += fmt::format("setup {:.3f} s, {} size(s) simulated in {:.3f} s on {} rank(s) ({} partition)\n",
                       r.setup_seconds, r.results.size(), r.run_seconds, r.partition.ranks, r.partition.method);
  out += commented(extra);
  return out;
}

nlohmann::ordered_json collective_json(const models::Scenario& s, const coll::CollectiveReport& r) {
  const auto& bench = s.workload.collective;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (const coll::CollectivePoint& p : r.results)
    results.push_back({{"size_bytes", p.bytes},
                       {"count", p.count},
                       {"time_ps", p.time},
                       {"algorithm_bandwidth_Bps", p.algbw},
                       {"bus_bandwidth_Bps", p.busbw},
                       {"algorithm", algorithm_name(r.op, p.algorithm)},
                       {"channels", p.channels},
                       {"pieces", p.pieces},
                       {"nccl_model_time_s", p.predicted_seconds > 0 ? nlohmann::ordered_json(p.predicted_seconds)
                                                                     : nlohmann::ordered_json(nullptr)},
                       {"events", p.events},
                       {"wall_s", p.wall_seconds},
                       {"engine", engine_json(p.engine)}});
  return {{"scenario", s.name},
          {"op", models::workload::collective_name(r.op)},
          {"nccl_tests_binary", nccl_tests_binary(r.op)},
          {"devices", r.devices},
          {"algorithm", algorithm_name(r.op, r.requested)},
          {"topology", r.topology},
          {"fidelity", fidelity_label(s.network)},
          {"data_type", coll::data_type_name(bench.data_type)},
          {"redop", nccl_tests_redop(bench)},
          {"root", nccl_tests_root(bench)},
          {"min_bytes", bench.min_bytes},
          {"max_bytes", bench.max_bytes},
          {"step_factor", bench.step_factor},
          {"step_bytes", bench.step_bytes},
          {"bus_bandwidth_factor", coll::bus_bandwidth_factor(r.op, r.devices)},
          {"average_bus_bandwidth_Bps", coll::average_bus_bandwidth(r)},
          {"results", results},
          {"setup_s", r.setup_seconds},
          {"run_s", r.run_seconds},
          {"partition", partition_json(r.partition)}};
}

}  // namespace rackscale::io

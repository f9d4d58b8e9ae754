#include "io/nccl_tests_log.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "pdes/time.hpp"

namespace rackscale::io {

using models::accelerator::CollectiveKind;
namespace coll = models::collectives;

std::string_view nccl_tests_binary(CollectiveKind op) noexcept {
  switch (op) {
    case CollectiveKind::all_reduce: return "all_reduce_perf";
    case CollectiveKind::reduce_scatter: return "reduce_scatter_perf";
    case CollectiveKind::all_gather: return "all_gather_perf";
    case CollectiveKind::broadcast: return "broadcast_perf";
    case CollectiveKind::all_to_all: return "alltoall_perf";
    case CollectiveKind::reduce: return "reduce_perf";
    case CollectiveKind::gather: return "gather_perf";
    case CollectiveKind::scatter: return "scatter_perf";
    case CollectiveKind::sendrecv: return "sendrecv_perf";
  }
  return "?";
}

std::string nccl_tests_time(double microseconds) {
  if (microseconds >= 10000.0) return fmt::format("{:7.0f}", microseconds);
  if (microseconds >= 100.0) return fmt::format("{:7.1f}", microseconds);
  return fmt::format("{:7.2f}", microseconds);
}

std::string_view nccl_tests_redop(const models::workload::CollectiveBenchSpec& bench) noexcept {
  return models::accelerator::reduces(bench.op) ? coll::reduce_op_name(bench.redop) : std::string_view("none");
}

long long nccl_tests_root(const models::workload::CollectiveBenchSpec& bench) noexcept {
  return models::accelerator::has_root(bench.op) ? static_cast<long long>(bench.root) : -1;
}

namespace {
constexpr std::uint32_t kListedRanks = 64;  // all of them up to this many; beyond, the first and last few
constexpr std::uint32_t kEndRanks = 4;

std::string rank_line(const models::Scenario& s, std::uint32_t rank) {
  // The sweep's ranks are the first devices, numbered node by node.
  const std::uint32_t per_node = s.cluster.devices_per_node;
  return fmt::format("#  Rank {:2} Group  0 on {:>10} device {:2} {}\n", rank, fmt::format("node{}", rank / per_node),
                     rank % per_node, s.cluster.accelerator.name);
}

// One side (out-of-place or in-place) of a row: "  %7s  %6.2f  %6.2f  %5s" in nccl-tests' format.
std::string side(const coll::CollectivePoint& p) {
  return fmt::format("  {:>7}  {:6.2f}  {:6.2f}  {:>5}", nccl_tests_time(pdes::to_seconds(p.time) * 1e6), p.algbw / 1e9,
                     p.busbw / 1e9, "N/A");
}
}  // namespace

std::string nccl_tests_header(const models::Scenario& s, const coll::CollectiveReport& r) {
  const auto& bench = s.workload.collective;
  std::string out;
  // One process per GPU, as `mpirun -np N ..._perf -g 1` runs it; a simulated call is timed once, and
  // there is no data to check and no CUDA graph.
  out += fmt::format("# nThread 1 nGpus 1 minBytes {} maxBytes {} step: {}({}) warmup iters: 0 iters: 1 agg iters: 1 "
                     "validation: 0 graph: 0\n",
                     bench.min_bytes, bench.max_bytes, bench.step_factor > 1 ? bench.step_factor : bench.step_bytes,
                     bench.step_factor > 1 ? "factor" : "bytes");
  out += "#\n# Using devices\n";
  const std::uint32_t n = r.devices;
  if (n <= kListedRanks) {
    for (std::uint32_t rank = 0; rank < n; ++rank) out += rank_line(s, rank);
  } else {
    for (std::uint32_t rank = 0; rank < kEndRanks; ++rank) out += rank_line(s, rank);
    out += fmt::format("#  ... ranks {} to {} likewise: rank r on node r / {}, device r mod {}\n", kEndRanks,
                       n - kEndRanks - 1, s.cluster.devices_per_node, s.cluster.devices_per_node);
    for (std::uint32_t rank = n - kEndRanks; rank < n; ++rank) out += rank_line(s, rank);
  }
  return out;
}

std::string nccl_tests_table(const models::Scenario& s, const coll::CollectiveReport& r) {
  const auto& bench = s.workload.collective;
  std::string out = "#\n";
  out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}           out-of-place                       in-place          \n",
                     "", "", "", "", "");
  out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}", "size", "count", "type", "redop", "root");
  for (int i = 0; i < 2; ++i) out += fmt::format("  {:>7}  {:>6}  {:>6} {:>6}", "time", "algbw", "busbw", "#wrong");
  out += '\n';
  out += fmt::format("# {:>10}  {:>12}  {:>8}  {:>6}  {:>6}", "(B)", "(elements)", "", "", "");
  for (int i = 0; i < 2; ++i) out += fmt::format("  {:>7}  {:>6}  {:>6}  {:>5}", "(us)", "(GB/s)", "(GB/s)", "");
  out += '\n';

  const std::string_view type = coll::data_type_name(bench.data_type);
  const std::string_view redop = nccl_tests_redop(bench);
  const long long root = nccl_tests_root(bench);
  for (const coll::CollectivePoint& p : r.results) {
    out += fmt::format("{:>12}  {:>12}  {:>8}  {:>6}  {:>6}", p.bytes, p.count, type, redop, root);
    const std::string figures = side(p);  // in-place: the same call (nothing moves in a simulation)
    out += figures + figures + '\n';
  }
  out += "# Out of bounds values : 0 OK\n";
  out += fmt::format("# Avg bus bandwidth    : {:g} \n", coll::average_bus_bandwidth(r) / 1e9);
  out += "#\n";
  return out;
}

}  // namespace rackscale::io

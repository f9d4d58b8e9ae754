// The trace import benchmark (docs/performance.md, "Trace replay"): writes 1,024 ranks x 10,000 nodes of
// Chakra traces with the project's own writer into a temporary directory, then imports them as a run
// does — a Session on a 1,024-device cluster and the trace workload's constructor, each rank reading
// and preparing only the traces of the devices it owns, then checking every send against its receive —
// and prints the import's wall time (the slowest rank's), the traces each rank read and its CPU time, and the peak
// resident memory of every rank and in all. The issue's target: under 10 s and 2 GiB in all on 2 ranks.
//
//   mpirun -np 2 build/bench/bench_trace_import [RANKS [NODES [DIR]]]
//
// Each trace is a chain of compute nodes, every 50th node an all-reduce over all ranks and every 100th
// a send to the next rank with its receive from the previous one (so the traces match across ranks);
// one dependency per node, as a recorded kernel stream has. DIR (default: a new directory under
// /tmp) is removed afterwards unless given.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/operations.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/chakra/chakra_file.hpp"
#include "io/config/scenario_loader.hpp"
#include "sim/session.hpp"
#include "sim/trace_workload.hpp"

namespace {

namespace fs = std::filesystem;
namespace wl = rackscale::models::workload;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// This process's CPU time (user and system), which a loaded machine does not inflate as it does wall time.
double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

std::uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
}

wl::TraceGraph synthetic_trace(std::uint32_t rank, std::uint32_t ranks, std::uint64_t nodes) {
  wl::TraceGraph graph;
  graph.nodes.reserve(nodes);
  for (std::uint64_t id = 1; id <= nodes; ++id) {
    wl::TraceNode n;
    n.id = id;
    if (id % 100 == 0 && ranks > 1) {
      // Node 100 + 200k sends to the next rank; node 200 + 200k receives that send from the previous one.
      const bool send = id % 200 == 100;
      n.kind = send ? wl::TraceNodeKind::send : wl::TraceNodeKind::recv;
      n.name = send ? "send" : "recv";
      n.peer = send ? (rank + 1) % ranks : (rank + ranks - 1) % ranks;
      n.tag = static_cast<std::int64_t>(send ? id : id - 100);
      n.comm_bytes = 1 << 20;
    } else if (id % 50 == 0) {
      n.kind = wl::TraceNodeKind::collective;
      n.name = "all_reduce";
      n.collective = wl::TraceCollective::all_reduce;
      n.comm_bytes = 1 << 22;
    } else {
      n.name = "kernel";
      n.duration_micros = 10 + id % 7;
    }
    if (id > 1) n.data_dependencies.push_back(id - 1);
    graph.nodes.push_back(std::move(n));
  }
  return graph;
}

// 1,024 H100s: 128 HGX nodes, 8 NICs each, on a fat tree (as configs/traces/astra-sim-all-reduce-16.yaml).
void write_config(const fs::path& file, std::uint32_t ranks) {
  std::ofstream(file) << fmt::format(R"(name: trace-import-bench
description: bench_trace_import's synthetic traces on {} H100s
cluster:
  nodes: {}
  devices_per_node: 8
  nodes_per_rack: 4
  nics_per_node: 8
  accelerator: h100-sxm5-80gb
  nic: connectx7-400g
  scale_up: {{kind: nvswitch, domain_devices: 8, bandwidth: 450GB/s, latency: 500ns, switch: nvswitch-gen3}}
  scale_out: {{topology: fat_tree, switch: quantum2-qm9700}}
network: {{fidelity: analytical}}
workload: {{type: trace, format: chakra, files: "job.%d.et"}}
)",
                                     ranks, ranks / 8);
}

}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment env(argc, argv);
  boost::mpi::communicator comm;
  const std::uint32_t ranks = argc > 1 ? static_cast<std::uint32_t>(std::stoul(argv[1])) : 1024;
  const std::uint64_t nodes = argc > 2 ? std::stoull(argv[2]) : 10'000;
  const bool own_dir = argc <= 3;
  std::string dir = own_dir ? fmt::format("/tmp/bench_trace_import.{}", ::getpid()) : argv[3];
  boost::mpi::broadcast(comm, dir, 0);
  if (ranks % 8 != 0) {
    if (comm.rank() == 0) fmt::print(stderr, "RANKS must be a multiple of 8 (HGX nodes), not {}\n", ranks);
    return 2;
  }

  // Writing: each rank its share of the files (not measured as the import).
  const auto write_start = std::chrono::steady_clock::now();
  if (comm.rank() == 0) {
    fs::create_directories(dir);
    write_config(fs::path(dir) / "job.yaml", ranks);
  }
  comm.barrier();
  for (std::uint32_t r = static_cast<std::uint32_t>(comm.rank()); r < ranks; r += static_cast<std::uint32_t>(comm.size()))
    rackscale::io::write_chakra_trace(fs::path(dir) / fmt::format("job.{}.et", r), synthetic_trace(r, ranks, nodes));
  comm.barrier();
  const double write_seconds = seconds_since(write_start);
  std::uint64_t bytes = 0;
  if (comm.rank() == 0)
    for (const auto& entry : fs::directory_iterator(dir)) bytes += entry.file_size();
  const std::uint64_t rss_before = boost::mpi::all_reduce(comm, peak_rss_bytes(), std::plus<std::uint64_t>());

  // The import: what `rackscale run` does before its engine.
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  const rackscale::models::Scenario scenario = rackscale::io::load_scenario((fs::path(dir) / "job.yaml").string(), {});
  const rackscale::sim::RunOptions options;
  rackscale::sim::Session session(comm, scenario, options);
  const double session_seconds = seconds_since(start);
  std::uint64_t read = 0;
  const rackscale::sim::TraceWorkload workload(session, [&read](const std::string& file) {
    ++read;
    return rackscale::io::read_chakra_trace(file);
  });
  const double mine = seconds_since(start);
  const double import_seconds = boost::mpi::all_reduce(comm, mine, boost::mpi::maximum<double>());
  std::vector<double> cpu;
  boost::mpi::gather(comm, cpu_seconds() - cpu_start, cpu, 0);
  std::vector<std::uint64_t> reads, rss;
  boost::mpi::gather(comm, read, reads, 0);
  boost::mpi::gather(comm, peak_rss_bytes(), rss, 0);
  if (comm.rank() == 0) {
    std::uint64_t total = 0;
    std::string per_rank;
    for (std::size_t r = 0; r < rss.size(); ++r) {
      total += rss[r];
      per_rank += fmt::format("{}rank {}: {} traces read in {:.2f} s of CPU time, peak RSS {:.1f} MiB", r == 0 ? "" : "; ",
                              r, reads[r], cpu[r], static_cast<double>(rss[r]) / (1 << 20));
    }
    fmt::print("traces: {} ranks x {} nodes, {:.1f} MB, written in {:.2f} s (peak RSS after writing: {:.1f} MiB in all)\n",
               ranks, nodes, static_cast<double>(bytes) / 1e6, write_seconds, static_cast<double>(rss_before) / (1 << 20));
    fmt::print("import on {} rank(s): {:.2f} s (slowest rank; topology and placement {:.2f} s on rank 0)\n", comm.size(),
               import_seconds, session_seconds);
    fmt::print("{}\npeak RSS in all: {:.1f} MiB (target: 10 s, 2048 MiB)\n", per_rank,
               static_cast<double>(total) / (1 << 20));
  }
  comm.barrier();
  if (own_dir && comm.rank() == 0) fs::remove_all(dir);
  return 0;
}

#include "app/memory_fit.hpp"

#include <mpi.h>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/format.h>

#include "app/memory_limit.hpp"
#include "app/memory_phase.hpp"
#include "io/number_format.hpp"

namespace rackscale::app {
namespace {

int ranks_on_this_node(const boost::mpi::communicator& comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

std::string bytes(std::uint64_t b) { return io::format_bytes(static_cast<double>(b)); }

// How the run could fit: more nodes with as many ranks each, analytical fidelity, a smaller cluster.
std::string how_to_fit(const models::Scenario& scenario, const MemoryEstimate& estimate, int node_ranks,
                       std::uint64_t limit) {
  std::string advice = "To fit: ";
  const auto fits = [&](const MemoryEstimate& e) { return e.per_rank * static_cast<std::uint64_t>(node_ranks) <= limit; };
  bool found = false;
  for (int nodes = 2; nodes <= (1 << 16) && !found; nodes *= 2) {
    const int ranks = nodes * node_ranks;
    if (static_cast<std::uint64_t>(ranks) > estimate.devices) break;
    const MemoryEstimate more = estimate_memory(scenario, ranks);
    if (!fits(more)) continue;
    advice += fmt::format("run on {} nodes of {} rank{} ({} ranks: {} per rank; mpirun -np {} with the nodes in "
                          "its host file, or sbatch --nodes {}), ",
                          nodes, node_ranks, node_ranks == 1 ? "" : "s", ranks, bytes(more.per_rank), ranks, nodes);
    found = true;
  }
  if (!found) advice += "more ranks alone do not bring it within the limit (every rank holds the whole topology), ";
  if (scenario.network.fidelity == models::network::Fidelity::chunk) {
    models::Scenario analytical = scenario;
    analytical.network.fidelity = models::network::Fidelity::analytical;
    advice += fmt::format("simulate at network.fidelity: analytical ({} per rank on {} rank{}), ",
                          bytes(estimate_memory(analytical, estimate.ranks).per_rank), estimate.ranks,
                          estimate.ranks == 1 ? "" : "s");
  }
  advice += "simulate a smaller cluster, or give the job more memory (rackscale validate prints the estimate)";
  return advice;
}

}  // namespace

MemoryVerdict check_memory_fits(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                std::uint64_t max_memory_option) {
  MemoryVerdict verdict;
  verdict.estimate = estimate_memory(scenario, comm.size());
  set_memory_estimate(describe_estimate(verdict.estimate));
  const int node_ranks = ranks_on_this_node(comm);
  const std::uint64_t node_need = verdict.estimate.per_rank * static_cast<std::uint64_t>(node_ranks);
  const std::optional<MemoryLimit> limit = find_memory_limit(max_memory_option);
  const bool over = limit && node_need > limit->bytes;
  const int first_over = boost::mpi::all_reduce(comm, over ? comm.rank() : comm.size(), boost::mpi::minimum<int>());
  if (first_over == comm.size()) return verdict;
  verdict.printer = first_over == comm.rank();
  verdict.refusal = "the run does not fit in memory";
  if (!verdict.printer) return verdict;
  verdict.refusal = fmt::format(
      "the run needs an estimated {}, {} for the {} rank{} on the node of rank {}, more than the {} allowed by {}; "
      "nothing was built. {}",
      describe_estimate(verdict.estimate), bytes(node_need), node_ranks, node_ranks == 1 ? "" : "s", comm.rank(),
      bytes(limit->bytes), limit->source, how_to_fit(scenario, verdict.estimate, node_ranks, limit->bytes));
  return verdict;
}

}  // namespace rackscale::app

#include "app/phold_run.hpp"

#include <chrono>
#include <functional>
#include <utility>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "partition/partitioner.hpp"
#include "pdes/engine.hpp"

namespace rackscale::app {

using models::phold::mix64;
using models::phold::PholdLp;

std::uint64_t phold_config_hash(const PholdRun& run) {
  const auto& m = run.model;
  return pdes::fnv1a64(fmt::format("phold lps {} remote {} lookahead {} mean {} start {} end {} seed {}", m.lps,
                                   m.remote, m.lookahead, m.mean, m.start_events, run.end, run.seed));
}

PholdResult run_phold(const boost::mpi::communicator& comm, const PholdRun& run, bool gather_events_per_lp) {
  const auto setup_start = std::chrono::steady_clock::now();
  models::phold::validate(run.model);
  const auto placer = partition::make_partitioner(run.placement);
  pdes::RankMap map(placer->assign(partition::Graph::isolated(run.model.lps), comm.size()), comm.size());

  pdes::EngineOptions options;
  if (!run.queue.empty()) options.queue = run.queue;
  options.sync = run.sync;
  options.seed = run.seed;
  options.progress = run.progress;
  options.window_timeout_seconds = run.window_timeout_seconds;
  pdes::Engine engine(comm, std::move(map), options);
  engine.declare_any_to_any_latency(run.model.lookahead);
  for (pdes::LpId lp : engine.rank_map().lps_of(comm.rank()))
    engine.add_lp(std::make_unique<PholdLp>(lp, run.model));
  spdlog::debug("{} of {} LPs on this rank ({} placement), set up in {:.3f} s", engine.local_lps().size(),
                run.model.lps, run.placement,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count());

  prepare_checkpoints(comm, engine, run.checkpoints,
                      {"phold", phold_config_hash(run), pdes::partition_hash(engine.rank_map())});
  const pdes::EngineStats stats = engine.run(run.end);
  throw_if_stopped(stats, run.checkpoints);

  PholdResult result;
  result.queue = std::string(engine.queue_name());
  result.sync = std::string(engine.sync_name());
  std::uint64_t local_checksum = 0;  // a sum, so the order in which LPs are combined does not matter
  std::vector<std::pair<pdes::LpId, std::uint64_t>> local_counts;
  for (const auto& base : engine.local_lps()) {
    const auto& lp = static_cast<const PholdLp&>(*base);
    local_checksum += mix64(lp.id() + mix64(lp.events_handled() + mix64(lp.digest())));
    if (gather_events_per_lp) local_counts.emplace_back(lp.id(), lp.events_handled());
  }
  result.checksum = boost::mpi::all_reduce(comm, local_checksum, std::plus<std::uint64_t>());
  result.events = boost::mpi::all_reduce(comm, stats.events_processed, std::plus<std::uint64_t>());
  result.engine = pdes::gather_stats(comm, stats);
  if (gather_events_per_lp) {
    std::vector<std::vector<std::pair<pdes::LpId, std::uint64_t>>> all;
    boost::mpi::gather(comm, local_counts, all, 0);
    if (comm.rank() == 0) {
      result.events_per_lp.assign(run.model.lps, 0);
      for (const auto& rank_counts : all)
        for (const auto& [lp, count] : rank_counts) result.events_per_lp[lp] = count;
    }
  }
  return result;
}

}  // namespace rackscale::app

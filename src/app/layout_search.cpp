#include "app/layout_search.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <stdexcept>

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "app/checkpoint_options.hpp"
#include "app/search_journal.hpp"
#include "app/training_run.hpp"
#include "io/output_destination.hpp"
#include "models/network/fidelity.hpp"
#include "io/number_format.hpp"
#include "models/memory/infeasible_job.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/error.hpp"
#include "pdes/stop_signals.hpp"
#include "search/iteration_estimate.hpp"
#include "search/rank_correlation.hpp"
#include "sim/one_replica.hpp"
#include "sim/training_goodput.hpp"

namespace rackscale::app {

namespace wl = models::workload;

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What a rank sends of its share of the pruning: plain numbers, put back into candidates from the index.
struct KeptRow {
  std::uint64_t index = 0, peak = 0, tokens = 0;
  std::uint32_t data = 0;
  pdes::SimTime floor_iteration = 0, floor_compute = 0;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & index & peak & tokens & data & floor_iteration & floor_compute;
  }
};
struct PruningShare {
  std::uint64_t layouts = 0;
  std::map<std::string, std::uint64_t> pruned;
  std::vector<KeptRow> kept;
  template <class Archive>
  void serialize(Archive& ar, unsigned) {
    ar & layouts & pruned & kept;
  }
};

// Every rank prunes its share of the product; the shares, gathered, merge into the whole space's pruning.
search::Pruning prune_on_ranks(const boost::mpi::communicator& comm, const wl::TrainingSpec& job,
                               const models::network::ClusterSpec& cluster, const search::LayoutSpace& space) {
  const search::Pruning mine = search::prune_layouts(job, cluster, space, static_cast<std::uint64_t>(comm.rank()),
                                                     static_cast<std::uint64_t>(comm.size()));
  PruningShare share{mine.layouts, mine.pruned, {}};
  for (const auto& c : mine.kept)
    share.kept.push_back({c.index, c.peak_memory, c.tokens_per_iteration, c.parallel.data, c.floor_iteration,
                          c.floor_compute});
  std::vector<PruningShare> shares;
  boost::mpi::all_gather(comm, share, shares);
  search::Pruning all;
  for (const PruningShare& s : shares) {
    search::Pruning part;
    part.layouts = s.layouts;
    part.pruned = s.pruned;
    for (const KeptRow& row : s.kept) {
      search::Candidate c{row.index, *search::layout_at(job, space, row.index), row.peak, row.tokens,
                          row.floor_iteration, row.floor_compute};
      c.parallel.data = row.data;
      part.kept.push_back(std::move(c));
    }
    all.merge(part);
  }
  return all;
}

// Every rank agrees whether any was asked to stop (a signal, docs/cli.md); if so they all throw RunStopped
// with what was done, so the search ends with exit 4 instead of running on between collectives.
// `before` runs first (the journal's last save).
void stop_if_asked(const boost::mpi::communicator& comm, const std::string& done,
                   const std::function<void()>& before = [] {}) {
  const int mine = pdes::stop_signal_received();
  int any = 0;
  boost::mpi::all_reduce(comm, mine, any, boost::mpi::maximum<int>());
  if (any != 0) {
    before();
    throw RunStopped(fmt::format("stopped by signal {} after {}; --output FILE --resume goes on from where a search "
                                 "stopped",
                                 any, done));
  }
}

template <typename Row>
std::vector<Row> gather_rows(const boost::mpi::communicator& comm, const std::vector<Row>& mine) {
  std::vector<std::vector<Row>> all;
  boost::mpi::all_gather(comm, mine, all);
  std::vector<Row> rows;
  for (auto& part : all) rows.insert(rows.end(), part.begin(), part.end());
  return rows;
}

bool ranks_before(const RankedLayout& a, const RankedLayout& b, search::Objective objective) {
  // Finalists that ran first, by their simulated score; then the rest by the estimate; refused ones last.
  auto tier = [](const RankedLayout& r) { return r.simulated ? 0 : r.failure.empty() ? 1 : 2; };
  if (tier(a) != tier(b)) return tier(a) < tier(b);
  const double sa = search::score(objective, a.figures), sb = search::score(objective, b.figures);
  if (sa != sb) return sa < sb;
  return a.candidate.index < b.candidate.index;
}

}  // namespace

namespace {

// A finalist's report; a one-replica run (docs/models.md, "One replica for all") whose replicas turn out
// not to be alike, on the topology before the run or on a message's path during it, simulates them all
// instead (a failure that has nothing to do with the replicas then recurs and is reported).
models::workload::TrainingReport run_finalist(const boost::mpi::communicator& team, models::Scenario scenario) {
  const bool one = scenario.workload.training.simulated_replicas == models::workload::SimulatedReplicas::one;
  try {
    return run_training(team, scenario, RunOptions{});
  } catch (const sim::ReplicasUnlike&) {
  } catch (const pdes::SimulationError&) {
    if (!one) throw;
  }
  scenario.workload.training.simulated_replicas = models::workload::SimulatedReplicas::all;
  return run_training(team, scenario, RunOptions{});
}

// Estimates are made in rounds of this many candidates, whatever the rank count, so that where branch and
// bound stops, and so what is estimated, is the same for any rank count.
constexpr std::size_t kRound = 16;

// A score (search::score) as a person reads it: "54.07 days", "$31.79 M", "7,177 t", "2.1 M tokens per $".
std::string score_text(search::Objective objective, double score) {
  switch (objective) {
    case search::Objective::time:
    case search::Objective::goodput_time: return io::format_seconds(score);
    case search::Objective::cost: return io::format_usd(score);
    case search::Objective::carbon: return io::in_unit(score, io::carbon_unit(score));
    case search::Objective::tokens_per_dollar: return io::with_prefix(1.0 / score, io::Prefixes::counts, "tokens per $");
  }
  return io::significant(score);
}

EstimateRecord estimate_one(const wl::TrainingSpec& job, const models::network::ClusterSpec& cluster,
                            const models::network::Topology& topology, const search::Candidate& c) {
  EstimateRecord row;
  try {
    const wl::TrainingPlan plan = wl::build_training_plan(search::with_layout(job, c.parallel), cluster);
    const auto e = search::estimate_iteration(plan, cluster, topology);
    row.iteration = e.iteration;
    row.compute = e.compute;
    row.exposed = e.exposed_communication;
    row.bubble = e.pipeline_bubble;
    row.tokens = plan.layout.tokens_per_iteration();
    row.model_flops = plan.model_flops;
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    row.refused = what.substr(0, what.find(':'));
  }
  return row;
}

// Rank 0 keeps the journal (--output): rewritten atomically at most every few seconds and at the end of
// each phase, so that a killed search loses little.
class JournalWriter {
 public:
  JournalWriter(const boost::mpi::communicator& comm, std::string path, SearchJournal& journal)
      : comm_(comm), path_(std::move(path)), journal_(journal) {
    if (!path_.empty()) partial_ = io::partial_path(comm, path_);
  }
  void save(bool now) {
    if (path_.empty() || comm_.rank() != 0) return;
    if (!now && seconds_since(last_) < 2.0) return;
    last_ = Clock::now();
    {
      std::ofstream out(partial_, std::ios::trunc);
      out << search_journal_text(journal_);
      if (!out) throw std::runtime_error(fmt::format("--output: {}: could not be written", partial_));
    }
    if (const std::string problem = io::publish(partial_, path_, true); !problem.empty())
      throw std::runtime_error("--output: " + problem);
  }

 private:
  const boost::mpi::communicator& comm_;
  std::string path_, partial_;
  SearchJournal& journal_;
  Clock::time_point last_ = Clock::now();
};

SearchIdentity identity_of(const models::Scenario& scenario, const SearchOptions& options,
                           const search::LayoutSpace& space) {
  SearchIdentity id;
  id.model = scenario.workload.training.model.name;
  id.devices = scenario.cluster.devices();
  id.accelerator = scenario.cluster.accelerator.name;
  id.space = search::describe(space);
  id.objective = search::objective_name(options.objective);
  id.simulate = options.simulate;
  id.fidelity = std::string(models::network::fidelity_name(options.fidelity.value_or(scenario.network.fidelity)));
  return id;
}

}  // namespace

SearchResult run_search(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                        const SearchOptions& options, const SearchProgress& progress) {
  if (scenario.workload.kind != models::WorkloadKind::training)
    throw std::invalid_argument("workload.type: rackscale search needs a training workload");
  if (options.ranks_per_candidate == 0 || options.ranks_per_candidate > static_cast<std::uint32_t>(comm.size()))
    throw std::invalid_argument(fmt::format("--ranks-per-candidate: expected 1 to {} (the ranks of this run), found {}",
                                            comm.size(), options.ranks_per_candidate));
  if (options.resume && options.output.empty())
    throw std::invalid_argument("--resume: needs --output FILE, the journal to resume from");
  const wl::TrainingSpec& job = scenario.workload.training;
  const auto& cluster = scenario.cluster;
  SearchResult result;
  result.space = search::parse_space(options.space, search::default_space(job, cluster));
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  const auto me = static_cast<std::uint64_t>(comm.rank());

  // 0. The journal: read back (--resume), or a new one where no file is.
  SearchJournal journal;
  journal.identity = identity_of(scenario, options, result.space);
  if (!options.output.empty()) {
    if (options.resume) {
      journal = read_search_journal(options.output, journal.identity);
    } else if (const auto check = io::check_destination(comm, options.output, false); !check.problem.empty()) {
      throw std::invalid_argument(
          fmt::format("--output: {}{}", check.problem, check.exists ? " (--resume continues that search)" : ""));
    }
  }
  JournalWriter writer(comm, options.output, journal);

  // 1. Prune: every rank its share of the product.
  auto start = Clock::now();
  const search::Pruning pruning = prune_on_ranks(comm, job, cluster, result.space);
  result.layouts = pruning.layouts;
  result.pruned = pruning.pruned;
  const std::vector<search::Candidate>& kept = pruning.kept;
  result.prune_seconds = seconds_since(start);
  stop_if_asked(comm, "pruning");
  progress(fmt::format("pruned {} layouts in {:.1f} s: {} left", io::with_commas(result.layouts),
                       result.prune_seconds, io::with_commas(kept.size())));

  // 2. Estimate, best floor first (branch and bound): once a candidate's floor is worse than the
  // `needed`-th best estimate so far, so are all after it, and none of them can be among the best
  // `needed`; they are skipped. In rounds of kRound candidates, candidate j of a round on rank j mod R.
  start = Clock::now();
  const auto topology = models::network::build_topology(cluster, scenario.network.routing);
  search::CostModel costs = search::cost_model(cluster, topology, scenario.tco);
  costs.goodput = sim::expected_run_model(scenario, costs.devices);
  const auto floor_score = [&](const search::Candidate& c) {
    return search::floor_score(
        options.objective,
        search::run_figures({c.floor_iteration, c.floor_compute, 0, 0}, c.tokens_per_iteration, 0, costs), costs);
  };
  std::vector<double> floors(kept.size());
  for (std::size_t j = 0; j < kept.size(); ++j) floors[j] = floor_score(kept[j]);
  std::vector<std::size_t> order(kept.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return floors[a] != floors[b] ? floors[a] < floors[b] : a < b;
  });
  const std::size_t needed = std::max<std::size_t>({options.top, options.simulate, 1});
  std::vector<double> best;  // the best `needed` scores so far, as a max-heap
  std::size_t next = 0, resumed = 0;
  auto last_progress = Clock::now();
  const auto add_row = [&](std::size_t j, const EstimateRecord& row) {
    journal.estimated[kept[j].index] = row;
    journal.layouts[kept[j].index] = search::describe(kept[j].parallel, cluster.devices());
    if (!row.refused.empty()) {
      ++result.pruned[row.refused];
      return;
    }
    RankedLayout r;
    r.candidate = kept[j];
    r.tokens_per_iteration = row.tokens;
    r.model_flops = row.model_flops;
    r.estimate = {row.iteration, row.compute, row.exposed, row.bubble};
    r.estimated = search::run_figures(r.estimate, row.tokens, row.model_flops, costs);
    r.figures = r.estimated;
    // Over a limit: dropped before it can take a place among the best, so that branch and bound keeps the
    // best `needed` of the layouts within the limits.
    if (const std::string broken = search::broken_limit(options.limits, options.objective, r.estimated); !broken.empty()) {
      ++result.pruned[broken];
      return;
    }
    const double score = search::score(options.objective, r.estimated);
    if (best.size() < needed || score < best.front()) {
      best.push_back(score);
      std::push_heap(best.begin(), best.end());
      if (best.size() > needed) {
        std::pop_heap(best.begin(), best.end());
        best.pop_back();
      }
    }
    result.ranked.push_back(std::move(r));
  };
  while (next < order.size()) {
    if (!options.exhaustive && best.size() >= needed && floors[order[next]] > best.front() &&
        floors[order[next]] >= options.estimate_below)
      break;
    const std::size_t end = std::min(order.size(), next + kRound);
    std::vector<std::pair<std::uint64_t, EstimateRecord>> mine;
    for (std::size_t k = next; k < end; ++k) {
      const std::size_t j = order[k];
      if (journal.estimated.count(kept[j].index) != 0 || (k - next) % ranks != me) continue;
      mine.emplace_back(j, estimate_one(job, cluster, topology, kept[j]));
    }
    std::vector<std::pair<std::uint64_t, EstimateRecord>> rows = gather_rows(comm, mine);
    std::map<std::uint64_t, EstimateRecord> by_position(rows.begin(), rows.end());
    for (std::size_t k = next; k < end; ++k) {
      const std::size_t j = order[k];
      if (const auto it = by_position.find(j); it != by_position.end()) {
        add_row(j, it->second);
      } else {
        ++resumed;
        add_row(j, journal.estimated.at(kept[j].index));
      }
    }
    next = end;
    writer.save(false);
    stop_if_asked(comm, fmt::format("estimating {} of {} layouts", next, kept.size()), [&] { writer.save(true); });
    if (seconds_since(last_progress) >= 10.0 && !best.empty()) {
      last_progress = Clock::now();
      progress(fmt::format("estimated {} of {} layouts ({:.0f} s), best {} so far {}", io::with_commas(next),
                           io::with_commas(kept.size()), seconds_since(start), search::objective_name(options.objective),
                           score_text(options.objective, *std::min_element(best.begin(), best.end()))));
    }
  }
  result.skipped = order.size() - next;
  result.resumed = resumed;
  writer.save(true);
  std::sort(result.ranked.begin(), result.ranked.end(),
            [&](const RankedLayout& a, const RankedLayout& b) { return ranks_before(a, b, options.objective); });
  result.estimate_seconds = seconds_since(start);
  progress(fmt::format("estimated {} layouts in {:.1f} s{}; {} skipped by their floor", io::with_commas(next),
                       result.estimate_seconds,
                       resumed > 0 ? fmt::format(" ({} read from {})", io::with_commas(resumed), options.output) : "",
                       io::with_commas(result.skipped)));

  // 3. Simulate the best by the estimate: finalist f by group f mod groups.
  start = Clock::now();
  const std::uint32_t finalists =
      static_cast<std::uint32_t>(std::min<std::size_t>(options.simulate, result.ranked.size()));
  const int groups = comm.size() / static_cast<int>(options.ranks_per_candidate);
  const int group = comm.rank() / static_cast<int>(options.ranks_per_candidate);
  const boost::mpi::communicator team = comm.split(group < groups ? group : groups);
  std::vector<std::pair<std::uint32_t, SimulationRecord>> simulation_rows;
  if (group < groups) {
    for (std::uint32_t f = static_cast<std::uint32_t>(group); f < finalists; f += static_cast<std::uint32_t>(groups)) {
      if (journal.simulated.count(result.ranked[f].candidate.index) != 0) continue;
      models::Scenario s = scenario;
      s.workload.training = search::with_layout(job, result.ranked[f].candidate.parallel);
      s.workload.training.parallel.data = 0;
      s.workload.training.iterations = 1;
      if (options.fidelity) s.network.fidelity = *options.fidelity;
      // One replica for all where it gives the same figures (docs/models.md): a tenth of the time or less.
      if (models::one_replica_refusal(s).empty())
        s.workload.training.simulated_replicas = models::workload::SimulatedReplicas::one;
      SimulationRecord row;
      try {
        const auto report = run_finalist(team, s);
        row.iteration = report.iteration_time;
        const auto& b = report.breakdown;
        row.compute = static_cast<pdes::SimTime>(b.forward + b.backward + b.recompute + b.optimizer + b.other_compute);
        row.exposed = static_cast<pdes::SimTime>(b.exposed_communication);
        row.bubble = static_cast<pdes::SimTime>(b.pipeline_bubble);
      } catch (const std::invalid_argument& e) {
        row.failure = e.what();
      } catch (const models::memory::InfeasibleJob& e) {
        row.failure = e.what();
      }
      if (team.rank() == 0) simulation_rows.emplace_back(f, row);
      if (comm.rank() == 0) {  // the journal keeps rank 0's finalists as they finish, the others' after the gather
        journal.simulated[result.ranked[f].candidate.index] = row;
        writer.save(true);
      }
      if (comm.rank() == 0)
        progress(fmt::format("simulated finalist {} of {}: {}", f + 1, finalists,
                             search::describe(result.ranked[f].candidate.parallel, cluster.devices())));
    }
  }
  std::vector<std::pair<std::uint32_t, SimulationRecord>> simulations = gather_rows(comm, simulation_rows);
  for (const auto& [f, row] : simulations) journal.simulated[result.ranked[f].candidate.index] = row;
  writer.save(true);
  std::vector<double> estimated_scores, simulated_scores;
  for (std::uint32_t f = 0; f < finalists; ++f) {
    RankedLayout& r = result.ranked[f];
    const SimulationRecord& row = journal.simulated.at(r.candidate.index);
    if (!row.failure.empty()) {
      r.failure = row.failure;
      continue;
    }
    r.simulated = true;
    r.simulation = {row.iteration, row.compute, row.exposed, row.bubble};
    r.figures = search::run_figures(r.simulation, r.tokens_per_iteration, r.model_flops, costs);
    ++result.simulated;
    estimated_scores.push_back(search::score(options.objective, r.estimated));
    simulated_scores.push_back(search::score(options.objective, r.figures));
  }
  result.spearman = search::spearman(estimated_scores, simulated_scores);
  // A finalist whose simulated run breaks a limit its estimate kept is dropped too.
  const auto broken = [&](const RankedLayout& r) {
    return r.simulated ? search::broken_limit(options.limits, options.objective, r.figures) : std::string();
  };
  for (const RankedLayout& r : result.ranked)
    if (const std::string rule = broken(r); !rule.empty()) {
      ++result.pruned[rule + " (simulated)"];
      --result.simulated;
    }
  result.ranked.erase(std::remove_if(result.ranked.begin(), result.ranked.end(),
                                     [&](const RankedLayout& r) { return !broken(r).empty(); }),
                      result.ranked.end());
  std::stable_sort(result.ranked.begin(), result.ranked.end(),
                   [&](const RankedLayout& a, const RankedLayout& b) { return ranks_before(a, b, options.objective); });
  result.simulate_seconds = seconds_since(start);
  return result;
}

}  // namespace rackscale::app

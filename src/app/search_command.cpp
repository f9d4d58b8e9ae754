#include "app/search_command.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "app/cluster_search.hpp"
#include "app/layout_search.hpp"
#include "app/run_failure.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/number_format.hpp"
#include "io/scenario_header.hpp"
#include "io/text_table.hpp"
#include "models/memory/memory_check.hpp"
#include "models/network/fidelity.hpp"

namespace rackscale::app {
namespace {

std::string ranked_table(const SearchResult& r, std::uint32_t top, std::uint64_t devices, std::uint64_t capacity,
                         bool goodput) {
  using A = io::TextTable::Align;
  std::vector<std::string> headers{"#", "layout", "iteration", "by", "tokens/s", "MFU", "memory/device", "exposed",
                                   "bubble", "time to train", "cost", "carbon"};
  std::vector<A> aligns{A::right, A::left, A::right, A::left, A::right, A::right, A::right, A::right, A::right, A::right,
                        A::right, A::right};
  if (goodput) {  // ranked by it: beside the ideal time
    headers.insert(headers.begin() + 10, "goodput time");
    aligns.insert(aligns.begin() + 10, A::right);
  }
  io::TextTable t(headers, aligns);
  const std::size_t rows = std::min<std::size_t>(top, r.ranked.size());
  for (std::size_t i = 0; i < rows; ++i) {
    const RankedLayout& l = r.ranked[i];
    const search::RunFigures& f = l.figures;
    const std::string by = l.simulated ? "simulated" : l.failure.empty() ? "estimate" : "refused";
    std::vector<std::string> row{std::to_string(i + 1), search::describe(l.candidate.parallel, devices),
                                 io::format_seconds(f.iteration_seconds), by, io::significant(f.tokens_per_second),
                                 io::format_percent(f.mfu),
                                 fmt::format("{} of {}", models::memory::format_gib(l.candidate.peak_memory),
                                             models::memory::format_gib(capacity)),
                                 io::format_percent(f.exposed_share), io::format_percent(f.bubble_share),
                                 io::format_seconds(f.time_to_train_seconds), io::format_usd(f.cost_usd),
                                 fmt::format("{:.4g} t", f.carbon_kg / 1e3)};
    if (goodput) row.insert(row.begin() + 10, io::format_seconds(f.goodput_time_seconds));
    t.add_row(row);
  }
  return t.render();
}

nlohmann::ordered_json figures_json(const search::RunFigures& f) {
  nlohmann::ordered_json j;
  j["iteration_s"] = f.iteration_seconds;
  j["tokens_per_s"] = f.tokens_per_second;
  j["mfu"] = f.mfu;
  j["exposed_communication_share"] = f.exposed_share;
  j["pipeline_bubble_share"] = f.bubble_share;
  j["iterations"] = f.iterations;
  j["time_to_train_s"] = f.time_to_train_seconds;
  j["goodput_time_to_train_s"] = f.goodput_time_seconds;
  j["cost_usd"] = f.cost_usd;
  j["carbon_kgco2e"] = f.carbon_kg;
  j["tokens_per_usd"] = f.tokens_per_dollar;
  return j;
}

nlohmann::ordered_json layout_json(const RankedLayout& l, std::uint64_t devices) {
  const auto& p = l.candidate.parallel;
  nlohmann::ordered_json row;
  row["layout"] = search::describe(p, devices);
  row["parallel"] = {{"tensor", p.tensor},
                     {"pipeline", p.pipeline},
                     {"virtual_stages", p.virtual_stages},
                     {"data", p.data},
                     {"context", p.context},
                     {"expert", p.expert},
                     {"micro_batch", p.micro_batch},
                     {"zero_stage", p.zero_stage},
                     {"recompute", search::recompute_name(p.recompute)},
                     {"sequence_parallel", p.sequence_parallel}};
  if (p.first_stage_layers) row["parallel"]["first_stage_layers"] = *p.first_stage_layers;
  if (p.last_stage_layers) row["parallel"]["last_stage_layers"] = *p.last_stage_layers;
  row["memory_bytes_per_device"] = l.candidate.peak_memory;
  row["by"] = l.simulated ? "simulated" : l.failure.empty() ? "estimate" : "refused";
  row["estimate"] = figures_json(l.estimated);
  if (l.simulated) row["simulated"] = figures_json(l.figures);
  if (!l.failure.empty()) row["failure"] = l.failure;
  return row;
}

nlohmann::ordered_json result_json(const SearchResult& r, const SearchOptions& options, std::uint32_t top,
                                   std::uint64_t devices) {
  nlohmann::ordered_json j;
  j["objective"] = search::objective_name(options.objective);
  j["space"] = search::describe(r.space);
  j["layouts"] = r.layouts;
  nlohmann::ordered_json pruned = nlohmann::ordered_json::object();
  for (const auto& [rule, n] : r.pruned) pruned[rule] = n;
  j["pruned"] = pruned;
  j["estimated"] = r.ranked.size();
  j["skipped_by_floor"] = r.skipped;
  j["estimates_resumed"] = r.resumed;
  j["simulated"] = r.simulated;
  j["spearman"] = r.spearman ? nlohmann::ordered_json(*r.spearman) : nlohmann::ordered_json();
  j["seconds"] = {{"prune", r.prune_seconds}, {"estimate", r.estimate_seconds}, {"simulate", r.simulate_seconds}};
  nlohmann::ordered_json ranked = nlohmann::ordered_json::array();
  const std::size_t rows = std::min<std::size_t>(top, r.ranked.size());
  for (std::size_t i = 0; i < rows; ++i) {
    nlohmann::ordered_json row;
    row["rank"] = i + 1;
    row.update(layout_json(r.ranked[i], devices));
    ranked.push_back(row);
  }
  j["ranked"] = ranked;
  return j;
}

std::string cluster_table(const std::vector<ClusterResult>& results, bool goodput) {
  using A = io::TextTable::Align;
  io::TextTable t({"#", "cluster", "devices", "best layout", "iteration", "by",
                   goodput ? "goodput time" : "time to train", "cost", "carbon", "front: cost", "front: carbon"},
                  {A::right, A::left, A::right, A::left, A::right, A::left, A::right, A::right, A::right, A::left,
                   A::left});
  for (std::size_t i = 0; i < results.size(); ++i) {
    const ClusterResult& c = results[i];
    const auto& ranked = c.search.ranked;
    if (ranked.empty()) {
      t.add_row({std::to_string(i + 1), c.cluster.name, io::with_commas(c.devices), "no layout fits", "", "", "", "",
                 "", "", ""});
      continue;
    }
    const RankedLayout& l = ranked[0];
    const search::RunFigures& f = l.figures;
    t.add_row({std::to_string(i + 1), c.cluster.name, io::with_commas(c.devices),
               search::describe(l.candidate.parallel, c.devices), io::format_seconds(f.iteration_seconds),
               l.simulated ? "simulated" : l.failure.empty() ? "estimate" : "refused",
               io::format_seconds(goodput ? f.goodput_time_seconds : f.time_to_train_seconds), io::format_usd(f.cost_usd),
               fmt::format("{:.4g} t", f.carbon_kg / 1e3), c.on_cost_front ? "yes" : "", c.on_carbon_front ? "yes" : ""});
  }
  return t.render();
}

nlohmann::ordered_json cluster_json(const std::vector<ClusterResult>& results, const SearchOptions& options) {
  nlohmann::ordered_json j;
  j["objective"] = search::objective_name(options.objective);
  nlohmann::ordered_json clusters = nlohmann::ordered_json::array();
  for (const ClusterResult& c : results) {
    nlohmann::ordered_json row;
    row["cluster"] = c.cluster.name;
    row["overrides"] = c.cluster.overrides;
    row["devices"] = c.devices;
    row["accelerator"] = c.accelerator;
    row["layouts"] = c.search.layouts;
    row["estimated"] = c.search.ranked.size();
    row["skipped_by_floor"] = c.search.skipped;
    row["simulated"] = c.search.simulated;
    row["best"] = c.search.ranked.empty() ? nlohmann::ordered_json() : layout_json(c.search.ranked[0], c.devices);
    row["pareto_time_cost"] = c.on_cost_front;
    row["pareto_time_carbon"] = c.on_carbon_front;
    clusters.push_back(row);
  }
  j["clusters"] = clusters;
  return j;
}

}  // namespace

SearchCommand::SearchCommand(CLI::App& parent)
    : command_(parent.add_subcommand("search", "The best parallel layouts of a training config on its cluster")) {
  command_->add_option("config", config_, "Scenario file (YAML) with a training workload")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  command_->add_option("--objective", objective_,
                       "Rank by time, goodput_time (expected with interruptions and checkpoints), cost, carbon or "
                       "tokens_per_dollar (default time)");
  command_->add_option("--budget", budget_, "Drop layouts whose run costs more than this many dollars")
      ->check(CLI::PositiveNumber);
  command_->add_option("--deadline", deadline_,
                       "Drop layouts whose time to train (the goodput time under --objective goodput_time) exceeds "
                       "this many days")
      ->check(CLI::PositiveNumber);
  command_->add_option("--top", top_, "Layouts shown (default 10)");
  command_->add_option("--space", space_,
                       "Axes to search instead of the defaults: 'tensor=1,2,4,8 pipeline=1..64 zero=0..3 ...'");
  command_->add_option("--simulate", simulate_, "Best layouts by the estimate run by the event engine (default 8)");
  command_->add_option("--ranks-per-candidate", ranks_per_candidate_, "MPI ranks per simulated layout (default 1)");
  command_->add_option("--fidelity", fidelity_, "Network fidelity of the simulated layouts (default: the config's)");
  command_->add_option("--cluster-space", cluster_space_,
                       "Search every cluster of 'accelerator=a,b nic=x,y oversubscription=1,2 domain=8,72 nodes=...' "
                       "for its best layout; the Pareto fronts of time to train against cost and carbon");
  command_->add_option("--output", output_,
                       "Journal of every estimated and simulated candidate (JSON), kept up to date as they finish");
  command_->add_flag("--resume", resume_, "Go on from the --output journal of an interrupted search");
  command_->add_flag("--exhaustive", exhaustive_,
                     "Estimate every layout that fits (default: skip those whose floor cannot make the top)");
  command_->add_flag("--json", json_, "Also print the result as JSON on the last line");
  command_->add_flag("--quiet", quiet_, "No progress lines on stderr");
}

int SearchCommand::execute(const boost::mpi::communicator& comm) {
  const bool printer = comm.rank() == 0;
  models::Scenario scenario;
  SearchOptions options;
  SearchResult result;
  try {
    scenario = io::load_scenario(config_, overrides_);
    options.space = space_;
    options.objective = search::parse_objective(objective_);
    options.simulate = simulate_;
    options.ranks_per_candidate = ranks_per_candidate_;
    options.top = top_;
    options.exhaustive = exhaustive_;
    options.output = output_;
    options.resume = resume_;
    options.limits.budget_usd = budget_;
    if (deadline_) options.limits.deadline_seconds = *deadline_ * 86400.0;
    if (!fidelity_.empty()) {
      std::string names;
      for (const auto& f : models::network::fidelities()) {
        names += (names.empty() ? "" : ", ") + std::string(f.name);
        if (f.name == fidelity_) options.fidelity = f.fidelity;
      }
      if (!options.fidelity)
        throw std::invalid_argument(fmt::format("--fidelity: expected one of {}, found '{}'", names, fidelity_));
    }
    if (top_ == 0) throw std::invalid_argument("--top: expected at least 1, found 0");
    const SearchProgress progress = [&](const std::string& line) {
      if (printer && !quiet_) std::cerr << "search: " << line << '\n';
    };
    if (!cluster_space_.empty()) {
      if (!output_.empty())
        throw std::invalid_argument("--output: not with --cluster-space (a journal holds one cluster's search)");
      const auto clusters = run_cluster_search(comm, config_, overrides_, search::parse_cluster_space(cluster_space_),
                                               options, progress);
      if (!printer) return kExitOk;
      std::cout << io::scenario_header(scenario, fmt::format("cluster search over {} clusters, each its best layout",
                                                              clusters.size()));
      std::cout << fmt::format("ranked by {}; front: on the Pareto front of the time to train (the goodput time under "
                               "goodput_time) against cost (carbon)\n",
                               search::objective_name(options.objective));
      std::cout << cluster_table(clusters, options.objective == search::Objective::goodput_time);
      if (json_) std::cout << cluster_json(clusters, options).dump() << '\n';
      return kExitOk;
    }
    result = run_search(comm, scenario, options, progress);
  } catch (const io::ConfigError& e) {
    if (printer) std::cerr << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    // An option's error names the option; a scenario's gets the file and line of its key.
    const std::string what = e.what();
    if (printer) std::cerr << (what.rfind("--", 0) == 0 ? what : locate_error(scenario, what)) << '\n';
    return kExitBadInput;
  } catch (...) {
    const RunFailure failure = run_failure(scenario);
    if (printer) std::cerr << "search: " << failure.message << '\n';
    return failure.exit_code;
  }
  if (!printer) return kExitOk;
  const std::uint64_t devices = scenario.cluster.devices();
  std::cout << io::scenario_header(scenario, fmt::format("layout search for {} devices of {}", io::with_commas(devices),
                                                          scenario.cluster.accelerator.name));
  std::cout << fmt::format("space     {}\n", search::describe(result.space));
  std::string pruned;
  for (const auto& [rule, n] : result.pruned) pruned += fmt::format("{}{} {}", pruned.empty() ? "" : ", ", rule, io::with_commas(n));
  std::cout << fmt::format("layouts   {} examined, {} pruned ({}), {} estimated, {} skipped by their floor, {} "
                           "simulated\n",
                           io::with_commas(result.layouts),
                           io::with_commas(result.layouts - result.ranked.size() - result.skipped),
                           pruned.empty() ? "none" : pruned, io::with_commas(result.ranked.size()),
                           io::with_commas(result.skipped), result.simulated);
  if (result.spearman)
    std::cout << fmt::format("estimate  Spearman rank correlation with the simulated finalists: {:.3f}\n", *result.spearman);
  std::cout << fmt::format("ranked by {} ({})\n", search::objective_name(options.objective),
                           scenario.tco.inputs.token_budget > 0
                               ? fmt::format("time to train {} tokens", io::significant(static_cast<double>(
                                                                            scenario.tco.inputs.token_budget)))
                               : std::string("no tco.token_budget: one iteration"));
  std::cout << ranked_table(result, top_, devices, scenario.cluster.accelerator.memory_bytes,
                            options.objective == search::Objective::goodput_time);
  if (json_) std::cout << result_json(result, options, top_, devices).dump() << '\n';
  return kExitOk;
}

}  // namespace rackscale::app

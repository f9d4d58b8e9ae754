#include "app/partition_command.hpp"

#include <iostream>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "app/rank_zero.hpp"
#include "app/scenario_errors.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/text_table.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/partition_report.hpp"
#include "models/network/rack_graph.hpp"
#include "models/scenario.hpp"
#include "partition/partitioner.hpp"

namespace rackscale::app {
namespace {

constexpr const char* kPrefix = "rackscale partition: ";

std::string bandwidth(double bytes_per_second) { return io::with_prefix(bytes_per_second, io::Prefixes::si, "B/s"); }

}  // namespace

PartitionCommand::PartitionCommand(CLI::App& parent)
    : command_(parent.add_subcommand(
          "partition", "Place a scenario's racks on ranks and report balance, cut and lookahead (no simulation)")) {
  command_->add_option("config", config_, "Scenario config (YAML)")->required();
  command_->add_option("--ranks", ranks_, "Number of ranks to place the racks on")
      ->required()
      ->check(CLI::Range(1, 1 << 24));
  command_->add_option("--method", method_,
                       fmt::format("Partitioner: {} (default: the scenario's simulation.partition)",
                                   fmt::join(partition::partitioner_names(), ", ")))
      ->check(CLI::IsMember(partition::partitioner_names()));
  command_->add_option("--set", overrides_, "Override a config value: --set key.path=value (repeatable)")
      ->allow_extra_args(false);
  command_->add_flag("--json", json_, "Also print the results as one JSON object on the last line");
}

int PartitionCommand::execute(const boost::mpi::communicator& comm) {
  // Placing racks is cheap and must not depend on the rank count the command is started with.
  return run_on_rank_zero(comm, kPrefix, [this] { return run(); });
}

int PartitionCommand::run() const {
  models::Scenario scenario;
  try {
    scenario = io::load_scenario(config_, overrides_);
  } catch (const io::ConfigError& e) {
    std::cerr << kPrefix << e.what() << '\n';
    return kExitBadInput;
  }
  models::network::Topology topology;
  try {
    topology = models::network::build_topology(scenario.cluster, scenario.network.routing);
  } catch (const std::invalid_argument& e) {
    std::cerr << kPrefix << locate_error(scenario, e.what()) << '\n';
    return kExitBadInput;
  }
  const std::string method = method_.empty() ? scenario.simulation.partition : method_;
  // Placed and reported as a run of this fidelity places them, so the placement shown is the run's.
  const models::network::Fidelity fidelity = scenario.network.fidelity;
  std::vector<std::int32_t> rack_rank;
  try {
    rack_rank = models::network::partition_racks(topology, method, ranks_, fidelity);
  } catch (const std::invalid_argument& e) {
    // Only an unknown method from the config gets here (--method is checked when parsed).
    std::cerr << kPrefix << scenario.locate("simulation.partition") << e.what() << '\n';
    return kExitBadInput;
  }
  const auto report = models::network::partition_report(topology, method, rack_rank, ranks_, fidelity);

  std::cout << fmt::format("{}: {}\n", scenario.name.empty() ? config_ : scenario.name, topology.description);
  std::cout << fmt::format("{} devices, {} switches, {} racks, {} cables; {} rank{}, {} partitioning\n\n",
                           io::with_commas(topology.device_count()), io::with_commas(topology.switch_count()),
                           io::with_commas(topology.racks.size()), io::with_commas(topology.link_count()),
                           ranks_, ranks_ == 1 ? "" : "s", method);
  using A = io::TextTable::Align;
  io::TextTable per_rank({"rank", "racks", "LPs", "devices", "switches", "cut cables", "cut bandwidth"},
                         {A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  for (std::size_t r = 0; r < report.per_rank.size(); ++r) {
    const auto& load = report.per_rank[r];
    per_rank.add_row({std::to_string(r), io::with_commas(load.racks), io::with_commas(load.lps),
                      io::with_commas(load.devices), io::with_commas(load.switches), io::with_commas(load.cut_cables),
                      bandwidth(load.cut_bandwidth)});
  }
  std::cout << per_rank.render() << '\n';
  io::TextTable summary({"figure", "value"}, {A::left, A::right});
  summary.add_row({models::network::rack_weight_for(fidelity) == models::network::RackWeight::every_node
                       ? "imbalance (max / mean LPs)"
                       : "imbalance (max / mean LPs but scale-out switches)",
                   io::significant(report.imbalance)});
  summary.add_row({"cross-rank cables", io::with_commas(report.cross_rank_cables)});
  summary.add_row({"cut bandwidth (one direction)", bandwidth(report.cut_bandwidth)});
  summary.add_row({"lookahead", io::format_picoseconds(report.lookahead)});
  std::cout << summary.render();
  if (static_cast<std::size_t>(ranks_) > topology.racks.size())
    std::cout << fmt::format("note: {} ranks but only {} racks: {} ranks get nothing to simulate\n", ranks_,
                             topology.racks.size(), static_cast<std::size_t>(ranks_) - topology.racks.size());

  if (json_) {
    nlohmann::ordered_json j;
    j["config"] = config_;
    j["scenario"] = scenario.name;
    j["topology"] = topology.description;
    j["devices"] = topology.device_count();
    j["switches"] = topology.switch_count();
    j["racks"] = topology.racks.size();
    j["cables"] = topology.link_count();
    j["ranks"] = ranks_;
    j["method"] = method;
    j["imbalance"] = report.imbalance;
    j["cross_rank_cables"] = report.cross_rank_cables;
    j["cut_bandwidth_Bps"] = report.cut_bandwidth;
    // null when nothing crosses ranks (one rank): there is no lookahead to speak of.
    j["lookahead_ps"] = report.lookahead == pdes::kNever ? nlohmann::ordered_json(nullptr)
                                                         : nlohmann::ordered_json(report.lookahead);
    nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < report.per_rank.size(); ++r) {
      const auto& load = report.per_rank[r];
      ranks.push_back({{"rank", r},
                       {"racks", load.racks},
                       {"lps", load.lps},
                       {"devices", load.devices},
                       {"switches", load.switches},
                       {"cut_cables", load.cut_cables},
                       {"cut_bandwidth_Bps", load.cut_bandwidth}});
    }
    j["per_rank"] = std::move(ranks);
    std::cout << j.dump() << '\n';
  }
  return kExitOk;
}

}  // namespace rackscale::app

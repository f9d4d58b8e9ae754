#include "app/validate_command.hpp"

#include <iostream>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "app/memory_estimate.hpp"
#include "app/memory_limit.hpp"
#include "app/scenario_errors.hpp"
#include "io/bom_figures.hpp"
#include "io/config/config_error.hpp"
#include "io/config/scenario_loader.hpp"
#include "io/scenario_header.hpp"
#include "io/text_table.hpp"
#include "models/network/build_topology.hpp"
#include "models/network/degraded_links.hpp"
#include "models/network/cabling.hpp"
#include "models/tco/bill_of_materials.hpp"

namespace rackscale::app {
namespace {

namespace net = models::network;

struct RackCounts {
  std::size_t compute = 0;
  std::size_t network = 0;
};

RackCounts count_racks(const net::Topology& topology) {
  RackCounts c;
  for (const auto& rack : topology.racks) (rack.kind == net::RackKind::compute ? c.compute : c.network) += 1;
  return c;
}

}  // namespace

ValidateCommand::ValidateCommand(CLI::App& parent)
    : command_(parent.add_subcommand("validate", "Check a scenario config and build its topology without simulating")) {
  command_->add_option("config", config_, "Scenario file (YAML; see docs/config.md)")->required();
  command_->add_option("--set", overrides_, "Override a config value: --set cluster.nodes=32 (repeatable)");
  command_->add_flag("--json", json_, "Also print the summary as one JSON object on the last line");
  command_->add_flag("--bom", bom_,
                     "Also print the network's bill of materials: NICs, switches and cables by tier, their price and power");
  command_->add_flag("--resolved", resolved_, "Also print the config after presets and overrides (YAML)");
  command_->add_option("--ranks", ranks_, "Estimate the memory of a run on this many ranks (default: the ranks validate runs on)")
      ->check(CLI::Range(1, 1 << 24));
}

int ValidateCommand::execute(const boost::mpi::communicator& comm) {
  // Every rank loads (they all will for a run, so this checks the same thing); rank 0 speaks.
  const bool printer = comm.rank() == 0;
  models::Scenario scenario;
  net::Topology topology;
  MemoryEstimate memory;
  try {
    scenario = io::load_scenario(config_, overrides_);
    memory = estimate_memory(scenario, ranks_ > 0 ? ranks_ : comm.size());
    topology = net::build_topology(scenario.cluster, scenario.network.routing);
    // A cable down that leaves a pair without a route is bad input, found here as a run would.
    net::degrade_links(topology, scenario.cluster.degraded_links);
  } catch (const io::ConfigError& e) {
    // The loader's message is already "file:line:column: key: ..."; print it bare so editors can jump to it.
    if (printer) std::cerr << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    if (printer) std::cerr << locate_error(scenario, e.what()) << '\n';
    return kExitBadInput;
  }
  if (!printer) return kExitOk;

  const auto& cluster = scenario.cluster;
  const RackCounts racks = count_racks(topology);
  // Label and value lines rather than a table: the topology description is one long line.
  const auto line = [](std::string_view label, const std::string& value) {
    std::cout << fmt::format("  {:<10}{}\n", label, value);
  };
  std::cout << io::scenario_header(scenario, fmt::format("{} devices of {}", io::with_commas(topology.device_count()),
                                                          cluster.accelerator.name));
  line("devices", fmt::format("{} ({} nodes x {} {})", io::with_commas(topology.device_count()),
                              io::with_commas(cluster.nodes), cluster.devices_per_node, cluster.accelerator.name));
  line("racks", fmt::format("{} ({} compute, {} network)", io::with_commas(topology.racks.size()),
                            io::with_commas(racks.compute), io::with_commas(racks.network)));
  line("switches", io::with_commas(topology.switch_count()));
  line("links", io::with_commas(topology.link_count()));
  line("topology", topology.description);
  line("memory", fmt::format("{} estimated", describe_estimate(memory)));
  const std::optional<MemoryLimit> limit = find_memory_limit(0);
  if (limit) line("", fmt::format("limit {} per node ({})", io::format_bytes(static_cast<double>(limit->bytes)), limit->source));
  std::optional<models::tco::BillOfMaterials> bom;
  if (bom_) {
    bom = models::tco::bill_of_materials(topology, cluster, net::plan_cabling(topology, cluster),
                                         scenario.tco.inputs.prices);
    std::cout << '\n' << io::bom_text(*bom) << '\n';
  }
  std::cout << "valid (nothing was simulated)\n";
  if (resolved_) std::cout << "\n# resolved config\n" << scenario.resolved_yaml;

  if (json_) {
    nlohmann::ordered_json j;
    j["valid"] = true;
    j["name"] = scenario.name;
    j["workload"] = scenario.workload.kind == models::WorkloadKind::training     ? "training"
                    : scenario.workload.kind == models::WorkloadKind::collective ? "collective"
                    : scenario.workload.kind == models::WorkloadKind::trace      ? "trace"
                                                                                   : "traffic";
    j["config"] = scenario.source_file;
    j["devices"] = topology.device_count();
    j["nodes"] = cluster.nodes;
    j["devices_per_node"] = cluster.devices_per_node;
    j["accelerator"] = cluster.accelerator.name;
    j["racks"] = topology.racks.size();
    j["compute_racks"] = racks.compute;
    j["network_racks"] = racks.network;
    j["switches"] = topology.switch_count();
    j["links"] = topology.link_count();
    j["topology"] = topology.description;
    nlohmann::ordered_json m;
    m["ranks"] = memory.ranks;
    m["per_rank_bytes"] = memory.per_rank;
    m["local_devices"] = memory.local_devices;
    for (const auto& part : memory.parts) m["parts"].push_back({{"what", part.what}, {"bytes", part.bytes}});
    if (limit) m["limit"] = {{"bytes", limit->bytes}, {"source", limit->source}};
    j["memory_estimate"] = m;
    if (bom) j["bom"] = io::bom_json(*bom);
    std::cout << j.dump() << '\n';
  }
  return kExitOk;
}

}  // namespace rackscale::app

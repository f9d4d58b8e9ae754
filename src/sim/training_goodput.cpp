#include "sim/training_goodput.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/goodput/checkpoint_costs.hpp"
#include "models/power/power_model.hpp"
#include "models/tco/tco_settings.hpp"
#include "models/workload/memory_model.hpp"
#include "models/workload/model_parameters.hpp"

namespace rackscale::sim {

namespace gp = models::goodput;
namespace wl = models::workload;

std::uint64_t checkpoint_bytes(const models::Scenario& s) {
  if (s.goodput.checkpoint.bytes) return *s.goodput.checkpoint.bytes;
  if (s.workload.kind != models::WorkloadKind::training)
    throw std::invalid_argument("goodput.checkpoint.size: expected a size when the workload is not training, found auto");
  return wl::total_parameters(s.workload.training.model) * (wl::kWeightBytesPerParameter + wl::kOptimizerBytesPerParameter);
}

std::uint64_t job_nodes(const models::Scenario& s, std::uint64_t devices) {
  const std::uint64_t per_node = std::max<std::uint64_t>(1, s.cluster.devices_per_node);
  return (devices + per_node - 1) / per_node;
}

gp::ExpectedRunModel expected_run_model(const models::Scenario& s, std::uint64_t devices) {
  return gp::expected_run_model(
      s.goodput, {static_cast<double>(devices), static_cast<double>(job_nodes(s, devices))}, checkpoint_bytes(s));
}

std::optional<wl::TrainingGoodput> training_goodput(const models::Scenario& s, const wl::TrainingReport& report,
                                                    const models::tco::RunMeasures& measures,
                                                    const models::tco::HardwareInventory& inventory,
                                                    const models::power::ClusterPower& power) {
  if (!s.goodput.enabled || !report.tco || report.iteration_time == 0) return std::nullopt;
  const gp::ExpectedRunModel model = expected_run_model(s, report.devices);
  wl::TrainingGoodput g;
  g.nodes = job_nodes(s, report.devices);
  g.checkpoint_bytes = checkpoint_bytes(s);
  const gp::CheckpointCosts costs = gp::checkpoint_costs(s.goodput, g.nodes, g.checkpoint_bytes);
  g.storage_Bps = costs.storage_Bps;
  g.write_s = costs.write_s;
  g.stall_s = costs.stall_s;
  g.restart_s = costs.restart_s;
  g.mtbf_s = model.mtbf_s();
  g.young_daly_s = model.young_daly_s();
  g.optimal_interval_s = model.optimal_interval_s();
  g.run = model.expected(pdes::to_seconds(report.iteration_time), report.tco->iterations);
  g.configured_interval_s = g.run.interval_s;

  // The same run stretched to the expected time: the iterations, redone work and checkpoints at the
  // simulated power (per second of the ideal run), recoveries with the accelerators and hosts idle, the
  // network as simulated throughout. Capex, maintenance and embodied carbon follow the longer time.
  const double ideal = g.run.work_s, effective = g.run.time_s, down = g.run.down_s;
  const auto iterations = static_cast<double>(report.tco->iterations);
  models::tco::RunMeasures m = measures;
  m.iteration_time = static_cast<pdes::SimTime>(std::llround(static_cast<double>(measures.iteration_time) * effective / ideal));
  const models::tco::EnergyByClass& e = measures.it_joules_per_iteration;
  models::tco::EnergyByClass& f = m.it_joules_per_iteration;
  const double running = (effective - down) / ideal, stretched = effective / ideal;
  f.accelerators = e.accelerators * running + static_cast<double>(inventory.counts.accelerators) *
                                                  models::power::power_watts(power.accelerator, 0.0) * down / iterations;
  f.hosts = e.hosts * running +
            static_cast<double>(inventory.counts.hosts) * models::power::power_watts(power.host, 0.0) * down / iterations;
  f.nics = e.nics * stretched;
  f.switches = e.switches * stretched;
  f.optics = e.optics * stretched;
  f.other = e.other * stretched;
  g.effective_tco = models::tco::compute_tco(s.tco, inventory, m, s.cluster.accelerator.name);
  return g;
}

}  // namespace rackscale::sim

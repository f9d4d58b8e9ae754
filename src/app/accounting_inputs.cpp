#include "app/accounting_inputs.hpp"

#include "models/network/build_topology.hpp"
#include "models/network/cabling.hpp"

namespace rackscale::app {

AccountingInputs accounting_inputs(const models::Scenario& scenario, const models::tco::TcoSettings& settings) {
  namespace net = models::network;
  const net::Topology topology = net::build_topology(scenario.cluster, scenario.network.routing);
  AccountingInputs in;
  in.power = models::power::cluster_power(scenario.cluster, settings.host_idle_watts, settings.host_active_watts,
                                          settings.memory_bound_activity);
  in.inventory = models::tco::inventory_of(topology, scenario.cluster, net::plan_cabling(topology, scenario.cluster),
                                           in.power, settings.inputs.prices);
  return in;
}

}  // namespace rackscale::app

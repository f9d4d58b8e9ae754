#include "io/traffic_figures.hpp"

#include <string>
#include <vector>

namespace rackscale::io {

namespace traffic = models::traffic;

namespace {
std::vector<std::string> link_class_names() {
  std::vector<std::string> names;
  for (int c = 0; c <= static_cast<int>(models::network::LinkClass::torus); ++c)
    names.emplace_back(traffic::link_class_name(static_cast<models::network::LinkClass>(c)));
  return names;
}
}  // namespace

Figures traffic_figures(const traffic::TrafficReport& r) {
  return {{"messages_planned", r.messages_planned},
          {"messages_delivered", r.messages_delivered},
          {"bytes_delivered", r.bytes_delivered},
          {"makespan_ps", r.makespan},
          {"aggregate_throughput_Bps", r.aggregate_throughput},
          {"injection_bandwidth_Bps", r.injection_bandwidth},
          {"line_rate_fraction", r.line_rate_fraction},
          {"completion_min_ps", r.completion_min},
          {"completion_mean_ps", r.completion_mean},
          {"completion_p50_ps", r.completion_p50},
          {"completion_p99_ps", r.completion_p99},
          {"completion_max_ps", r.completion_max},
          {"completion_sum_ps", r.completion_sum}};
}

Table link_class_table(const traffic::TrafficReport& r) {
  Enumeration link_class{{}, link_class_names()};
  std::vector<std::uint64_t> ports, bytes, wait;
  std::vector<double> mean, max;
  for (const auto& c : r.by_link_class) {
    link_class.values.push_back(static_cast<std::uint8_t>(c.link_class));
    ports.push_back(c.ports);
    bytes.push_back(c.bytes);
    mean.push_back(c.mean_utilization);
    max.push_back(c.max_utilization);
    wait.push_back(c.max_wait);
  }
  return {{"link_class", "", "the class of the ports", std::move(link_class)},
          {"ports", "ports", "ports of the class", std::move(ports)},
          {"bytes", "bytes", "bytes sent through them", std::move(bytes)},
          {"mean_utilization", "1", "their utilization, averaged", std::move(mean)},
          {"max_utilization", "1", "the busiest one's utilization", std::move(max)},
          {"queueing_max_ps", "ps", "the longest queueing delay of one chunk at one of them", std::move(wait)}};
}

Table busiest_port_table(const traffic::TrafficReport& r) {
  Enumeration link_class{{}, link_class_names()};
  std::vector<std::uint64_t> port, from, to, bytes, wait;
  std::vector<double> utilization;
  for (const auto& p : r.busiest) {
    port.push_back(p.port);
    from.push_back(p.from);
    to.push_back(p.to);
    link_class.values.push_back(static_cast<std::uint8_t>(p.link_class));
    bytes.push_back(p.bytes);
    utilization.push_back(p.utilization);
    wait.push_back(p.max_wait);
  }
  return {{"port", "", "port id (row of /links)", std::move(port)},
          {"from_node", "", "the node the port sends from", std::move(from)},
          {"to_node", "", "the node at the other end", std::move(to)},
          {"link_class", "", "the class of the port", std::move(link_class)},
          {"bytes", "bytes", "bytes sent through the port", std::move(bytes)},
          {"utilization", "1", "busy time over the makespan", std::move(utilization)},
          {"queueing_max_ps", "ps", "the longest queueing delay of one chunk", std::move(wait)}};
}

}  // namespace rackscale::io

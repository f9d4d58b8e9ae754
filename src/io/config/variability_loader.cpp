#include "io/config/variability_loader.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "io/config/units.hpp"
#include "models/network/build_topology.hpp"

namespace rackscale::io {
namespace {

namespace acc = models::accelerator;

double read_sigma(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); }

void read_compute(const ConfigNode& node, const std::string& path, std::uint64_t devices, acc::VariabilitySpec& v,
                  KeyLocations* locations) {
  const MapReader r(node, path, {"distribution", "sigma", "slow"}, locations);
  v.speed = r.optional("distribution", v.speed, [](const ConfigNode& n, const std::string& p) {
    return read_enum<acc::SpeedDistribution>(
        n, p, {{"none", acc::SpeedDistribution::none}, {"lognormal", acc::SpeedDistribution::lognormal}});
  });
  if (v.speed == acc::SpeedDistribution::none) r.forbid("sigma", "only allowed with distribution: lognormal");
  else v.speed_sigma = r.required("sigma", read_sigma);
  const ConfigNode* slow = r.find("slow");
  if (slow == nullptr) return;
  const std::string slow_path = r.path_of("slow");
  if (!slow->is_sequence())
    fail(*slow, slow_path, "expected a sequence of {device, factor}, found " + describe_found(*slow));
  for (std::size_t i = 0; i < slow->items.size(); ++i) {
    const std::string item = fmt::format("{}[{}]", slow_path, i);
    const MapReader s(slow->items[i], item, {"device", "factor"}, locations);
    acc::SlowDevice d;
    d.device = s.required("device", [&](const ConfigNode& n, const std::string& p) {
      const std::uint64_t id = read_integer(n, p);
      if (id >= devices)
        fail(n, p, fmt::format("expected a device below {} (the cluster's devices), found {}", devices, id));
      return static_cast<std::uint32_t>(id);
    });
    d.factor = s.required("factor", [](const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0, true); });
    v.slow.push_back(d);
  }
}

void read_jitter(const ConfigNode& node, const std::string& path, acc::VariabilitySpec& v, KeyLocations* locations) {
  const MapReader r(node, path, {"distribution", "mean", "sigma"}, locations);
  v.jitter = r.required("distribution", [](const ConfigNode& n, const std::string& p) {
    return read_enum<acc::JitterDistribution>(n, p,
                                              {{"none", acc::JitterDistribution::none},
                                               {"exponential", acc::JitterDistribution::exponential},
                                               {"lognormal", acc::JitterDistribution::lognormal}});
  });
  if (v.jitter == acc::JitterDistribution::none) {
    r.forbid("mean", "only allowed with distribution: exponential or lognormal");
    r.forbid("sigma", "only allowed with distribution: lognormal");
    return;
  }
  v.jitter_mean = r.required("mean", read_duration);
  if (v.jitter != acc::JitterDistribution::lognormal) r.forbid("sigma", "only allowed with distribution: lognormal");
  else v.jitter_sigma = r.optional("sigma", v.jitter_sigma, read_sigma);
}

}  // namespace

acc::VariabilitySpec read_variability(const ConfigNode& node, const std::string& path, std::uint64_t devices,
                                      KeyLocations* locations) {
  const MapReader r(node, path, {"compute", "jitter", "perfect_baseline"}, locations);
  acc::VariabilitySpec v;
  if (const ConfigNode* n = r.find("compute")) read_compute(*n, r.path_of("compute"), devices, v, locations);
  if (const ConfigNode* n = r.find("jitter")) read_jitter(*n, r.path_of("jitter"), v, locations);
  v.perfect_baseline = r.optional("perfect_baseline", v.perfect_baseline, [](const ConfigNode& n, const std::string& p) {
    return read_enum<bool>(n, p, {{"true", true}, {"false", false}});
  });
  return v;
}

std::vector<models::network::DegradedLink> read_degraded_links(const ConfigNode& node, const std::string& path,
                                                               const models::network::ClusterSpec& cluster,
                                                               KeyLocations* locations) {
  if (!node.is_sequence()) fail(node, path, "expected a sequence of {link, fraction}, found " + describe_found(node));
  // The ports the topology will have; a cluster the builder refuses is reported by the builder.
  std::uint64_t ports = 0;
  try {
    ports = models::network::count_topology(cluster).ports;
  } catch (const std::invalid_argument&) {
    ports = UINT64_MAX;
  }
  std::vector<models::network::DegradedLink> links;
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    const std::string item = fmt::format("{}[{}]", path, i);
    const MapReader r(node.items[i], item, {"link", "fraction"}, locations);
    models::network::DegradedLink link;
    link.port = r.required("link", [&](const ConfigNode& n, const std::string& p) {
      const std::uint64_t id = read_integer(n, p);
      if (id >= ports)
        fail(n, p, fmt::format("expected a port id below {} (the topology's ports, /links in the results file), "
                               "found {}",
                               ports, id));
      return static_cast<std::uint32_t>(id);
    });
    link.fraction = r.required("fraction", [](const ConfigNode& n, const std::string& p) {
      // 0: the cable is down, its traffic rerouted where the routing has another route (degraded_links.hpp).
      const double f = read_number(n, p, 0.0);
      if (f > 1) fail(n, p, fmt::format("expected a fraction in [0, 1], found {}", n.scalar));
      return f;
    });
    links.push_back(link);
  }
  return links;
}

}  // namespace rackscale::io

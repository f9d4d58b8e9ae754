#include "io/config/goodput_loader.hpp"

#include <string>

#include <fmt/format.h>

#include "io/config/units.hpp"
#include "models/goodput/llama3_failures.hpp"

namespace rackscale::io {
namespace {

namespace gp = models::goodput;

bool read_flag(const ConfigNode& n, const std::string& p) { return read_enum<bool>(n, p, {{"true", true}, {"false", false}}); }

gp::StorageSpec read_storage(const ConfigNode* node, KeyLocations* locations) {
  gp::StorageSpec s;
  if (node == nullptr) return s;
  const MapReader r(*node, "cluster.storage", {"bandwidth", "per_node_bandwidth"}, locations);
  s.bandwidth_Bps = r.optional("bandwidth", s.bandwidth_Bps, read_bandwidth);
  s.per_node_bandwidth_Bps = r.optional("per_node_bandwidth", s.per_node_bandwidth_Bps, read_bandwidth);
  return s;
}

gp::CheckpointSpec read_checkpoint(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path, {"interval", "mode", "overlap", "size"}, locations);
  gp::CheckpointSpec c;
  if (const ConfigNode* n = r.find("interval"); n != nullptr && !(n->is_scalar() && n->scalar == "auto")) {
    c.interval = read_duration(*n, r.path_of("interval"));
    if (*c.interval == 0) fail(*n, r.path_of("interval"), "expected auto or a duration > 0, found " + quote_found(n->scalar));
  }
  c.mode = r.optional("mode", c.mode, [](const ConfigNode& n, const std::string& p) {
    return read_enum<gp::CheckpointMode>(
        n, p, {{"synchronous", gp::CheckpointMode::synchronous}, {"asynchronous", gp::CheckpointMode::asynchronous}});
  });
  if (c.mode != gp::CheckpointMode::asynchronous) r.forbid("overlap", "only allowed with mode: asynchronous");
  c.overlap = r.optional("overlap", c.overlap, read_fraction);
  if (const ConfigNode* n = r.find("size"); n != nullptr && !(n->is_scalar() && n->scalar == "auto"))
    c.bytes = read_size(*n, r.path_of("size"), 1);
  return c;
}

gp::FailureClass read_class(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path, {"name", "per", "rate_per_hour", "distribution", "shape", "replaces_node"}, locations);
  gp::FailureClass c;
  c.name = r.required("name", read_string);
  c.per = r.optional("per", c.per, [](const ConfigNode& n, const std::string& p) {
    return read_enum<gp::Component>(
        n, p, {{"device", gp::Component::device}, {"node", gp::Component::node}, {"job", gp::Component::job}});
  });
  c.rate_per_hour = r.required("rate_per_hour", [](const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); });
  const bool weibull = r.optional("distribution", false, [](const ConfigNode& n, const std::string& p) {
    return read_enum<bool>(n, p, {{"exponential", false}, {"weibull", true}});
  });
  if (!weibull) r.forbid("shape", "only allowed with distribution: weibull");
  else c.weibull_shape = r.required("shape", [](const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0, true); });
  c.replaces_node = r.optional("replaces_node", c.replaces_node, read_flag);
  return c;
}

std::vector<gp::FailureClass> read_failures(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  if (node.is_scalar()) {
    (void)read_choice(node, path, {"llama3"});
    return gp::llama3_failure_classes();
  }
  if (!node.is_sequence())
    fail(node, path, "expected llama3 or a sequence of classes {name, per, rate_per_hour, ...}, found " + describe_found(node));
  std::vector<gp::FailureClass> classes;
  for (std::size_t i = 0; i < node.items.size(); ++i) {
    const std::string item = fmt::format("{}[{}]", path, i);
    classes.push_back(read_class(node.items[i], item, locations));
    for (std::size_t j = 0; j < i; ++j)
      if (classes[j].name == classes[i].name)
        fail(node.items[i], item + ".name", fmt::format("expected a name not used before, found '{}' again", classes[i].name));
  }
  return classes;
}

}  // namespace

gp::GoodputSpec read_goodput(const ConfigNode* goodput, const ConfigNode* storage, KeyLocations* locations) {
  gp::GoodputSpec g;
  g.failures = gp::llama3_failure_classes();
  g.storage = read_storage(storage, locations);
  if (goodput == nullptr) return g;
  const MapReader r(*goodput, "goodput",
                    {"enabled", "failures", "detection", "relaunch", "hot_swap", "repair", "spares", "checkpoint"},
                    locations);
  g.enabled = r.optional("enabled", g.enabled, read_flag);
  if (const ConfigNode* n = r.find("failures")) g.failures = read_failures(*n, r.path_of("failures"), locations);
  g.detection = r.optional("detection", g.detection, read_duration);
  g.relaunch = r.optional("relaunch", g.relaunch, read_duration);
  g.hot_swap = r.optional("hot_swap", g.hot_swap, read_duration);
  g.repair = r.optional("repair", g.repair, read_duration);
  if (const ConfigNode* n = r.find("spares"); n != nullptr && !(n->is_scalar() && n->scalar == "auto"))
    g.spares = read_u32(*n, r.path_of("spares"), 0);
  if (const ConfigNode* n = r.find("checkpoint")) g.checkpoint = read_checkpoint(*n, r.path_of("checkpoint"), locations);
  return g;
}

}  // namespace rackscale::io

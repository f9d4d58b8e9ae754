#include "io/config/presets.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "io/config/did_you_mean.hpp"
#include "io/config/units.hpp"

#ifndef RACKSCALE_PRESETS_DIR
#error "RACKSCALE_PRESETS_DIR must name the default presets directory (set in src/io/CMakeLists.txt)"
#endif

namespace rackscale::io {
namespace {

std::string kind_label(PresetKind kind) {
  switch (kind) {
    case PresetKind::accelerator:
      return "accelerator";
    case PresetKind::nic:
      return "NIC";
    case PresetKind::switch_spec:
      return "switch";
    case PresetKind::optics:
      return "optics";
  }
  return "hardware";
}

std::string kind_noun(PresetKind kind) {
  return (kind == PresetKind::accelerator || kind == PresetKind::optics ? "an " : "a ") + kind_label(kind) + " preset";
}

// Preset names are file names; anything that could climb out of the directory is not a name.
bool plausible_name(const std::string& name) {
  if (name.empty() || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.';
  });
}

// The preset file's tree, or a ConfigError at `name_node` when there is no such preset.
ConfigNode load_preset_tree(const ConfigNode& name_node, const std::string& name, PresetKind kind,
                            const std::string& path, const std::string& directory) {
  const std::filesystem::path file = std::filesystem::path(directory) / preset_subdirectory(kind) / (name + ".yaml");
  std::error_code ec;
  if (!plausible_name(name) || !std::filesystem::is_regular_file(file, ec)) {
    const auto names = preset_names(kind, directory);
    std::string message;
    if (names.empty()) {
      message = fmt::format(
          "expected {}, found {}; there are none in {} (set RACKSCALE_PRESETS to the presets directory)",
          kind_noun(kind), quote_found(name), (std::filesystem::path(directory) / preset_subdirectory(kind)).string());
    } else {
      message = fmt::format("expected {} (one of {}), found {}", kind_noun(kind), join(names), quote_found(name));
      if (const auto guess = closest_match(name, names)) message += "; did you mean '" + *guess + "'?";
    }
    fail(name_node, path, message);
  }
  ConfigNode tree = parse_yaml_file(file.string());
  if (!tree.is_mapping())
    fail(tree, path,
         "expected a mapping of " + kind_label(kind) + " fields in the preset file, found " + describe_found(tree));
  return tree;
}

}  // namespace

std::string presets_directory() {
  if (const char* env = std::getenv("RACKSCALE_PRESETS"); env != nullptr && *env != '\0') return env;
  return RACKSCALE_PRESETS_DIR;
}

std::string preset_subdirectory(PresetKind kind) {
  switch (kind) {
    case PresetKind::accelerator:
      return "accelerators";
    case PresetKind::nic:
      return "nics";
    case PresetKind::switch_spec:
      return "switches";
    case PresetKind::optics:
      return "optics";
  }
  return "";
}

std::vector<std::string> preset_names(PresetKind kind, const std::string& directory) {
  std::vector<std::string> names;
  std::error_code ec;
  const auto dir = std::filesystem::path(directory) / preset_subdirectory(kind);
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".yaml" && it->is_regular_file(ec)) names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

void resolve_preset(ConfigNode& field, PresetKind kind, const std::string& path, const std::string& directory) {
  if (field.is_scalar()) {
    field = load_preset_tree(field, field.scalar, kind, path, directory);
    return;
  }
  if (!field.is_mapping()) fail(field, path, "expected a preset name or a mapping, found " + describe_found(field));
  const ConfigEntry* preset = field.find("preset");
  if (preset == nullptr) return;  // a full mapping, read as written
  if (!preset->value.is_scalar())
    fail(preset->value, join_path(path, "preset"), "expected a preset name, found " + describe_found(preset->value));
  ConfigNode merged = load_preset_tree(preset->value, preset->value.scalar, kind, join_path(path, "preset"), directory);
  std::vector<std::string> changed;
  for (const auto& entry : field.entries) {
    if (entry.key == "preset") continue;
    if (entry.key != "name" && entry.key != "source") changed.push_back(entry.key);
    if (ConfigEntry* existing = merged.find(entry.key))
      *existing = entry;
    else
      merged.entries.push_back(entry);
  }
  // The figures no longer all come from the preset's sources; say which ones the scenario changed.
  if (ConfigEntry* source = merged.find("source");
      source != nullptr && source->value.is_scalar() && !changed.empty() && field.find("source") == nullptr)
    source->value.scalar += " Changed by the scenario: " + join(changed) + ".";
  field = std::move(merged);
}

namespace {

// The power read for an idle figure, which cannot exceed the active one.
double read_idle_power(const MapReader& r, const std::string& key, double active, const std::string& active_key) {
  const double idle = r.required(key, read_power);
  if (idle > active)
    fail(r.require(key), r.path_of(key),
         fmt::format("expected a power <= {} ({}W), found {}", active_key, active, quote_found(r.require(key).scalar)));
  return idle;
}

std::string optional_string(const MapReader& r, const std::string& key, const std::string& fallback) {
  return r.optional(key, fallback, read_string);
}

// Prices are plain numbers of USD: the unit grammar has no currency.
double read_price(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); }
double read_non_negative(const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); }

// The bill-of-materials fields that NIC and switch presets share: price and chip, all optional.
template <class Spec>
void read_bill_fields(const MapReader& r, Spec& spec) {
  spec.price_usd = r.optional("price", 0.0, read_price);
  spec.die_area_mm2 = r.optional("die_area_mm2", 0.0, read_non_negative);
  spec.process_nm = r.optional("process_nm", 0.0, read_non_negative);
}

}  // namespace

models::AcceleratorSpec read_accelerator(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "peak_bf16_flops", "peak_fp8_flops", "memory", "memory_bandwidth", "tdp", "idle_power",
                     "process_nm", "die_area_mm2", "matmul_efficiency", "matmul_half_dimension", "vector_efficiency",
                     "memory_efficiency", "kernel_overhead", "nvlink_multicast", "source"},
                    locations);
  models::AcceleratorSpec a;
  a.name = optional_string(r, "name", "custom");
  a.peak_bf16_flops = r.required("peak_bf16_flops", read_flop_rate);
  // 0 says "no FP8 support".
  a.peak_fp8_flops = r.optional("peak_fp8_flops", 0.0, read_flop_rate_or_zero);
  a.memory_bytes = r.required("memory", [](const ConfigNode& n, const std::string& p) { return read_size(n, p, 1); });
  a.memory_bandwidth = r.required("memory_bandwidth", read_bandwidth);
  a.tdp_watts = r.required("tdp", read_power);
  if (a.tdp_watts <= 0)
    fail(r.require("tdp"), r.path_of("tdp"), "expected a power > 0, found " + quote_found(r.require("tdp").scalar));
  a.idle_watts = read_idle_power(r, "idle_power", a.tdp_watts, "tdp");
  const auto non_negative = [](const ConfigNode& n, const std::string& p) { return read_number(n, p, 0.0); };
  a.process_nm = r.optional("process_nm", 0.0, non_negative);
  a.die_area_mm2 = r.optional("die_area_mm2", 0.0, non_negative);
  const auto fraction = read_fraction;
  a.matmul_efficiency = r.optional("matmul_efficiency", a.matmul_efficiency, fraction);
  a.matmul_half_dimension = r.optional("matmul_half_dimension", a.matmul_half_dimension, non_negative);
  a.vector_efficiency = r.optional("vector_efficiency", a.vector_efficiency, fraction);
  a.memory_efficiency = r.optional("memory_efficiency", a.memory_efficiency, fraction);
  a.kernel_overhead = r.optional("kernel_overhead", a.kernel_overhead, read_duration);
  a.nvlink_multicast = r.optional("nvlink_multicast", a.nvlink_multicast, [](const ConfigNode& n, const std::string& p) {
    return read_enum<bool>(n, p, {{"true", true}, {"false", false}});
  });
  a.source = optional_string(r, "source", "");
  return a;
}

models::NicSpec read_nic(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "bandwidth", "latency", "efficiency", "active_power", "idle_power", "price", "die_area_mm2",
                     "process_nm", "source"},
                    locations);
  models::NicSpec n;
  n.name = optional_string(r, "name", "custom");
  n.bandwidth = r.required("bandwidth", read_bandwidth);
  n.latency = r.required("latency", read_duration);
  n.efficiency = r.optional("efficiency", n.efficiency, read_fraction);
  n.active_watts = r.required("active_power", read_power);
  n.idle_watts = read_idle_power(r, "idle_power", n.active_watts, "active_power");
  read_bill_fields(r, n);
  n.source = optional_string(r, "source", "");
  return n;
}

models::SwitchSpec read_switch(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "radix", "port_bandwidth", "latency", "nvls_reduce_bandwidth", "active_power", "idle_power",
                     "port_power", "price", "die_area_mm2", "process_nm", "source"},
                    locations);
  models::SwitchSpec s;
  s.name = optional_string(r, "name", "custom");
  s.radix = r.required("radix", read_count);
  s.port_bandwidth = r.required("port_bandwidth", read_bandwidth);
  s.latency = r.required("latency", read_duration);
  // Absent or 0: no in-switch reduction.
  s.nvls_reduce_bandwidth = r.optional("nvls_reduce_bandwidth", 0.0, [](const ConfigNode& n, const std::string& p) {
    return n.is_scalar() && n.scalar == "0" ? 0.0 : read_bandwidth(n, p);
  });
  // Power by load: idle plus each port's share at its utilization. Either the per-port figure
  // (port_power) or the most the switch draws (active_power), not both.
  if (r.has("active_power") == r.has("port_power"))
    fail(r.has("port_power") ? r.require("port_power") : node, r.has("port_power") ? r.path_of("port_power") : path,
         "expected one of port_power (per port at full load) or active_power (the whole switch at full load)");
  if (r.has("active_power")) {
    s.active_watts = r.required("active_power", read_power);
    s.idle_watts = read_idle_power(r, "idle_power", s.active_watts, "active_power");
    s.port_watts = (s.active_watts - s.idle_watts) / s.radix;
  } else {
    s.idle_watts = r.required("idle_power", read_power);
    s.port_watts = r.required("port_power", read_power);
    s.active_watts = s.idle_watts + s.radix * s.port_watts;
  }
  read_bill_fields(r, s);
  s.source = optional_string(r, "source", "");
  return s;
}

models::OpticsSpec read_optics(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "port_bandwidth", "transceiver_power", "transceiver_price", "fiber_price", "dac_price",
                     "die_area_mm2", "process_nm", "source"},
                    locations);
  models::OpticsSpec o;
  o.name = optional_string(r, "name", "custom");
  o.port_bandwidth = r.required("port_bandwidth", read_bandwidth);
  o.transceiver_watts = r.required("transceiver_power", read_power);
  o.transceiver_usd = r.required("transceiver_price", read_price);
  o.fiber_usd = r.optional("fiber_price", 0.0, read_price);
  o.dac_usd = r.required("dac_price", read_price);
  o.die_area_mm2 = r.optional("die_area_mm2", 0.0, read_non_negative);
  o.process_nm = r.optional("process_nm", 0.0, read_non_negative);
  o.source = optional_string(r, "source", "");
  return o;
}

namespace {

template <class Read>
auto load_named(const std::string& name, PresetKind kind, const std::string& directory, Read read) {
  ConfigNode field;
  field.kind = ConfigNode::Kind::scalar;
  field.scalar = name;
  field.origin.file = "preset '" + name + "'";
  resolve_preset(field, kind, "", directory);
  return read(field, "", nullptr);
}

}  // namespace

models::AcceleratorSpec load_accelerator_preset(const std::string& name, const std::string& directory) {
  return load_named(name, PresetKind::accelerator, directory, read_accelerator);
}
models::NicSpec load_nic_preset(const std::string& name, const std::string& directory) {
  return load_named(name, PresetKind::nic, directory, read_nic);
}
models::SwitchSpec load_switch_preset(const std::string& name, const std::string& directory) {
  return load_named(name, PresetKind::switch_spec, directory, read_switch);
}
models::OpticsSpec load_optics_preset(const std::string& name, const std::string& directory) {
  return load_named(name, PresetKind::optics, directory, read_optics);
}

}  // namespace rackscale::io

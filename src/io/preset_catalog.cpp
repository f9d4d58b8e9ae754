#include "io/preset_catalog.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "io/config/config_error.hpp"
#include "io/config/presets.hpp"
#include "io/config/workload_loader.hpp"
#include "io/config/yaml_reader.hpp"
#include "io/traffic_summary.hpp"
#include "models/workload/model_parameters.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::io {
namespace {

namespace wl = models::workload;

// 3.35e12, "B/s" -> "3.35 TB/s": six significant digits, so a figure reads as its preset wrote it.
std::string si(double value, const char* unit) {
  static constexpr const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  std::size_t i = 0;
  while (value >= 1000.0 && i + 1 < std::size(prefixes)) {
    value /= 1000.0;
    ++i;
  }
  return fmt::format("{:g} {}{}", value, prefixes[i], unit);
}
// Accelerator peaks in TFLOP/s, as datasheets give them, so presets compare at a glance.
std::string tflops(double flops) { return fmt::format("{:g} TFLOP/s", flops / 1e12); }
std::string watts(double w) { return fmt::format("{:g} W", w); }
std::string bits_per_second(double bytes_per_second) { return si(8.0 * bytes_per_second, "b/s"); }
std::string billions(std::uint64_t count) { return fmt::format("{:.1f} B", static_cast<double>(count) / 1e9); }

PresetField field(std::string key, std::string text, std::string json_key, nlohmann::ordered_json json) {
  return {std::move(key), std::move(text), std::move(json_key), std::move(json)};
}
PresetField number(const std::string& key, double value) { return field(key, fmt::format("{:g}", value), key, value); }
PresetField count(const std::string& key, std::uint64_t value) { return field(key, std::to_string(value), key, value); }
PresetField duration(const std::string& key, pdes::SimTime ps) {
  return field(key, pdes::format_time(ps), key + "_ps", ps);
}
PresetField power(const std::string& key, double w) { return field(key, watts(w), key + "_W", w); }

PresetEntry accelerator(const std::string& name, const std::string& directory) {
  const models::AcceleratorSpec a = load_accelerator_preset(name, directory);
  PresetEntry e{"accelerators", name, "", a.source, {}};
  e.summary = fmt::format("{} BF16{}, {:g} GiB at {}, {}", tflops(a.peak_bf16_flops),
                          a.peak_fp8_flops > 0 ? ", " + tflops(a.peak_fp8_flops) + " FP8" : std::string(),
                          static_cast<double>(a.memory_bytes) / double(1ULL << 30), si(a.memory_bandwidth, "B/s"),
                          watts(a.tdp_watts));
  e.fields = {
      field("peak_bf16_flops", tflops(a.peak_bf16_flops), "peak_bf16_flops", a.peak_bf16_flops),
      field("peak_fp8_flops", a.peak_fp8_flops > 0 ? tflops(a.peak_fp8_flops) : "none", "peak_fp8_flops",
            a.peak_fp8_flops),
      field("memory", format_bytes(static_cast<double>(a.memory_bytes)), "memory_bytes", a.memory_bytes),
      field("memory_bandwidth", si(a.memory_bandwidth, "B/s"), "memory_bandwidth_Bps", a.memory_bandwidth),
      power("tdp", a.tdp_watts),
      power("idle_power", a.idle_watts),
      number("process_nm", a.process_nm),
      number("die_area_mm2", a.die_area_mm2),
      number("matmul_efficiency", a.matmul_efficiency),
      number("matmul_half_dimension", a.matmul_half_dimension),
      number("vector_efficiency", a.vector_efficiency),
      number("memory_efficiency", a.memory_efficiency),
      duration("kernel_overhead", a.kernel_overhead),
      field("nvlink_multicast", a.nvlink_multicast ? "true" : "false", "nvlink_multicast", a.nvlink_multicast),
  };
  return e;
}

PresetEntry nic(const std::string& name, const std::string& directory) {
  const models::NicSpec n = load_nic_preset(name, directory);
  PresetEntry e{"nics", name, "", n.source, {}};
  e.summary = fmt::format("{}, {} injection latency, {} active", bits_per_second(n.bandwidth),
                          pdes::format_time(n.latency), watts(n.active_watts));
  e.fields = {
      field("bandwidth", format_bandwidth(n.bandwidth), "bandwidth_Bps", n.bandwidth),
      duration("latency", n.latency),
      number("efficiency", n.efficiency),
      power("active_power", n.active_watts),
      power("idle_power", n.idle_watts),
  };
  return e;
}

PresetEntry switch_preset(const std::string& name, const std::string& directory) {
  const models::SwitchSpec s = load_switch_preset(name, directory);
  PresetEntry e{"switches", name, "", s.source, {}};
  e.summary = fmt::format("{} x {}, {} port to port, {} active", s.radix, bits_per_second(s.port_bandwidth),
                          pdes::format_time(s.latency), watts(s.active_watts));
  e.fields = {
      count("radix", s.radix),
      field("port_bandwidth", format_bandwidth(s.port_bandwidth), "port_bandwidth_Bps", s.port_bandwidth),
      duration("latency", s.latency),
      field("nvls_reduce_bandwidth", s.nvls_reduce_bandwidth > 0 ? format_bandwidth(s.nvls_reduce_bandwidth) : "none",
            "nvls_reduce_bandwidth_Bps", s.nvls_reduce_bandwidth),
      power("active_power", s.active_watts),
      power("idle_power", s.idle_watts),
  };
  return e;
}

// A model's or stack's `source` text: the specs do not keep it, so it is read from the file.
std::string preset_source(const char* subdirectory, const std::string& name, const std::string& directory) {
  const ConfigNode tree =
      parse_yaml_file((std::filesystem::path(directory) / subdirectory / (name + ".yaml")).string());
  const ConfigEntry* source = tree.find("source");
  return source != nullptr && source->value.is_scalar() ? source->value.scalar : std::string();
}

PresetEntry model(const std::string& name, const std::string& directory) {
  wl::TrainingSpec spec;
  spec.model = load_model_preset(name, directory);
  spec.parallel.global_batch = 1;
  wl::TransformerSpec m;
  try {
    // One device and no parallelism: only the model's own checks and defaults apply.
    m = wl::TrainingLayout(spec, 1).model();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(fmt::format("model preset '{}': {}", name, e.what()));
  }
  const std::uint64_t parameters = wl::total_parameters(m);
  const std::uint64_t active = wl::active_matmul_parameters(m);
  PresetEntry e{"models", name, "", preset_source("models", name, directory), {}};
  e.summary = fmt::format("{} parameters{}, {} layers, hidden {}, {} heads{}, sequence {}", billions(parameters),
                          m.experts > 0 ? fmt::format(" ({} active, {} experts, top {})", billions(active), m.experts,
                                                      m.top_k)
                                        : std::string(),
                          m.layers, m.hidden, m.heads,
                          m.kv_heads < m.heads ? fmt::format(" ({} KV)", m.kv_heads) : std::string(), m.sequence);
  const char* activation = m.activation == wl::Activation::swiglu ? "swiglu" : "gelu";
  e.fields = {
      field("parameters", billions(parameters), "parameters", parameters),
      field("active_parameters", billions(active), "active_parameters", active),
      count("layers", m.layers),
      count("hidden", m.hidden),
      count("heads", m.heads),
      count("kv_heads", m.kv_heads),
      count("ffn_hidden", m.ffn_hidden),
      field("activation", activation, "activation", activation),
      count("vocabulary", m.vocabulary),
      count("sequence", m.sequence),
      field("tied_embeddings", m.tied_embeddings ? "true" : "false", "tied_embeddings", m.tied_embeddings),
  };
  if (m.experts > 0) {
    e.fields.push_back(count("experts", m.experts));
    e.fields.push_back(count("top_k", m.top_k));
    e.fields.push_back(count("moe_ffn_hidden", m.moe_ffn_hidden));
    e.fields.push_back(count("shared_experts", m.shared_experts));
    e.fields.push_back(count("dense_layers", m.dense_layers));
    e.fields.push_back(number("capacity_factor", m.capacity_factor));
  }
  return e;
}

PresetEntry stack(const std::string& name, const std::string& directory) {
  const wl::StackSpec s = load_stack_preset(name, directory);
  PresetEntry e{"stacks", name, "", preset_source("stacks", name, directory), {}};
  const char* transfers = s.pipeline_transfers == wl::PipelineTransfers::blocking ? "blocking" : "overlapped";
  e.summary = fmt::format("{} pipeline transfers, {} gradient reduction{}, ZeRO-3 gathers {}",
                          transfers, s.overlap_grad_reduce ? "overlapped" : "after the backward",
                          s.interleaved_schedule ? ", interleaved schedule" : "",
                          s.zero3_gather_elements > 0 ? fmt::format("in buckets of {:g} elements",
                                                                    static_cast<double>(s.zero3_gather_elements))
                                                      : std::string("a unit at a time"));
  const auto flag = [](const std::string& key, bool v) { return field(key, v ? "true" : "false", key, v); };
  e.fields = {
      flag("interleaved_schedule", s.interleaved_schedule),
      field("pipeline_transfers", transfers, "pipeline_transfers", transfers),
      flag("overlap_grad_reduce", s.overlap_grad_reduce),
      field("grad_bucket_size", s.grad_bucket_bytes > 0 ? si(static_cast<double>(s.grad_bucket_bytes), "B") : "all",
            "grad_bucket_bytes", s.grad_bucket_bytes),
      count("zero3_gather_elements", s.zero3_gather_elements),
      count("zero3_prefetch", s.zero3_prefetch),
      count("zero3_reduce_elements", s.zero3_reduce_elements),
      count("zero3_max_live_elements", s.zero3_max_live_elements),
      count("zero3_streams", s.zero3_streams),
  };
  return e;
}

}  // namespace

std::string singular_kind(const std::string& kind) {
  if (kind == "switches") return "switch";
  return kind.substr(0, kind.size() - 1);
}

const std::vector<std::string>& preset_kinds() {
  static const std::vector<std::string> kinds{"accelerators", "nics", "switches", "models", "stacks"};
  return kinds;
}

std::vector<std::string> preset_names_of(const std::string& kind, const std::string& directory) {
  if (kind == "accelerators") return preset_names(PresetKind::accelerator, directory);
  if (kind == "nics") return preset_names(PresetKind::nic, directory);
  if (kind == "switches") return preset_names(PresetKind::switch_spec, directory);
  if (kind == "stacks") return stack_preset_names(directory);
  return model_preset_names(directory);
}

PresetEntry describe_preset(const std::string& kind, const std::string& name, const std::string& directory) {
  if (kind == "accelerators") return accelerator(name, directory);
  if (kind == "nics") return nic(name, directory);
  if (kind == "switches") return switch_preset(name, directory);
  if (kind == "stacks") return stack(name, directory);
  return model(name, directory);
}

nlohmann::ordered_json preset_json(const PresetEntry& entry) {
  nlohmann::ordered_json j;
  j["kind"] = singular_kind(entry.kind);
  j["name"] = entry.name;
  for (const auto& f : entry.fields) j[f.json_key] = f.json;
  j["source"] = entry.source;
  return j;
}

}  // namespace rackscale::io

#include "io/config/workload_loader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "io/chakra/rank_map.hpp"
#include "io/config/config_error.hpp"
#include "io/config/did_you_mean.hpp"
#include "io/config/units.hpp"
#include "io/config/variability_loader.hpp"
#include "models/collectives/collective_plan.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::io {
namespace {

namespace wl = models::workload;
using models::accelerator::Algorithm;
using models::accelerator::CollectiveKind;
using models::accelerator::DType;

// --- model and stack presets ----------------------------------------------------------------------

// A kind of preset the workload takes: its directory below the presets directory and what it is called.
struct WorkloadPresetKind {
  const char* directory;
  const char* what;
};
constexpr WorkloadPresetKind kModelPresets{"models", "model"};
constexpr WorkloadPresetKind kStackPresets{"stacks", "software stack"};

std::filesystem::path preset_directory(const WorkloadPresetKind& kind, const std::string& presets_dir) {
  return std::filesystem::path(presets_dir) / kind.directory;
}

std::vector<std::string> names_in(const WorkloadPresetKind& kind, const std::string& presets_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(preset_directory(kind, presets_dir), ec), end; !ec && it != end;
       it.increment(ec))
    if (it->path().extension() == ".yaml" && it->is_regular_file(ec)) names.push_back(it->path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Preset names are file names; anything that could climb out of the directory is not a name.
bool plausible_name(const std::string& name) {
  if (name.empty() || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.';
  });
}

ConfigNode load_preset_tree(const WorkloadPresetKind& kind, const ConfigNode& name_node, const std::string& name,
                            const std::string& path, const std::string& presets_dir) {
  const auto file = preset_directory(kind, presets_dir) / (name + ".yaml");
  std::error_code ec;
  if (!plausible_name(name) || !std::filesystem::is_regular_file(file, ec)) {
    const auto names = names_in(kind, presets_dir);
    std::string message;
    if (names.empty()) {
      message = fmt::format("expected a {} preset, found {}; there are none in {} (set RACKSCALE_PRESETS to the "
                            "presets directory)",
                            kind.what, quote_found(name), preset_directory(kind, presets_dir).string());
    } else {
      message = fmt::format("expected a {} preset (one of {}), found {}", kind.what, join(names), quote_found(name));
      if (const auto guess = closest_match(name, names)) message += "; did you mean '" + *guess + "'?";
    }
    fail(name_node, path, message);
  }
  ConfigNode tree = parse_yaml_file(file.string());
  if (!tree.is_mapping())
    fail(tree, path, fmt::format("expected a mapping of {} fields in the preset file, found {}", kind.what,
                                 describe_found(tree)));
  return tree;
}

// Replaces a preset name, or a mapping with `preset`, by the merged mapping.
void resolve_preset_field(const WorkloadPresetKind& kind, ConfigNode& field, const std::string& path,
                          const std::string& presets_dir) {
  if (field.is_scalar()) {
    field = load_preset_tree(kind, field, field.scalar, path, presets_dir);
    return;
  }
  if (!field.is_mapping())
    fail(field, path, fmt::format("expected a {} preset name or a mapping, found {}", kind.what, describe_found(field)));
  const ConfigEntry* preset = field.find("preset");
  if (preset == nullptr) return;
  if (!preset->value.is_scalar())
    fail(preset->value, join_path(path, "preset"), "expected a preset name, found " + describe_found(preset->value));
  ConfigNode merged =
      load_preset_tree(kind, preset->value, preset->value.scalar, join_path(path, "preset"), presets_dir);
  for (const auto& entry : field.entries) {
    if (entry.key == "preset") continue;
    if (ConfigEntry* existing = merged.find(entry.key))
      *existing = entry;
    else
      merged.entries.push_back(entry);
  }
  field = std::move(merged);
}

// --- scalar reads ---------------------------------------------------------------------------------------

bool read_bool(const ConfigNode& n, const std::string& p) {
  if (n.is_scalar() && n.scalar == "true") return true;
  if (n.is_scalar() && n.scalar == "false") return false;
  fail(n, p, "expected true or false, found " + (n.is_scalar() ? quote_found(n.scalar) : describe_found(n)));
}

std::uint32_t read_u32_any(const ConfigNode& n, const std::string& p) { return read_u32(n, p, 0); }

// A sequence of layer counts (each >= 0), one per model chunk.
std::vector<std::uint32_t> read_layer_counts(const ConfigNode& n, const std::string& p) {
  if (!n.is_sequence() || n.items.empty())
    fail(n, p, "expected a sequence of layer counts, one per model chunk, found " +
                   (n.is_sequence() ? std::string("an empty sequence") : describe_found(n)));
  std::vector<std::uint32_t> counts;
  counts.reserve(n.items.size());
  for (std::size_t i = 0; i < n.items.size(); ++i)
    counts.push_back(read_u32(n.items[i], fmt::format("{}[{}]", p, i), 0));
  return counts;
}

// --- training -------------------------------------------------------------------------------------------

constexpr const char* kMoeOnly = "only allowed with experts > 0 (a mixture-of-experts model)";

wl::TransformerSpec read_model(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "source", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "activation",
                     "vocabulary", "sequence", "tied_embeddings", "causal", "experts", "top_k", "moe_ffn_hidden",
                     "shared_experts", "dense_layers", "capacity_factor"},
                    locations);
  wl::TransformerSpec m;
  m.name = r.optional("name", std::string("custom"), read_string);
  (void)r.optional("source", std::string{}, read_string);  // documentation only
  m.layers = r.required("layers", read_count);
  m.hidden = r.required("hidden", read_count);
  m.heads = r.required("heads", read_count);
  m.kv_heads = r.optional("kv_heads", m.kv_heads, read_count);
  m.ffn_hidden = r.optional("ffn_hidden", m.ffn_hidden, read_count);
  m.activation = r.optional("activation", m.activation, [](const ConfigNode& v, const std::string& p) {
    return read_enum<wl::Activation>(v, p, {{"gelu", wl::Activation::gelu}, {"swiglu", wl::Activation::swiglu}});
  });
  m.vocabulary = r.required("vocabulary", read_count);
  m.sequence = r.required("sequence", read_count);
  m.tied_embeddings = r.optional("tied_embeddings", m.tied_embeddings, read_bool);
  m.causal = r.optional("causal", m.causal, read_bool);
  m.experts = r.optional("experts", m.experts, read_u32_any);
  if (m.experts == 0) {
    for (const char* key : {"top_k", "moe_ffn_hidden", "shared_experts", "dense_layers", "capacity_factor"})
      r.forbid(key, kMoeOnly);
    return m;
  }
  m.top_k = r.optional("top_k", m.top_k, read_count);
  m.moe_ffn_hidden = r.optional("moe_ffn_hidden", m.moe_ffn_hidden, read_count);
  m.shared_experts = r.optional("shared_experts", m.shared_experts, read_u32_any);
  m.dense_layers = r.optional("dense_layers", m.dense_layers, read_u32_any);
  m.capacity_factor = r.optional("capacity_factor", m.capacity_factor, [](const ConfigNode& v, const std::string& p) {
    return read_number(v, p, 0.0, true);
  });
  return m;
}

wl::ParallelSpec read_parallel(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"tensor", "pipeline", "data", "context", "expert", "sequence_parallel", "virtual_stages",
                     "first_stage_layers", "last_stage_layers", "chunk_layers", "zero_stage", "recompute",
                     "global_batch", "micro_batch", "dtype", "fused_attention", "context_algorithm"},
                    locations);
  wl::ParallelSpec p;
  p.tensor = r.optional("tensor", p.tensor, read_count);
  p.pipeline = r.optional("pipeline", p.pipeline, read_count);
  p.data = r.optional("data", p.data, read_count);
  p.context = r.optional("context", p.context, read_count);
  p.expert = r.optional("expert", p.expert, read_count);
  p.sequence_parallel = r.optional("sequence_parallel", p.sequence_parallel, read_bool);
  p.virtual_stages = r.optional("virtual_stages", p.virtual_stages, read_count);
  if (r.has("first_stage_layers")) p.first_stage_layers = r.required("first_stage_layers", read_u32_any);
  if (r.has("last_stage_layers")) p.last_stage_layers = r.required("last_stage_layers", read_u32_any);
  p.chunk_layers = r.optional("chunk_layers", p.chunk_layers, read_layer_counts);
  p.zero_stage = r.optional("zero_stage", p.zero_stage, [](const ConfigNode& v, const std::string& k) {
    return static_cast<std::uint32_t>(read_integer(v, k, 0, 3));
  });
  p.recompute = r.optional("recompute", p.recompute, [](const ConfigNode& v, const std::string& k) {
    return read_enum<wl::Recompute>(
        v, k, {{"none", wl::Recompute::none}, {"selective", wl::Recompute::selective}, {"full", wl::Recompute::full}});
  });
  p.global_batch = r.required("global_batch", [](const ConfigNode& v, const std::string& k) {
    return read_integer(v, k, 1);
  });
  p.micro_batch = r.optional("micro_batch", p.micro_batch, [](const ConfigNode& v, const std::string& k) {
    return read_integer(v, k, 1);
  });
  p.fused_attention = r.optional("fused_attention", p.fused_attention, read_bool);
  p.context_algorithm = r.optional("context_algorithm", p.context_algorithm, [](const ConfigNode& v, const std::string& k) {
    return read_enum<wl::ContextAlgorithm>(
        v, k, {{"ring", wl::ContextAlgorithm::ring}, {"all_gather", wl::ContextAlgorithm::all_gather}});
  });
  p.dtype = r.optional("dtype", p.dtype, [](const ConfigNode& v, const std::string& k) {
    return read_enum<DType>(v, k, {{"bf16", DType::bf16}, {"fp8", DType::fp8}});
  });
  return p;
}

// The node written at a dotted path below `workload`, or the closest ancestor that was written.
const ConfigNode& closest_node(const ConfigNode& workload, const std::string& key_path) {
  const ConfigNode* node = &workload;
  std::string rest = key_path.rfind("workload.", 0) == 0 ? key_path.substr(9) : std::string{};
  while (!rest.empty() && node->is_mapping()) {
    const auto dot = rest.find('.');
    const ConfigEntry* e = node->find(rest.substr(0, dot));
    if (e == nullptr) break;
    node = &e->value;
    rest = dot == std::string::npos ? std::string{} : rest.substr(dot + 1);
  }
  return *node;
}

wl::StackSpec read_stack(const ConfigNode& node, const std::string& path, KeyLocations* locations) {
  const MapReader r(node, path,
                    {"name", "source", "interleaved_schedule", "pipeline_transfers", "overlap_grad_reduce",
                     "grad_bucket_size", "zero3_gather_elements", "zero3_prefetch", "zero3_reduce_elements",
                     "zero3_max_live_elements", "zero3_streams"},
                    locations);
  wl::StackSpec s;
  s.name = r.optional("name", std::string("custom"), read_string);
  (void)r.optional("source", std::string{}, read_string);  // documentation only
  s.interleaved_schedule = r.optional("interleaved_schedule", s.interleaved_schedule, read_bool);
  s.pipeline_transfers = r.optional("pipeline_transfers", s.pipeline_transfers, [](const ConfigNode& v, const std::string& p) {
    return read_enum<wl::PipelineTransfers>(
        v, p, {{"overlapped", wl::PipelineTransfers::overlapped}, {"blocking", wl::PipelineTransfers::blocking}});
  });
  s.overlap_grad_reduce = r.optional("overlap_grad_reduce", s.overlap_grad_reduce, read_bool);
  s.grad_bucket_bytes = r.optional("grad_bucket_size", s.grad_bucket_bytes, [](const ConfigNode& v, const std::string& p) {
    return read_size(v, p, 0);
  });
  s.zero3_gather_elements = r.optional("zero3_gather_elements", s.zero3_gather_elements, read_whole_number);
  s.zero3_prefetch = r.optional("zero3_prefetch", s.zero3_prefetch, read_u32_any);
  s.zero3_reduce_elements = r.optional("zero3_reduce_elements", s.zero3_reduce_elements, read_whole_number);
  s.zero3_max_live_elements = r.optional("zero3_max_live_elements", s.zero3_max_live_elements, read_whole_number);
  s.zero3_streams = r.optional("zero3_streams", s.zero3_streams, [](const ConfigNode& v, const std::string& p) {
    return static_cast<std::uint32_t>(read_integer(v, p, 1, 2));
  });
  return s;
}

wl::TrainingSpec read_training(const MapReader& r, const models::network::ClusterSpec& cluster,
                               KeyLocations* locations) {
  wl::TrainingSpec t;
  t.model = read_model(r.require("model"), r.path_of("model"), locations);
  t.parallel = read_parallel(r.require("parallel"), r.path_of("parallel"), locations);
  // resolve_workload_presets() puts the default stack in when the config names none.
  if (r.has("stack")) t.stack = read_stack(r.require("stack"), r.path_of("stack"), locations);
  t.iterations = r.optional("iterations", t.iterations, read_count);
  t.memory_warn_only = r.optional("memory", false, [](const ConfigNode& v, const std::string& p) {
    return read_choice(v, p, {"stop", "warn"}) == 1;
  });
  if (const ConfigNode* n = r.find("variability"))
    t.variability = read_variability(*n, r.path_of("variability"), cluster.devices(), locations);
  t.simulated_replicas = r.optional("simulated_replicas", t.simulated_replicas, [](const ConfigNode& v, const std::string& p) {
    return read_enum<wl::SimulatedReplicas>(v, p, {{"all", wl::SimulatedReplicas::all}, {"one", wl::SimulatedReplicas::one}});
  });
  // Relations between values (divisibility, group sizes) are the layout's to check; its messages start
  // with the key path, which locates them.
  try {
    (void)wl::TrainingLayout(t, cluster.devices());
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    const std::string key = message.substr(0, message.find(':'));
    // A key outside the workload (cluster.nodes, when the devices overflow) was read before it, its
    // place recorded; the workload's own node would point at the wrong line.
    if (locations != nullptr && !key.starts_with("workload."))
      if (const auto at = locations->find(key); at != locations->end()) throw ConfigError(at->second + ": " + message);
    throw ConfigError(closest_node(r.node(), key).origin.str() + ": " + message);
  }
  if (t.parallel.dtype == DType::fp8 && !(cluster.accelerator.peak_fp8_flops > 0)) {
    const ConfigNode& dtype = closest_node(r.node(), "workload.parallel.dtype");
    fail(dtype, "workload.parallel.dtype",
         fmt::format("fp8 needs an accelerator with FP8 support; {} has no peak_fp8_flops", cluster.accelerator.name));
  }
  return t;
}

// --- collective sweeps ----------------------------------------------------------------------------------

wl::CollectiveBenchSpec read_collective(const MapReader& r, std::uint64_t devices) {
  namespace coll = models::collectives;
  wl::CollectiveBenchSpec c;
  c.op = r.required("op", [](const ConfigNode& v, const std::string& p) {
    return read_enum<CollectiveKind>(v, p,
                                     {{"all_reduce", CollectiveKind::all_reduce},
                                      {"reduce_scatter", CollectiveKind::reduce_scatter},
                                      {"all_gather", CollectiveKind::all_gather},
                                      {"broadcast", CollectiveKind::broadcast},
                                      {"reduce", CollectiveKind::reduce},
                                      {"all_to_all", CollectiveKind::all_to_all},
                                      {"gather", CollectiveKind::gather},
                                      {"scatter", CollectiveKind::scatter},
                                      {"sendrecv", CollectiveKind::sendrecv}});
  });
  const auto size = [](const ConfigNode& v, const std::string& p) { return read_size(v, p, 1); };
  c.min_bytes = r.optional("min_bytes", c.min_bytes, size);
  c.max_bytes = r.optional("max_bytes", c.max_bytes, size);
  if (c.max_bytes < c.min_bytes) {
    const ConfigNode& at = r.has("max_bytes") ? r.require("max_bytes") : r.require("min_bytes");
    fail(at, r.path_of(r.has("max_bytes") ? "max_bytes" : "min_bytes"),
         fmt::format("expected max_bytes ({} bytes) >= min_bytes ({} bytes)", c.max_bytes, c.min_bytes));
  }
  // nccl-tests steps by its factor (-f) when that is above 1, else by its increment (-i): writing only
  // step_bytes asks for the increment.
  c.step_factor = r.optional("step_factor", r.has("step_bytes") ? std::uint64_t{1} : c.step_factor,
                             [](const ConfigNode& v, const std::string& p) { return read_integer(v, p, 1); });
  c.step_bytes = r.optional("step_bytes", c.step_bytes, size);
  if (c.step_factor > 1 && r.has("step_bytes"))
    fail(r.require("step_bytes"), r.path_of("step_bytes"),
         fmt::format("only used with step_factor 1 (sizes grow by step_bytes or by step_factor, as nccl-tests' -i "
                     "and -f), found step_factor {}",
                     c.step_factor));
  try {
    (void)coll::sweep_sizes(c.min_bytes, c.max_bytes, c.step_factor, c.step_bytes, coll::kMaxSweepSizes);
  } catch (const std::invalid_argument&) {
    const char* key = c.step_factor > 1 ? "step_factor" : "step_bytes";
    fail(r.has(key) ? r.require(key) : r.node(), r.path_of(key),
         fmt::format("expected at most {} sizes from min_bytes ({} bytes) to max_bytes ({} bytes), found more",
                     coll::kMaxSweepSizes, c.min_bytes, c.max_bytes));
  }
  c.data_type = r.optional("data_type", c.data_type, [](const ConfigNode& v, const std::string& p) {
    using T = coll::DataType;
    EnumChoices<T> choices;
    for (const T t : {T::int8, T::uint8, T::int32, T::uint32, T::int64, T::uint64, T::half, T::float32, T::float64,
                      T::bfloat16, T::f8e4m3, T::f8e5m2})
      choices.emplace_back(std::string(coll::data_type_name(t)), t);
    return read_enum(v, p, choices);
  });
  c.redop = r.optional("redop", c.redop, [](const ConfigNode& v, const std::string& p) {
    using O = coll::ReduceOp;
    EnumChoices<O> choices;
    for (const O o : {O::sum, O::prod, O::max, O::min, O::avg}) choices.emplace_back(std::string(coll::reduce_op_name(o)), o);
    return read_enum(v, p, choices);
  });
  c.devices = r.optional("devices", c.devices, [&](const ConfigNode& v, const std::string& p) {
    const std::uint32_t n = read_u32(v, p, 2);
    if (n > devices)
      fail(v, p, fmt::format("expected at most {} (the cluster's devices), found {}", devices, n));
    return n;
  });
  c.root = r.optional("root", c.root, read_u32_any);
  const std::uint64_t members = c.devices == 0 ? devices : c.devices;
  if (models::accelerator::has_root(c.op) && c.root >= members)
    fail(r.require("root"), r.path_of("root"),
         fmt::format("expected a rank below {} (the devices taking part), found {}", members, c.root));
  c.algorithm = r.optional("algorithm", c.algorithm, [](const ConfigNode& v, const std::string& p) {
    return read_enum<Algorithm>(v, p,
                                {{"automatic", Algorithm::automatic},
                                 {"ring", Algorithm::ring},
                                 {"tree", Algorithm::tree},
                                 {"halving_doubling", Algorithm::halving_doubling},
                                 {"hierarchical", Algorithm::hierarchical},
                                 {"nvls", Algorithm::nvls}});
  });
  // NCCL runs at most MAXCHANNELS channels; a call whose messages would not all get a number runs fewer
  // (docs/models.md, "Channels and pipelining"), as the results' channels show.
  c.channels = r.optional("channels", c.channels, [](const ConfigNode& v, const std::string& p) {
    return static_cast<std::uint32_t>(read_integer(v, p, 1, coll::kMaxChannels));
  });
  return c;
}

// --- traffic --------------------------------------------------------------------------------------------

models::TrafficSpec read_traffic(const MapReader& r, std::uint64_t devices) {
  models::TrafficSpec t;
  t.pattern = r.required("pattern", [](const ConfigNode& v, const std::string& p) {
    return read_enum<models::TrafficPattern>(v, p,
                                             {{"permutation", models::TrafficPattern::permutation},
                                              {"all_to_all", models::TrafficPattern::all_to_all},
                                              {"incast", models::TrafficPattern::incast},
                                              {"ring", models::TrafficPattern::ring},
                                              {"uniform_random", models::TrafficPattern::uniform_random}});
  });
  t.bytes = r.required("bytes", [](const ConfigNode& v, const std::string& p) { return read_size(v, p, 1); });
  t.senders = r.optional("senders", t.senders, read_u32_any);
  if (t.senders >= devices)
    fail(r.require("senders"), r.path_of("senders"),
         fmt::format("expected at most {} senders (every device but the receiver; 0 means all of them), found {}",
                     devices - 1, t.senders));
  t.receiver = r.optional("receiver", t.receiver, read_u32_any);
  if (t.receiver >= devices)
    fail(r.require("receiver"), r.path_of("receiver"),
         fmt::format("expected a device index below {} (the cluster's devices), found {}", devices, t.receiver));
  t.messages = r.optional("messages", t.messages, read_count);
  return t;
}

// --- trace replay ---------------------------------------------------------------------------------------

// The files `files` numbers, counted from 0 until the first that is missing, up to `expected` + 1.
std::uint32_t count_traces(const wl::TraceWorkloadSpec& t, std::uint64_t expected) {
  std::uint32_t found = 0;
  std::error_code ec;
  while (found <= expected && std::filesystem::is_regular_file(t.numbered(found), ec)) ++found;
  return found;
}

// A path a config names, relative to the directory of the file that names it, as a config's own paths are.
std::string config_relative(std::string path, const ConfigNode& node) {
  if (std::filesystem::path(path).is_relative() && !node.origin.from_override() && !node.origin.file.empty())
    return (std::filesystem::path(node.origin.file).parent_path() / path).string();
  return path;
}

wl::TraceWorkloadSpec read_trace(const MapReader& r, std::uint64_t devices) {
  wl::TraceWorkloadSpec t;
  t.format = r.optional("format", t.format, [](const ConfigNode& v, const std::string& p) {
    return std::string(read_enum<const char*>(v, p, {{"chakra", "chakra"}}));
  });
  const ConfigNode& files = r.require("files");
  t.files = read_string(files, r.path_of("files"));
  const auto marker = t.files.find("%d");
  if (marker == std::string::npos || t.files.find("%d", marker + 1) != std::string::npos)
    fail(files, r.path_of("files"), fmt::format("expected a file pattern with one %d for the traced rank "
                                                "(traces/job.%d.et), found '{}'", t.files));
  t.files = config_relative(t.files, files);
  if (const ConfigNode* mapping = r.find("mapping")) {
    const std::string path = r.path_of("mapping");
    if (mapping->is_sequence()) {
      std::vector<bool> used(devices, false);
      for (std::size_t i = 0; i < mapping->items.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", path, i);
        const std::uint32_t device = read_u32(mapping->items[i], at);
        if (device >= devices)
          fail(mapping->items[i], at, fmt::format("expected a device index below {} (the cluster's devices), found {}",
                                                  devices, device));
        if (used[device]) fail(mapping->items[i], at, fmt::format("expected each device once, found device {} again", device));
        used[device] = true;
        t.mapping.push_back(device);
      }
      if (t.mapping.empty()) fail(*mapping, path, "expected identity or a list of devices, found an empty list");
    } else {
      (void)read_enum<int>(*mapping, path, {{"identity", 0}});
    }
  }
  t.control_dependencies = r.optional("control_dependencies", t.control_dependencies,
                                      [](const ConfigNode& v, const std::string& p) {
                                        return read_enum<wl::ControlDependencies>(
                                            v, p, {{"honor", wl::ControlDependencies::honor},
                                                   {"ignore", wl::ControlDependencies::ignore}});
                                      });
  t.cpu_ops = r.optional("cpu_ops", t.cpu_ops, [](const ConfigNode& v, const std::string& p) {
    return read_enum<wl::CpuOps>(v, p, {{"skip", wl::CpuOps::skip}, {"serialize", wl::CpuOps::serialize}});
  });
  const std::uint64_t expected = t.mapping.empty() ? devices : t.mapping.size();
  if (const ConfigNode* map = r.find("rank_map")) {
    // One trace per role: %d numbers the roles, and the rank map gives each traced rank its role.
    t.rank_map = config_relative(read_string(*map, r.path_of("rank_map")), *map);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(t.rank_map, ec))
      fail(*map, r.path_of("rank_map"), fmt::format("expected a rank map file (export-trace --by-role writes NAME.ranks), "
                                                    "found no file {}", t.rank_map));
    const std::uint32_t roles = count_traces(t, expected);
    if (roles == 0)
      fail(files, r.path_of("files"), fmt::format("expected role traces from {} (workload.rank_map is given), found no {}",
                                                  t.role_file(0), t.role_file(0)));
    t.role_of = read_rank_map(t.rank_map, static_cast<std::uint32_t>(expected), roles);
    t.ranks = static_cast<std::uint32_t>(expected);
    return t;
  }
  const std::uint32_t found = count_traces(t, expected);
  if (found != expected)
    fail(files, r.path_of("files"),
         fmt::format("expected {} traces ({}), one per traced rank from {}, found {}", expected,
                     t.mapping.empty() ? "the cluster's devices" : "the devices of workload.mapping", t.file_of(0),
                     found > expected ? fmt::format("more ({} exists)", t.file_of(found - 1))
                                      : fmt::format("{} ({} is missing)", found, t.file_of(found))));
  t.ranks = found;
  return t;
}

struct TypeKeys {
  const char* type;
  models::WorkloadKind kind;
  std::vector<std::string> keys;
};

const std::vector<TypeKeys>& type_keys() {
  static const std::vector<TypeKeys> table{
      {"traffic", models::WorkloadKind::traffic, {"pattern", "bytes", "senders", "receiver", "messages"}},
      {"collective",
       models::WorkloadKind::collective,
       {"op", "min_bytes", "max_bytes", "step_factor", "step_bytes", "data_type", "redop", "root", "devices",
        "algorithm", "channels"}},
      {"training", models::WorkloadKind::training, {"model", "parallel", "stack", "iterations", "memory", "variability", "simulated_replicas"}},
      {"trace", models::WorkloadKind::trace, {"format", "files", "rank_map", "mapping", "control_dependencies", "cpu_ops"}},
  };
  return table;
}

}  // namespace

std::vector<std::string> model_preset_names(const std::string& presets_dir) {
  return names_in(kModelPresets, presets_dir);
}

std::vector<std::string> stack_preset_names(const std::string& presets_dir) {
  return names_in(kStackPresets, presets_dir);
}

void resolve_model_preset(ConfigNode& root, const std::string& presets_dir) {
  if (!root.is_mapping()) return;
  ConfigEntry* workload = root.find("workload");
  if (workload == nullptr || !workload->value.is_mapping()) return;
  ConfigEntry* model = workload->value.find("model");
  if (model == nullptr) return;
  resolve_preset_field(kModelPresets, model->value, kModelPresetPath, presets_dir);
  // A training job runs on a software stack: the default one when the config names none, so that the
  // resolved config (validate --resolved, the results file) says which.
  ConfigEntry* stack = workload->value.find("stack");
  if (stack == nullptr) {
    ConfigEntry entry;
    entry.key = "stack";
    entry.value.kind = ConfigNode::Kind::scalar;
    entry.value.scalar = kDefaultStack;
    entry.value.origin = model->value.origin;
    workload->value.entries.push_back(std::move(entry));
    stack = &workload->value.entries.back();
  }
  resolve_preset_field(kStackPresets, stack->value, kStackPresetPath, presets_dir);
}

models::WorkloadSpec read_workload(const ConfigNode& node, const models::network::ClusterSpec& cluster,
                                   KeyLocations* locations) {
  const std::uint64_t devices = cluster.devices();
  std::vector<std::string> allowed{"type"};
  for (const auto& t : type_keys()) allowed.insert(allowed.end(), t.keys.begin(), t.keys.end());
  const MapReader r(node, "workload", allowed, locations);
  std::vector<std::string> type_names;
  for (const auto& t : type_keys()) type_names.push_back(t.type);
  const TypeKeys& type = type_keys()[r.required("type", [&](const ConfigNode& v, const std::string& p) {
    return read_choice(v, p, type_names);
  })];
  // Another type's keys are mistakes, not options.
  for (const auto& other : type_keys())
    if (other.kind != type.kind)
      for (const auto& key : other.keys)
        if (std::find(type.keys.begin(), type.keys.end(), key) == type.keys.end())
          r.forbid(key, fmt::format("only allowed with type: {}", other.type));

  models::WorkloadSpec w;
  w.kind = type.kind;
  switch (type.kind) {
    case models::WorkloadKind::traffic:
      w.traffic = read_traffic(r, devices);
      break;
    case models::WorkloadKind::collective:
      w.collective = read_collective(r, devices);
      break;
    case models::WorkloadKind::training:
      w.training = read_training(r, cluster, locations);
      break;
    case models::WorkloadKind::trace:
      w.trace = read_trace(r, devices);
      break;
  }
  return w;
}

namespace {
ConfigNode preset_by_name(const WorkloadPresetKind& kind, const std::string& name, const std::string& presets_dir) {
  ConfigNode field;
  field.kind = ConfigNode::Kind::scalar;
  field.scalar = name;
  field.origin.file = fmt::format("{} preset '{}'", kind.what, name);
  resolve_preset_field(kind, field, "", presets_dir);
  return field;
}
}  // namespace

wl::TransformerSpec load_model_preset(const std::string& name, const std::string& presets_dir) {
  return read_model(preset_by_name(kModelPresets, name, presets_dir), "", nullptr);
}

wl::StackSpec load_stack_preset(const std::string& name, const std::string& presets_dir) {
  return read_stack(preset_by_name(kStackPresets, name, presets_dir), "", nullptr);
}

}  // namespace rackscale::io

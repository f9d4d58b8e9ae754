// The workload section of scenario configs: training jobs (model presets, overrides, parallelism) and
// collective sweeps land in the structs exactly; bad values give one located line each.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "config_test_support.hpp"
#include "io/config/workload_loader.hpp"
#include "models/memory/memory_check.hpp"
#include "models/network/build_topology.hpp"
#include "models/workload/model_parameters.hpp"
#include "models/workload/training_layout.hpp"
#include "models/workload/training_plan.hpp"

namespace rackscale::io::test {
namespace {

namespace wl = models::workload;

// Lines 1-10; the workload's own lines start at line 11. 16 devices.
std::string scenario(const std::string& workload_lines) {
  return "name: training\n"
         "cluster:\n"
         "  nodes: 2\n"
         "  accelerator: h100-sxm5-80gb\n"
         "  nic: connectx7-400g\n"
         "  scale_out:\n"
         "    topology: fat_tree\n"
         "    switch: quantum2-qm9700\n"
         "    fat_tree: {tiers: 2}\n"
         "workload:\n" +
         workload_lines;
}

const std::string kTraining = "  type: training\n"
                              "  model: gpt3-175b\n"
                              "  parallel: {tensor: 8, global_batch: 16}\n";

TEST(WorkloadConfig, TrainingWithAPresetModel) {
  const models::Scenario s = load_text(scenario(kTraining +
                                                "  iterations: 3\n"
                                                "  memory: warn\n"));
  ASSERT_EQ(s.workload.kind, models::WorkloadKind::training);
  const wl::TrainingSpec& t = s.workload.training;
  EXPECT_EQ(t.model.name, "gpt3-175b");
  EXPECT_EQ(t.model.layers, 96u);
  EXPECT_EQ(t.model.hidden, 12288u);
  EXPECT_EQ(t.model.heads, 96u);
  EXPECT_EQ(t.model.kv_heads, 0u);  // as written: the layout resolves it to heads
  EXPECT_EQ(t.model.ffn_hidden, 49152u);
  EXPECT_EQ(t.model.activation, wl::Activation::gelu);
  EXPECT_EQ(t.model.vocabulary, 50257u);
  EXPECT_EQ(t.model.sequence, 2048u);
  EXPECT_TRUE(t.model.tied_embeddings);
  EXPECT_EQ(t.model.experts, 0u);
  EXPECT_EQ(t.parallel.tensor, 8u);
  EXPECT_EQ(t.parallel.pipeline, 1u);
  EXPECT_EQ(t.parallel.data, 0u);
  EXPECT_EQ(t.parallel.global_batch, 16u);
  EXPECT_EQ(t.parallel.micro_batch, 1u);
  // No stack named: Megatron Core's defaults (configs/presets/stacks/megatron_core.yaml).
  EXPECT_EQ(t.stack.name, "megatron_core");
  EXPECT_EQ(t.stack.grad_bucket_bytes, 80'000'000u);
  EXPECT_FALSE(t.stack.overlap_grad_reduce);
  EXPECT_EQ(t.iterations, 3u);
  EXPECT_TRUE(t.memory_warn_only);
  // Keys are located, those from the preset in the preset file.
  EXPECT_EQ(s.key_locations.at("workload.parallel.tensor"), s.source_file + ":13:14");
  EXPECT_EQ(s.key_locations.at("workload.model.hidden"), presets_dir() + "/models/gpt3-175b.yaml:7:1");
}

TEST(WorkloadConfig, EveryParallelKey) {
  const models::Scenario s = load_text(scenario(
      "  type: training\n"
      "  model: {preset: llama3-70b, layers: 8, sequence: 4096}\n"
      "  parallel:\n"
      "    tensor: 2\n"
      "    pipeline: 2\n"
      "    data: 2\n"
      "    context: 2\n"
      "    sequence_parallel: true\n"
      "    virtual_stages: 2\n"
      "    zero_stage: 1\n"
      "    recompute: selective\n"
      "    global_batch: 8\n"
      "    micro_batch: 2\n"
      "    dtype: fp8\n"));
  const wl::TrainingSpec& t = s.workload.training;
  EXPECT_EQ(t.model.name, "llama3-70b");
  EXPECT_EQ(t.model.layers, 8u);
  EXPECT_EQ(t.model.sequence, 4096u);
  EXPECT_EQ(t.model.kv_heads, 8u);
  EXPECT_EQ(t.model.activation, wl::Activation::swiglu);
  EXPECT_FALSE(t.model.tied_embeddings);
  const wl::ParallelSpec& p = t.parallel;
  EXPECT_EQ(p.tensor, 2u);
  EXPECT_EQ(p.pipeline, 2u);
  EXPECT_EQ(p.data, 2u);
  EXPECT_EQ(p.context, 2u);
  EXPECT_TRUE(p.sequence_parallel);
  EXPECT_EQ(p.virtual_stages, 2u);
  EXPECT_EQ(p.zero_stage, 1u);
  EXPECT_EQ(p.recompute, wl::Recompute::selective);
  EXPECT_EQ(p.global_batch, 8u);
  EXPECT_EQ(p.micro_batch, 2u);
  EXPECT_EQ(p.dtype, models::accelerator::DType::fp8);
  EXPECT_FALSE(t.memory_warn_only);
}

TEST(WorkloadConfig, StackPresetWithKnobsSetByHand) {
  const models::Scenario s = load_text(scenario(
      "  type: training\n"
      "  model: {preset: llama3-70b, layers: 8}\n"
      "  parallel: {tensor: 2, pipeline: 2, zero_stage: 3, global_batch: 8}\n"
      "  stack:\n"
      "    preset: deepspeed\n"
      "    zero3_prefetch: 2\n"
      "    zero3_streams: 2\n"
      "    grad_bucket_size: 40MiB\n"));
  const wl::StackSpec& k = s.workload.training.stack;
  EXPECT_EQ(k.name, "deepspeed");
  EXPECT_FALSE(k.interleaved_schedule);
  EXPECT_EQ(k.pipeline_transfers, wl::PipelineTransfers::blocking);
  EXPECT_FALSE(k.overlap_grad_reduce);
  EXPECT_EQ(k.grad_bucket_bytes, 40u << 20);
  EXPECT_EQ(k.zero3_gather_elements, 50'000'000u);
  EXPECT_EQ(k.zero3_prefetch, 2u);
  EXPECT_EQ(k.zero3_reduce_elements, 500'000'000u);
  EXPECT_EQ(k.zero3_max_live_elements, 1'000'000'000u);
  EXPECT_EQ(k.zero3_streams, 2u);
  EXPECT_EQ(s.key_locations.at("workload.stack.zero3_prefetch"), s.source_file + ":16:5");
  for (const char* name : {"megatron_lm", "megatron_core", "deepspeed", "fsdp"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(load_stack_preset(name, presets_dir()).name, name);
  }
  EXPECT_TRUE(load_stack_preset("fsdp", presets_dir()).overlap_grad_reduce);
  EXPECT_EQ(load_stack_preset("megatron_lm", presets_dir()).grad_bucket_bytes, 0u);
}

TEST(WorkloadConfig, UnevenPipelineStages) {
  // gpt3-175b: 96 layers on 4 stages: 22 on the first and last, (96 - 44) / 2 = 26 on the two others.
  const models::Scenario s = load_text(scenario(
      "  type: training\n  model: gpt3-175b\n"
      "  parallel: {pipeline: 4, first_stage_layers: 22, last_stage_layers: 22, global_batch: 16}\n"));
  const wl::ParallelSpec& p = s.workload.training.parallel;
  EXPECT_EQ(p.first_stage_layers, 22u);
  EXPECT_EQ(p.last_stage_layers, 22u);
  EXPECT_TRUE(p.chunk_layers.empty());
  const wl::TrainingLayout l(s.workload.training, s.cluster.devices());
  EXPECT_EQ(l.stage_layers(0), 22u);
  EXPECT_EQ(l.stage_layers(1), 26u);
  EXPECT_EQ(l.stage_layers(3), 22u);
  // The same split as a list; the keys are located.
  const models::Scenario list = load_text(scenario(
      "  type: training\n  model: gpt3-175b\n"
      "  parallel: {pipeline: 4, chunk_layers: [22, 26, 26, 22], global_batch: 16}\n"));
  EXPECT_EQ(list.workload.training.parallel.chunk_layers, (std::vector<std::uint32_t>{22, 26, 26, 22}));
  EXPECT_FALSE(list.workload.training.parallel.first_stage_layers.has_value());
  EXPECT_EQ(list.key_locations.at("workload.parallel.chunk_layers"), list.source_file + ":13:27");
  // And it reads back from the resolved YAML.
  const models::Scenario again = load_text(list.resolved_yaml);
  EXPECT_EQ(again.workload.training.parallel.chunk_layers, list.workload.training.parallel.chunk_layers);
}

TEST(WorkloadConfig, FullMixtureOfExpertsMapping) {
  const models::Scenario s = load_text(scenario("  type: training\n"
                                                "  model:\n"
                                                "    layers: 4\n"
                                                "    hidden: 512\n"
                                                "    heads: 8\n"
                                                "    kv_heads: 2\n"
                                                "    vocabulary: 1000\n"
                                                "    sequence: 256\n"
                                                "    experts: 16\n"
                                                "    top_k: 4\n"
                                                "    moe_ffn_hidden: 256\n"
                                                "    shared_experts: 1\n"
                                                "    dense_layers: 1\n"
                                                "    capacity_factor: 1.25\n"
                                                "  parallel: {expert: 8, global_batch: 16}\n"));
  const wl::TransformerSpec& m = s.workload.training.model;
  EXPECT_EQ(m.name, "custom");
  EXPECT_EQ(m.kv_heads, 2u);
  EXPECT_EQ(m.experts, 16u);
  EXPECT_EQ(m.top_k, 4u);
  EXPECT_EQ(m.moe_ffn_hidden, 256u);
  EXPECT_EQ(m.shared_experts, 1u);
  EXPECT_EQ(m.dense_layers, 1u);
  EXPECT_EQ(m.capacity_factor, 1.25);
  EXPECT_EQ(s.workload.training.parallel.expert, 8u);
}

TEST(WorkloadConfig, OverridesOnAPresetNameAndResolvedYamlReadsBack) {
  const models::Scenario s =
      load_text(scenario(kTraining), {"workload.model.layers=48", "workload.parallel.pipeline=2"});
  EXPECT_EQ(s.workload.training.model.layers, 48u);
  EXPECT_EQ(s.workload.training.model.hidden, 12288u);  // the rest of the preset stays
  EXPECT_EQ(s.workload.training.parallel.pipeline, 2u);
  EXPECT_EQ(s.key_locations.at("workload.model.layers"), "--set workload.model.layers=48");
  const models::Scenario again = load_text(s.resolved_yaml);
  EXPECT_EQ(again.workload.training.model.layers, 48u);
  EXPECT_EQ(again.workload.training.model.vocabulary, 50257u);
  EXPECT_EQ(again.workload.training.parallel.pipeline, 2u);
  EXPECT_EQ(again.workload.training.model.name, "gpt3-175b");
}

TEST(WorkloadConfig, CollectiveSweep) {
  const models::Scenario s = load_text(scenario("  type: collective\n"
                                                "  op: all_gather\n"
                                                "  min_bytes: 1KiB\n"
                                                "  max_bytes: 1GiB\n"
                                                "  devices: 8\n"
                                                "  algorithm: ring\n"
                                                "  channels: 2\n"));
  ASSERT_EQ(s.workload.kind, models::WorkloadKind::collective);
  const wl::CollectiveBenchSpec& c = s.workload.collective;
  EXPECT_EQ(c.op, models::accelerator::CollectiveKind::all_gather);
  EXPECT_EQ(c.min_bytes, 1024u);
  EXPECT_EQ(c.max_bytes, 1u << 30);
  EXPECT_EQ(c.devices, 8u);
  EXPECT_EQ(c.algorithm, models::accelerator::Algorithm::ring);
  EXPECT_EQ(c.channels, 2u);

  const models::Scenario d = load_text(scenario("  type: collective\n  op: all_reduce\n"));
  EXPECT_EQ(d.workload.collective.min_bytes, 8u);
  EXPECT_EQ(d.workload.collective.max_bytes, 8ULL << 30);
  EXPECT_EQ(d.workload.collective.devices, 0u);
  EXPECT_EQ(d.workload.collective.algorithm, models::accelerator::Algorithm::automatic);
  EXPECT_EQ(d.workload.collective.channels, 0u);  // the collectives model's default
  // nccl-tests' defaults where it has them: floats summed, root 0; sizes doubling.
  EXPECT_EQ(d.workload.collective.step_factor, 2u);
  EXPECT_EQ(d.workload.collective.data_type, rackscale::models::collectives::DataType::float32);
  EXPECT_EQ(d.workload.collective.redop, rackscale::models::collectives::ReduceOp::sum);
  EXPECT_EQ(d.workload.collective.root, 0u);

  // -i instead of -f: writing step_bytes alone makes the factor 1; -d, -o and -r.
  const models::Scenario e = load_text(scenario("  type: collective\n"
                                                "  op: reduce\n"
                                                "  min_bytes: 1MiB\n"
                                                "  max_bytes: 16MiB\n"
                                                "  step_bytes: 3MiB\n"
                                                "  data_type: bfloat16\n"
                                                "  redop: max\n"
                                                "  root: 15\n"));
  const wl::CollectiveBenchSpec& b = e.workload.collective;
  EXPECT_EQ(b.op, models::accelerator::CollectiveKind::reduce);
  EXPECT_EQ(b.step_factor, 1u);
  EXPECT_EQ(b.step_bytes, 3u << 20);
  EXPECT_EQ(b.data_type, rackscale::models::collectives::DataType::bfloat16);
  EXPECT_EQ(b.redop, rackscale::models::collectives::ReduceOp::max);
  EXPECT_EQ(b.root, 15u);
  const models::Scenario f = load_text(scenario("  type: collective\n  op: sendrecv\n  step_factor: 1\n  root: 99\n"));
  EXPECT_EQ(f.workload.collective.step_factor, 1u);
  EXPECT_EQ(f.workload.collective.step_bytes, 1u << 20);  // nccl-tests' -i default
  EXPECT_EQ(f.workload.collective.root, 99u);             // no root for sendrecv: not checked, not used
}

// The model presets load and have the published sizes.
TEST(ModelPresets, SizesMatchTheirSources) {
  const auto resolved = [](const std::string& name) {
    wl::TrainingSpec spec;
    spec.model = load_model_preset(name, presets_dir());
    spec.parallel.global_batch = 1;
    return wl::TrainingLayout(spec, 1).model();
  };
  const auto billions = [](std::uint64_t n) { return static_cast<double>(n) / 1e9; };
  EXPECT_NEAR(billions(wl::total_parameters(resolved("gpt3-175b"))), 174.6, 0.1);
  EXPECT_NEAR(billions(wl::total_parameters(resolved("llama3-70b"))), 70.6, 0.1);    // 70.55B released
  EXPECT_NEAR(billions(wl::total_parameters(resolved("llama3-405b"))), 405.8, 0.3);  // 405.85B released
  const wl::TransformerSpec ds = resolved("deepseek-v3");
  EXPECT_NEAR(billions(wl::total_parameters(ds)), 671.0, 2.0);         // 671B in the report
  EXPECT_NEAR(billions(wl::active_matmul_parameters(ds)), 37.0, 1.0);  // 37B activated
  EXPECT_EQ(ds.experts, 256u);
  EXPECT_EQ(ds.top_k, 8u);
  EXPECT_EQ(ds.dense_layers, 3u);
  const std::vector<std::string> names = model_preset_names(presets_dir());
  EXPECT_GE(names.size(), 14u);
  for (const auto& name : names) EXPECT_NO_THROW((void)resolved(name)) << name;
  EXPECT_EQ(resolved("megatron-gpt-145.6b").hidden, 12288u);
  EXPECT_EQ(resolved("megatron-gpt-1t").layers, 128u);
}

// The training scenarios in configs/training load, build their network and programs, and fit in memory.
TEST(TrainingConfigs, LoadBuildAndFit) {
  const std::vector<std::string> names{"megatron-gpt-145.6b-1536-a100", "llama3-70b-1024-h100",
                                       "deepseek-v3-2048-h100", "llama3-405b-16384-h100",
                                       "llama3-405b-98304-h100"};
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const models::Scenario s = load_scenario(source_dir() + "/configs/training/" + name + ".yaml", {}, presets_dir());
    EXPECT_EQ(s.name, name);
    ASSERT_EQ(s.workload.kind, models::WorkloadKind::training);
    EXPECT_NO_THROW((void)models::network::build_topology(s.cluster, s.network.routing));
    const wl::TrainingPlan plan = wl::build_training_plan(s.workload.training, s.cluster);
    EXPECT_EQ(plan.programs.size(), plan.layout.pipeline());
    EXPECT_EQ(models::memory::check_memory(plan.layout, s.cluster.accelerator), "");
  }
  // Llama 3 405B as the paper runs it: its 126 layers, 7 on the first and last of the 16 stages.
  const models::Scenario llama =
      load_scenario(source_dir() + "/configs/training/llama3-405b-16384-h100.yaml", {}, presets_dir());
  const wl::TrainingLayout layout(llama.workload.training, llama.cluster.devices());
  EXPECT_EQ(layout.model().layers, 126u);
  EXPECT_EQ(layout.stage_layers(0), 7u);
  EXPECT_EQ(layout.stage_layers(1), 8u);
  EXPECT_EQ(layout.stage_layers(15), 7u);
  // The Megatron row: 145.6B parameters, data 24, 96 micro-batches per replica.
  const models::Scenario m =
      load_scenario(source_dir() + "/configs/training/megatron-gpt-145.6b-1536-a100.yaml", {}, presets_dir());
  const wl::TrainingPlan plan = wl::build_training_plan(m.workload.training, m.cluster);
  EXPECT_EQ(plan.layout.data(), 24u);
  EXPECT_EQ(plan.layout.micro_batches(), 96u);
  EXPECT_NEAR(static_cast<double>(plan.parameters) / 145.6e9, 1.0, 0.02);
}

struct BadWorkload {
  const char* name;
  std::string workload;
  std::string message;                            // after "<path>:"
  std::string accelerator = "h100-sxm5-80gb";
};

TEST(WorkloadConfig, BadValuesGiveOneLocatedLine) {
  const std::vector<BadWorkload> table{
      {"unknown parallel key", "  type: training\n  model: gpt3-175b\n  parallel: {tensr: 8, global_batch: 16}\n",
       "13:14: workload.parallel.tensr: unknown key; did you mean 'tensor'?"},
      {"grid does not divide", "  type: training\n  model: gpt3-175b\n  parallel: {tensor: 7, global_batch: 16}\n",
       "13:22: workload.parallel.tensor: 7 x pipeline 1 x context 1 = 7 does not divide the 16 devices"},
      {"kv heads vs tensor",
       "  type: training\n  model: {preset: gpt3-175b, kv_heads: 12}\n  parallel: {tensor: 8, global_batch: 16}\n",
       "12:40: workload.model.kv_heads: 12 kv_heads and tensor 8: one must divide the other (key/value heads are "
       "split over the TP group, or replicated when there are fewer)"},
      {"batch vs data, data not written",
       "  type: training\n  model: gpt3-175b\n  parallel: {tensor: 8, global_batch: 15}\n",
       "13:39: workload.parallel.global_batch: 15 sequences are not divisible by micro_batch 1 x data 2 = 2"},
      {"another type's key", "  type: training\n  model: gpt3-175b\n  pattern: ring\n",
       "13:3: workload.pattern: only allowed with type: traffic"},
      {"moe key on a dense model",
       "  type: training\n  model: {preset: gpt3-175b, top_k: 2}\n  parallel: {global_batch: 16}\n",
       "12:30: workload.model.top_k: only allowed with experts > 0 (a mixture-of-experts model)"},
      {"memory", "  type: training\n  model: gpt3-175b\n  parallel: {global_batch: 16}\n  memory: maybe\n",
       "14:11: workload.memory: expected one of stop, warn, found 'maybe'"},
      {"zero stage", "  type: training\n  model: gpt3-175b\n  parallel: {zero_stage: 4, global_batch: 16}\n",
       "13:26: workload.parallel.zero_stage: expected an integer <= 3, found 4"},
      {"recompute", "  type: training\n  model: gpt3-175b\n  parallel: {recompute: fulll, global_batch: 16}\n",
       "13:25: workload.parallel.recompute: expected one of none, selective, full, found 'fulll'; did you mean "
       "'full'?"},
      {"boolean", "  type: training\n  model: gpt3-175b\n  parallel: {sequence_parallel: yes, global_batch: 16}\n",
       "13:33: workload.parallel.sequence_parallel: expected true or false, found 'yes'"},
      {"missing model", "  type: training\n  parallel: {global_batch: 16}\n",
       "11:3: workload: missing required key 'model'"},
      {"missing global batch", "  type: training\n  model: gpt3-175b\n  parallel: {tensor: 8}\n",
       "13:13: workload.parallel: missing required key 'global_batch'"},
      {"unknown model key",
       "  type: training\n  model: {preset: gpt3-175b, layer: 4}\n  parallel: {global_batch: 16}\n",
       "12:30: workload.model.layer: unknown key; did you mean 'layers'?"},
      {"unknown type", "  type: trainig\n", "11:9: workload.type: expected one of traffic, collective, training, trace, found "
                                            "'trainig'; did you mean 'training'?"},
      {"collective sizes", "  type: collective\n  op: all_reduce\n  min_bytes: 1MiB\n  max_bytes: 1KiB\n",
       "14:14: workload.max_bytes: expected max_bytes (1024 bytes) >= min_bytes (1048576 bytes)"},
      {"collective devices", "  type: collective\n  op: all_reduce\n  devices: 32\n",
       "13:12: workload.devices: expected at most 16 (the cluster's devices), found 32"},
      {"collective op", "  type: collective\n  op: allreduce\n",
       "12:7: workload.op: expected one of all_reduce, reduce_scatter, all_gather, broadcast, reduce, all_to_all, "
       "gather, scatter, sendrecv, found 'allreduce'; did you mean 'all_reduce'?"},
      {"collective step_bytes with a factor", "  type: collective\n  op: all_reduce\n  step_factor: 4\n  step_bytes: 1MiB\n",
       "14:15: workload.step_bytes: only used with step_factor 1 (sizes grow by step_bytes or by step_factor, as "
       "nccl-tests' -i and -f), found step_factor 4"},
      {"collective step factor 0", "  type: collective\n  op: all_reduce\n  step_factor: 0\n",
       "13:16: workload.step_factor: expected an integer >= 1, found 0"},
      {"collective too many sizes", "  type: collective\n  op: all_reduce\n  max_bytes: 1MiB\n  step_bytes: 8B\n",
       "14:15: workload.step_bytes: expected at most 100000 sizes from min_bytes (8 bytes) to max_bytes (1048576 "
       "bytes), found more"},
      {"collective root", "  type: collective\n  op: gather\n  devices: 4\n  root: 4\n",
       "14:9: workload.root: expected a rank below 4 (the devices taking part), found 4"},
      {"collective no channels", "  type: collective\n  op: all_reduce\n  channels: 0\n",
       "13:13: workload.channels: expected an integer >= 1, found 0"},
      {"collective channels above NCCL's", "  type: collective\n  op: all_reduce\n  channels: 65\n",
       "13:13: workload.channels: expected an integer <= 64, found 65"},
      {"collective data type", "  type: collective\n  op: all_reduce\n  data_type: fp16\n",
       "13:14: workload.data_type: expected one of int8, uint8, int32, uint32, int64, uint64, half, float, double, "
       "bfloat16, f8e4m3, f8e5m2, found 'fp16'"},
      {"collective redop", "  type: collective\n  op: all_reduce\n  redop: mean\n",
       "13:10: workload.redop: expected one of sum, prod, max, min, avg, found 'mean'; did you mean 'max'?"},
      {"fp8 on an accelerator without it",
       "  type: training\n  model: gpt3-175b\n  parallel: {dtype: fp8, global_batch: 16}\n",
       "13:21: workload.parallel.dtype: fp8 needs an accelerator with FP8 support; a100-sxm4-80gb has no "
       "peak_fp8_flops",
       "a100-sxm4-80gb"},
      {"collective with a training key", "  type: collective\n  op: all_reduce\n  model: gpt3-175b\n",
       "13:3: workload.model: only allowed with type: training"},
      // Uneven pipeline stages (gpt3-175b has 96 layers); each error at the value that set the split.
      {"first + last stages above the layers",
       "  type: training\n  model: gpt3-175b\n"
       "  parallel: {pipeline: 2, first_stage_layers: 50, last_stage_layers: 50, global_batch: 16}\n",
       "13:47: workload.parallel.first_stage_layers: first_stage_layers 50 + last_stage_layers 50 = 100 exceed the "
       "model's 96 layers"},
      {"other stages do not share the rest evenly",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 4, last_stage_layers: 5, global_batch: 16}\n",
       "13:46: workload.parallel.last_stage_layers: the 3 other stages x virtual_stages 1 = 3 model chunks share the "
       "remaining layers evenly: expected a multiple of 3, found 91 of the 96"},
      {"chunk list of the wrong length",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 2, chunk_layers: [48, 40, 8], global_batch: 16}\n",
       "13:41: workload.parallel.chunk_layers: expected pipeline 2 x virtual_stages 1 = 2 entries (one per model "
       "chunk), found 3"},
      {"chunk list not summing to the layers",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 2, chunk_layers: [48, 40], global_batch: 16}\n",
       "13:41: workload.parallel.chunk_layers: expected entries summing to the model's 96 layers, found 88"},
      {"chunk list entry",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 2, chunk_layers: [48, x], global_batch: 16}\n",
       "13:46: workload.parallel.chunk_layers[1]: expected an integer, found 'x'"},
      {"chunk list not a list",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 2, chunk_layers: 48, global_batch: 16}\n",
       "13:41: workload.parallel.chunk_layers: expected a sequence of layer counts, one per model chunk, found 48"},
      {"negative stage layers",
       "  type: training\n  model: gpt3-175b\n  parallel: {pipeline: 2, first_stage_layers: -1, global_batch: 16}\n",
       "13:47: workload.parallel.first_stage_layers: expected an integer >= 0, found -1"},
  };
  for (const auto& row : table) {
    SCOPED_TRACE(row.name);
    std::string text = scenario(row.workload);
    text.replace(text.find("h100-sxm5-80gb"), 14, row.accelerator);
    const std::string path = write_temp(text, "bad_workload");
    EXPECT_EQ(load_error(path), path + ":" + row.message);
  }
}

TEST(WorkloadConfig, UnknownModelPresetListsThemAndSuggests) {
  const std::string path = write_temp(scenario("  type: training\n  model: gpt3\n  parallel: {global_batch: 16}\n"));
  const std::string error = load_error(path);
  EXPECT_EQ(error.find(path + ":12:10: workload.model: expected a model preset (one of deepseek-v3, gpt3-175b, "
                              "llama3-405b, llama3-70b, megatron-gpt-1.7b,"),
            0u)
      << error;
  EXPECT_NE(error.find("found 'gpt3'; did you mean 'gpt3-175b'?"), std::string::npos) << error;
}

TEST(WorkloadConfig, LayoutErrorInAPresetValuePointsAtThePresetFile) {
  // hidden comes from the preset file (line 7); 100 heads do not divide it.
  const std::string path = write_temp(
      scenario("  type: training\n  model: {preset: gpt3-175b, heads: 100}\n  parallel: {global_batch: 16}\n"));
  EXPECT_EQ(load_error(path), presets_dir() + "/models/gpt3-175b.yaml:7:9: workload.model.hidden: 12288 is not "
                                              "divisible by the 100 heads (the head dimension must be whole)");
}

}  // namespace
}  // namespace rackscale::io::test

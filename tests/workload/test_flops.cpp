// FLOPs and parameters against the hand formulas of Narayanan et al. 2021 (SC'21), whose Table 1
// (data/reference/megatron2021_table1.csv) counts hardware FLOPs per iteration with full recomputation as
//   F = 96 B s l h^2 (1 + s / 6h + V / 16 l h).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "models/workload/layer_costs.hpp"
#include "models/workload/model_parameters.hpp"
#include "models/workload/training_plan.hpp"
#include "workload_test_support.hpp"

namespace rackscale::models::workload::test {
namespace {

struct MegatronRow {
  double params_billion;
  std::uint32_t heads, hidden, layers, tensor, pipeline, data, gpus, global_batch;
};

// Narayanan et al. 2021, Table 1 (data/reference/megatron2021_table1.csv).
const std::vector<MegatronRow> kTable1{
    {1.7, 24, 2304, 24, 1, 1, 32, 32, 512},        {3.6, 32, 3072, 30, 2, 1, 32, 64, 512},
    {7.5, 32, 4096, 36, 4, 1, 32, 128, 512},       {18.4, 48, 6144, 40, 8, 1, 32, 256, 1024},
    {39.1, 64, 8192, 48, 8, 2, 32, 512, 1536},     {76.1, 80, 10240, 60, 8, 4, 32, 1024, 1792},
    {145.6, 96, 12288, 80, 8, 8, 24, 1536, 2304},  {310.1, 128, 16384, 96, 8, 16, 15, 1920, 2160},
    {529.6, 128, 20480, 105, 8, 35, 9, 2520, 2520}, {1008.0, 160, 25600, 128, 8, 64, 6, 3072, 3072},
};

double megatron_hardware_flops(double B, double s, double l, double h, double V) {
  return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
}
// Megatron's model FLOPs (no recomputation), attention over every key: 72 B s l h^2 (1 + s/6h + V/12lh).
double megatron_model_flops(double B, double s, double l, double h, double V) {
  return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
}
// The MFU numerator of a causal model: 6 N + 6 l h s per token, N = 12 l h^2 + V h (GPT, tied output
// layer counted once, as active parameters count it): 72 B s l h^2 (1 + s/12h + V/12lh).
double causal_model_flops(double B, double s, double l, double h, double V) {
  return 72 * B * s * l * h * h * (1 + s / (12 * h) + V / (12 * l * h));
}

TEST(Flops, MegatronRowsWithFullRecomputationMatchTheirFormula) {
  // Rows small enough to build quickly: 1.7B (no pipeline), 18.4B (TP 8), 145.6B (TP 8, PP 8, interleaved).
  for (const std::size_t row : {0u, 3u, 6u}) {
    const MegatronRow& r = kTable1[row];
    SCOPED_TRACE(r.params_billion);
    TrainingSpec spec = megatron_gpt(r.heads, r.hidden, r.layers);
    spec.parallel.tensor = r.tensor;
    spec.parallel.pipeline = r.pipeline;
    spec.parallel.virtual_stages = r.pipeline > 1 ? 2 : 1;
    spec.parallel.global_batch = r.global_batch;
    spec.parallel.recompute = Recompute::full;
    spec.parallel.sequence_parallel = false;
    const TrainingPlan plan = build_training_plan(spec, h100_cluster(r.gpus));
    EXPECT_EQ(plan.layout.data(), r.data);
    const double expected = megatron_hardware_flops(r.global_batch, 2048, r.layers, r.hidden, 51200);
    EXPECT_NEAR(plan.hardware_flops / expected, 1.0, 1e-12);
    EXPECT_NEAR(plan.model_flops / causal_model_flops(r.global_batch, 2048, r.layers, r.hidden, 51200), 1.0, 1e-12);
  }
}

TEST(Flops, RecomputationPolicies) {
  TrainingSpec spec = megatron_gpt(32, 4096, 8);
  spec.parallel.tensor = 4;
  spec.parallel.global_batch = 8;
  const double B = 8, s = 2048, l = 8, h = 4096, V = 51200;
  const double model = megatron_model_flops(B, s, l, h, V);
  spec.parallel.recompute = Recompute::none;
  EXPECT_NEAR(build_training_plan(spec, h100_cluster(8)).hardware_flops / model, 1.0, 1e-12);
  // Selective: the attention core once more, 4 s^2 h per layer and sequence.
  spec.parallel.recompute = Recompute::selective;
  EXPECT_NEAR(build_training_plan(spec, h100_cluster(8)).hardware_flops / (model + 4 * B * s * s * h * l), 1.0, 1e-12);
  // Sequence and context parallelism move work around but do not change it.
  spec.parallel.recompute = Recompute::full;
  spec.parallel.sequence_parallel = true;
  spec.parallel.context = 2;
  const TrainingPlan plan = build_training_plan(spec, h100_cluster(16));
  EXPECT_NEAR(plan.hardware_flops / megatron_hardware_flops(B, s, l, h, V), 1.0, 1e-12);
}

TEST(Flops, OneLayerForwardOnOneDevice) {
  // 24 b s h^2 / t + 4 b s^2 h / t for one GPT layer's forward on one of t TP ranks.
  TrainingSpec spec = megatron_gpt(32, 4096, 1);
  spec.parallel.tensor = 4;
  spec.parallel.global_batch = 2;
  spec.parallel.micro_batch = 2;
  const TrainingPlan plan = build_training_plan(spec, h100_cluster(4));
  double forward = 0;
  for (const auto& op : plan.programs[0].ops)
    if (op.kind == accelerator::OpKind::compute && op.cost.m != 0 && op.layer == 0 &&
        op.phase == accelerator::Phase::forward)
      forward += op.cost.flops;
  const double b = 2, s = 2048, h = 4096, t = 4;
  EXPECT_DOUBLE_EQ(forward, 24 * b * s * h * h / t + 4 * b * s * s * h / t);
}

// Fused causal attention computes the tiles on or below the diagonal: of n x n tiles of 128 x 128,
// n (n + 1) / 2. At s = 8,192 (n = 64) that is 65/128 of every score; unfused, all of them.
TEST(Flops, FusedCausalAttentionSkipsTheMaskedTiles) {
  TrainingSpec spec = megatron_gpt(32, 4096, 1);
  spec.model.sequence = 8192;
  spec.parallel.global_batch = 1;
  const auto attention_flops = [](const TrainingPlan& plan, accelerator::Phase phase) {
    for (const auto& op : plan.programs[0].ops)
      if (op.kind == accelerator::OpKind::compute && op.label == "attention" && op.phase == phase) return op.cost.flops;
    return 0.0;
  };
  const double s = 8192, h = 4096, every_key = 4 * s * s * h;
  EXPECT_DOUBLE_EQ(attention_flops(build_training_plan(spec, h100_cluster(1)), accelerator::Phase::forward), every_key);
  spec.parallel.fused_attention = true;
  const TrainingPlan fused = build_training_plan(spec, h100_cluster(1));
  EXPECT_DOUBLE_EQ(attention_flops(fused, accelerator::Phase::forward), every_key * 65 / 128);
  // FlashAttention-2's backward: five tile products against the forward's two.
  EXPECT_DOUBLE_EQ(attention_flops(fused, accelerator::Phase::backward), every_key * 65 / 128 * 2.5);
  // Without a causal mask every tile is computed; for a square mask the share tends to one half.
  spec.model.causal = false;
  EXPECT_DOUBLE_EQ(attention_flops(build_training_plan(spec, h100_cluster(1)), accelerator::Phase::forward), every_key);
  spec.model.causal = true;
  spec.model.sequence = 1 << 20;
  const LayerCosts long_sequence(TrainingLayout(spec, 1));
  EXPECT_NEAR(long_sequence.causal_share(), 0.5, 1e-3);
}

// Ring attention with causal load balancing does the same tile count as one device would: C devices, 2C
// chunks of n tiles; step 0 computes 2 n (n + 1) / 2 + n^2 tiles of its 4 n^2, every later step 2 n^2, so
// C (2 C n^2 + n) in all = 2C n (2C n + 1) / 2, the whole sequence's causal tiles.
TEST(Flops, CausalRingAttentionDoesTheWholeSequencesWork) {
  TrainingSpec spec = megatron_gpt(32, 4096, 1);
  spec.model.sequence = 8192;
  spec.parallel.fused_attention = true;
  spec.parallel.global_batch = 1;
  const auto forward_attention = [](const TrainingPlan& plan) {
    double flops = 0;
    for (const auto& op : plan.programs[0].ops)
      if (op.kind == accelerator::OpKind::compute && op.label == "attention" && op.phase == accelerator::Phase::forward)
        flops += op.cost.flops;
    return flops;
  };
  const double whole = forward_attention(build_training_plan(spec, h100_cluster(1)));
  spec.parallel.context = 4;
  const TrainingPlan ring = build_training_plan(spec, h100_cluster(4));
  EXPECT_DOUBLE_EQ(4 * forward_attention(ring), whole);
  const LayerCosts costs(ring.layout);
  EXPECT_DOUBLE_EQ(costs.ring_step_share(0), 0.5 + 1.0 / (4 * 8));  // chunks of 1,024 tokens: 8 tiles
  EXPECT_DOUBLE_EQ(costs.ring_step_share(3), 0.5);
}

TEST(Flops, MixtureOfExpertsCountsActiveParameters) {
  // 2 layers, the first dense; 8 experts of 512, top 2, one shared; SwiGLU; untied.
  TrainingSpec spec;
  spec.model.layers = 2;
  spec.model.hidden = 256;
  spec.model.heads = 4;
  spec.model.ffn_hidden = 1024;
  spec.model.activation = Activation::swiglu;
  spec.model.vocabulary = 1000;
  spec.model.sequence = 128;
  spec.model.tied_embeddings = false;
  spec.model.causal = false;            // model FLOPs count every key, as the hardware FLOPs do,
  spec.parallel.fused_attention = false;  // and the backward runs twice the forward (no flash recompute)
  spec.model.experts = 8;
  spec.model.top_k = 2;
  spec.model.moe_ffn_hidden = 512;
  spec.model.shared_experts = 1;
  spec.model.dense_layers = 1;
  spec.parallel.expert = 2;
  spec.parallel.global_batch = 2;
  const TrainingPlan plan = build_training_plan(spec, h100_cluster(2));
  const std::uint64_t h = 256, attention = 4 * h * h, norms = 2 * 2 * h, expert = 3 * h * 512;
  const std::uint64_t dense_mlp = 3 * h * 1024, router = h * 8, embedding = 1000 * h;
  EXPECT_EQ(plan.parameters, 2 * (attention + norms) + dense_mlp + router + 9 * expert + 2 * embedding + 2 * h);
  EXPECT_EQ(plan.active_parameters, 2 * attention + dense_mlp + router + 3 * expert + embedding);
  const double tokens = 2 * 128;
  EXPECT_DOUBLE_EQ(plan.model_flops,
                   tokens * (6.0 * static_cast<double>(plan.active_parameters) + 12.0 * 2 * 256 * 128));
  // Capacity factor 1: what runs is what the model needs.
  EXPECT_NEAR(plan.hardware_flops / plan.model_flops, 1.0, 1e-12);
  // A device holds half the experts.
  EXPECT_EQ(local_layer_parameters(plan.layout, 1).expert, 4 * expert);
  EXPECT_EQ(local_layer_parameters(plan.layout, 1).dense, attention + norms + router + expert);
}

TEST(Parameters, MegatronTableSizes) {
  // Within 4% of the table (which also counts biases and position embeddings, and rounds).
  for (const MegatronRow& r : kTable1) {
    TransformerSpec m;
    m.layers = r.layers;
    m.hidden = r.hidden;
    m.heads = r.heads;
    m.ffn_hidden = 4 * r.hidden;
    m.kv_heads = r.heads;
    m.vocabulary = 51200;
    m.sequence = 2048;
    EXPECT_NEAR(static_cast<double>(total_parameters(m)) / (r.params_billion * 1e9), 1.0, 0.04) << r.params_billion;
  }
}

}  // namespace
}  // namespace rackscale::models::workload::test

// The memory model on a worked example written out by hand, the schedule's in-flight micro-batches,
// and the message of a job that does not fit.
#include <string>

#include <gtest/gtest.h>

#include "models/memory/infeasible_job.hpp"
#include "models/memory/memory_check.hpp"
#include "models/workload/layer_costs.hpp"
#include "models/workload/memory_model.hpp"
#include "models/workload/model_parameters.hpp"
#include "workload_test_support.hpp"

namespace rackscale::models::memory::test {
namespace {

using workload::job_memory;
using workload::layer_activation_bytes;
using workload::MemoryBreakdown;
using workload::Recompute;
using workload::ring_attention_buffer_bytes;
using workload::stage_memory;
using workload::TrainingLayout;
using workload::TrainingSpec;
using workload::test::h100_cluster;
using workload::test::megatron_gpt;
using workload::test::small_gpt;

// The worked example: the small GPT (l = 8, h = 1024, a = 16, s = 1024, V = 32000) with b = 2, TP 2 with
// SP, PP 2, DP 2 on 8 devices, global batch 16: m = 16 / (2 x 2) = 4 micro-batches per replica.
//
// Parameters of one layer on one TP rank: QKV 1024 x 3 x 512 = 1,572,864; projection 512 x 1024 =
// 524,288; norms 4 x 1024 = 4,096; MLP 2 x 1024 x 2048 = 4,194,304; in all 6,295,552.
// Stage 0: 4 layers + embedding 16,000 x 1024 = 16,384,000 -> 41,566,208.
// Stage 1: 4 layers + final norm 2,048 + output layer 16,384,000 (tied, but on another stage) -> 41,568,256.
//
// Activations per layer and micro-batch (Korthikanti et al. 2022, SP): s b h (34 + 5 a s / h) / t
//   = 1024 x 2 x 1024 x (34 + 80) / 2 = 119,537,664; selective 34 s b h / t = 35,651,584;
//   full 2 s b h / t = 2,097,152.
// Embedding dropout mask s b h / t = 1,048,576; output layer (final norm and logits inputs, fp32
// logits) 4 s b h / t + 4 s b V / t = 2,048 tokens x (2,048 + 64,000) = 135,266,304.
// 1F1B keeps P - s chunks: 2 on stage 0, 1 on stage 1.
// Communicators: tensor, data, pipeline: 3 x 64 MiB = 201,326,592.
TrainingLayout worked_example(std::uint32_t zero, Recompute recompute) {
  TrainingSpec spec = small_gpt();
  spec.parallel.fused_attention = false;  // Korthikanti et al.'s attention, score matrix in HBM
  spec.parallel.tensor = 2;
  spec.parallel.sequence_parallel = true;
  spec.parallel.pipeline = 2;
  spec.parallel.micro_batch = 2;
  spec.parallel.global_batch = 16;
  spec.parallel.zero_stage = zero;
  spec.parallel.recompute = recompute;
  return TrainingLayout(spec, 8);
}

TEST(Memory, WorkedExampleParameters) {
  const TrainingLayout l = worked_example(0, Recompute::none);
  EXPECT_EQ(workload::local_layer_parameters(l, 0).total(), 6'295'552u);
  EXPECT_EQ(workload::local_stage_parameters(l, 0).total(), 41'566'208u);
  EXPECT_EQ(workload::local_stage_parameters(l, 1).total(), 41'568'256u);
}

TEST(Memory, WorkedExampleActivationsPerLayer) {
  const TrainingLayout l = worked_example(0, Recompute::none);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::none), 119'537'664u);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::selective), 35'651'584u);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::full), 2'097'152u);
}

// Fused attention keeps no score matrix: the worked example's layer without recomputation holds what
// selective recomputation holds plus the fp32 log-sum-exp per query and head: 2,048 tokens x 8 heads
// per TP rank x 4 bytes = 65,536 bytes.
TEST(Memory, FusedAttentionKeepsOnlyTheSoftmaxStatistics) {
  TrainingSpec spec = worked_example(0, Recompute::none).spec();
  spec.parallel.fused_attention = true;
  const TrainingLayout l(spec, 8);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::none), 35'651'584u + 65'536u);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::selective), 35'651'584u);
}

// Llama 3 405B's layer (h 16,384, 128 heads of 128, 8 KV heads, SwiGLU 53,248) on TP 8 with SP and CP 16 at
// 131,072 tokens: per token of the device's s / C = 8,192, with t = 8, a_t = 16, g_t = 1, f_t = 6,656:
// 10 h / t + 2 a_t d + 4 g_t d + 2 a_t d + 4 a_t + 2 (2 f_t) + 2 f_t = 20,480 + 4,096 + 512 + 4,096 + 64 +
// 26,624 + 13,312 = 69,184 bytes: 566,755,328 bytes a layer. Linear in the sequence: doubling it doubles
// the bytes exactly (unfused attention's 5 a_t s term would grow with s^2: 80 GiB more here).
TEST(Memory, FusedAttentionAtLongSequenceIsLinearInTheSequence) {
  TrainingSpec spec;
  spec.model.layers = 16;
  spec.model.hidden = 16384;
  spec.model.heads = 128;
  spec.model.kv_heads = 8;
  spec.model.ffn_hidden = 53248;
  spec.model.activation = workload::Activation::swiglu;
  spec.model.vocabulary = 128256;
  spec.model.sequence = 131072;
  spec.parallel.tensor = 8;
  spec.parallel.sequence_parallel = true;
  spec.parallel.context = 16;
  spec.parallel.global_batch = 1;
  const TrainingLayout l(spec, 128);
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::none), 8192u * 69'184u);
  spec.model.sequence = 262144;
  EXPECT_EQ(layer_activation_bytes(TrainingLayout(spec, 128), 0, Recompute::none), 2 * 8192u * 69'184u);
  spec.model.sequence = 131072;
  spec.parallel.fused_attention = false;
  EXPECT_EQ(layer_activation_bytes(TrainingLayout(spec, 128), 0, Recompute::none),
            8192ULL * (69'184 - 64) + 5ULL * 16 * 131072 * 8192);
}

// ZeRO-3 of a 530B GPT (105 layers, h 20,480, 128 heads, V 51,200, tied) on 640 devices, no model
// parallelism: a layer holds 5,033,246,720 parameters (norm 40,960, QKV 1,258,291,200, projection
// 419,430,400, norm 40,960, MLP 1,677,721,600 twice); the device 529,539,522,560 / 640 = 827,405,504 of
// them. FSDP gathers a layer at a time with one ahead: weights (shard + 2 layers) x 2 bytes; gradients the
// shard and two units' unreduced ones. DeepSpeed's buckets of 5e7 elements are the tensors (QKV with the
// norm before it 1,258,332,160; projection; the MLP input with its norm 1,677,762,560; the MLP output);
// two of the largest exceed stage3_max_live_parameters (1e9), so nothing is prefetched: weights (shard +
// 1,677,762,560) x 2; gradients the shard and two reduce buckets of 5e8.
TEST(Memory, ZeroThreeHoldsWhatTheStackHolds) {
  TrainingSpec spec;
  spec.model.layers = 105;
  spec.model.hidden = 20480;
  spec.model.heads = 128;
  spec.model.vocabulary = 51200;
  spec.model.sequence = 2048;
  spec.parallel.zero_stage = 3;
  spec.parallel.micro_batch = 4;
  spec.parallel.global_batch = 2560;
  spec.parallel.recompute = Recompute::full;
  const std::uint64_t shard = 827'405'504;
  // FSDP's knobs (configs/presets/stacks/fsdp.yaml): a unit at a time, one ahead.
  spec.stack.zero3_gather_elements = 0;
  spec.stack.zero3_prefetch = 1;
  spec.stack.zero3_reduce_elements = 0;
  spec.stack.zero3_max_live_elements = 0;
  MemoryBreakdown m = stage_memory(TrainingLayout(spec, 640), 0);
  EXPECT_EQ(m.parameters, 529'539'522'560u);
  EXPECT_EQ(m.weights, (shard + 2 * 5'033'246'720u) * 2);
  EXPECT_EQ(m.gradients, shard * 2 + 2 * 5'033'246'720u * 2);
  // DeepSpeed's (deepspeed.yaml).
  spec.stack.zero3_gather_elements = 50'000'000;
  spec.stack.zero3_reduce_elements = 500'000'000;
  spec.stack.zero3_max_live_elements = 1'000'000'000;
  m = stage_memory(TrainingLayout(spec, 640), 0);
  EXPECT_EQ(m.weights, (shard + 1'677'762'560u) * 2);
  EXPECT_EQ(m.gradients, shard * 2 + 2 * 500'000'000u * 2);
  EXPECT_EQ(m.optimizer_states, shard * 12);
}

TEST(Memory, WorkedExampleZeroStages) {
  const std::uint64_t params = 41'566'208, shard = params / 2, largest_unit = 16'384'000;  // the embedding
  struct Row {
    std::uint32_t zero;
    std::uint64_t weights, gradients, optimizer;
  };
  for (const Row& r : {Row{0, 2 * params, 2 * params, 12 * params},
                       Row{1, 2 * params, 2 * params, 12 * shard},
                       Row{3, 2 * (shard + 2 * largest_unit), 2 * (shard + 2 * largest_unit), 12 * shard}}) {
    SCOPED_TRACE(r.zero);
    const MemoryBreakdown m = stage_memory(worked_example(r.zero, Recompute::none), 0);
    EXPECT_EQ(m.parameters, params);
    EXPECT_EQ(m.weights, r.weights);
    EXPECT_EQ(m.gradients, r.gradients);
    EXPECT_EQ(m.optimizer_states, r.optimizer);
    EXPECT_EQ(m.communication_buffers, 3u * (64u << 20));
  }
  // ZeRO 2 adds two gradient buckets (25 MiB here) to the shard; buckets larger than half the gradients
  // (the default stack's 80 MB) hold at most all of them.
  TrainingSpec spec = worked_example(2, Recompute::none).spec();
  spec.stack.grad_bucket_bytes = 25u << 20;
  EXPECT_EQ(stage_memory(TrainingLayout(spec, 8), 0).gradients, 2 * shard + 2 * (25u << 20));
  spec.stack.grad_bucket_bytes = 80'000'000;
  EXPECT_EQ(stage_memory(TrainingLayout(spec, 8), 0).gradients, 2 * shard + 2 * params);
}

TEST(Memory, WorkedExampleRecomputePolicies) {
  const std::uint64_t mask = 1'048'576;  // embedding dropout, per chunk in flight on stage 0
  struct Row {
    Recompute policy;
    std::uint64_t stage0, stage1;
  };
  const std::uint64_t output = 135'266'304;
  for (const Row& r : {Row{Recompute::none, 2 * (4 * 119'537'664u + mask), 4 * 119'537'664u + output},
                       Row{Recompute::selective, 2 * (4 * 35'651'584u + mask), 4 * 35'651'584u + output},
                       // full: layer inputs only, plus one layer's activations while it is recomputed
                       Row{Recompute::full, 2 * (4 * 2'097'152u + mask) + 119'537'664u,
                           4 * 2'097'152u + output + 119'537'664u}}) {
    SCOPED_TRACE(static_cast<int>(r.policy));
    const auto stages = job_memory(worked_example(0, r.policy));
    ASSERT_EQ(stages.size(), 2u);
    EXPECT_EQ(stages[0].activations, r.stage0);
    EXPECT_EQ(stages[0].chunks_in_flight, 2u);
    EXPECT_EQ(stages[1].activations, r.stage1);
    EXPECT_EQ(stages[1].chunks_in_flight, 1u);
    EXPECT_EQ(stages[0].total(), stages[0].weights + stages[0].gradients + stages[0].optimizer_states +
                                     stages[0].activations + stages[0].communication_buffers);
  }
}

// The worked example with uneven stages, first_stage_layers 3: stage 0 holds layers 0-2, stage 1 the
// other 5 (8 - 3 over the one other stage).
// Parameters: stage 0 3 x 6,295,552 + 16,384,000 = 35,270,656; stage 1 5 x 6,295,552 + 2,048 +
// 16,384,000 = 47,863,808.
// Activations without recomputation (119,537,664 per layer): stage 0 keeps 2 micro-batches of 3 layers
// and the embedding mask, 2 x (358,612,992 + 1,048,576) = 719,323,136; stage 1 one micro-batch of 5
// layers and the output layer, 597,688,320 + 135,266,304 = 732,954,624.
TEST(Memory, WorkedExampleUnevenStages) {
  TrainingSpec spec = worked_example(0, Recompute::none).spec();
  spec.parallel.first_stage_layers = 3;
  const auto stages = job_memory(TrainingLayout(spec, 8));
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].parameters, 35'270'656u);
  EXPECT_EQ(stages[1].parameters, 47'863'808u);
  EXPECT_EQ(stages[0].weights, 2u * 35'270'656u);
  EXPECT_EQ(stages[1].optimizer_states, 12u * 47'863'808u);
  EXPECT_EQ(stages[0].activations, 719'323'136u);
  EXPECT_EQ(stages[0].chunks_in_flight, 2u);
  EXPECT_EQ(stages[1].activations, 732'954'624u);

  // Interleaved, 6 layers on 2 stages x 2 chunks with first_stage_layers 2: chunks 0 and 2 (stage 0) hold
  // 1 layer each, chunks 1 and 3 (stage 1) 2 each. Data 2 and global batch 8 leave m = 2 = P micro-batches:
  // every forward runs before the first backward, so each stage holds all 4 (chunk, micro-batch)
  // activations at once: stage 0 2 x (1 layer + embedding mask) + 2 x 1 layer = 4 x 119,537,664 +
  // 2 x 1,048,576 = 480,247,808; stage 1 2 x 2 layers + 2 x (2 layers + output layer) = 8 x 119,537,664 +
  // 2 x 135,266,304 = 1,226,833,920.
  spec.model.layers = 6;
  spec.parallel.virtual_stages = 2;
  spec.parallel.first_stage_layers = 2;
  spec.parallel.global_batch = 8;
  const auto interleaved = job_memory(TrainingLayout(spec, 8));
  EXPECT_EQ(interleaved[0].chunks_in_flight, 4u);
  EXPECT_EQ(interleaved[0].activations, 480'247'808u);
  EXPECT_EQ(interleaved[1].activations, 1'226'833'920u);
  EXPECT_EQ(interleaved[0].parameters, 2u * 6'295'552u + 16'384'000u);
  EXPECT_EQ(interleaved[1].parameters, 4u * 6'295'552u + 2'048u + 16'384'000u);
}

// The worked example with context parallelism: the small GPT, b = 2, TP 2 with SP, CP 4, no pipeline, DP 1
// on 8 devices, global batch 4 (m = 2). Each device holds s_q = 1024 / 4 = 256 tokens of every sequence,
// N = b s_q = 512 tokens.
//
// Ring attention's key/value block: k = b s_q 2 g_t d 2 = 2 x 256 x 2 x 8 x 64 x 2 = 1,048,576 bytes
// (g_t = 16 / 2 = 8 heads per TP rank, d = 1024 / 16 = 64). Forward: the block in hand and the one
// arriving, 2 blocks. Backward, C = 4: messages 0 and 1 carry a block, message 2 a block and the partial
// gradient of the block before, messages 3 and 4 a partial each: 1, 1, 2, 1, 1 blocks, and a device
// holds the one it computes with and the one arriving, at most 1 + 2 = 3 blocks = 3,145,728 bytes.
// Communicators: tensor, context and data (DP x CP = 4; the expert-data group is the data group):
// 3 x 64 MiB = 201,326,592; with the ring's buffers 204,472,320.
// Activations: 58,368 bytes per token per layer (the worked example's 119,537,664 over its 2,048
// tokens; attention still counts every key, s_kv = s) x 512 tokens = 29,884,416 per layer, 8 layers;
// embedding mask N h / t = 262,144; output layer N (4 h / t + 4 V / t) = 512 x 66,048 = 33,816,576;
// one micro-batch in flight: 273,154,048.
TEST(Memory, WorkedExampleContextParallelRingBuffers) {
  TrainingSpec spec = small_gpt();
  spec.parallel.fused_attention = false;  // the worked example's attention (ring buffers do not depend on it)
  spec.parallel.tensor = 2;
  spec.parallel.sequence_parallel = true;
  spec.parallel.context = 4;
  spec.parallel.micro_batch = 2;
  spec.parallel.global_batch = 4;
  const TrainingLayout l(spec, 8);
  EXPECT_EQ(workload::LayerCosts(l).kv_block_bytes(), 1'048'576u);  // the block the ring sends
  const MemoryBreakdown m = stage_memory(l, 0);
  EXPECT_EQ(m.ring_attention_buffers, 3'145'728u);
  EXPECT_EQ(m.communication_buffers, 201'326'592u + 3'145'728u);
  EXPECT_EQ(m.activations, 273'154'048u);
  EXPECT_EQ(m.chunks_in_flight, 1u);
  EXPECT_EQ(m.total(), m.weights + m.gradients + m.optimizer_states + m.activations + m.communication_buffers);

  // Other ring sizes (same micro-batch, so k = 2 x (1024 / C) x 2 x 8 x 64 x 2 = 4,194,304 / C bytes):
  //   C = 2: one message of one block in each pass: 1 block, 2,097,152;
  //   C = 8: messages 2 .. 6 carry a block and a partial: 4 blocks of 524,288, 2,097,152.
  // Grouped-query attention with 4 KV heads (g_t = 2) and C = 4: 3 blocks of 262,144.
  struct Row {
    std::uint32_t context, kv_heads;
    std::uint64_t buffers;
  };
  for (const Row& r : {Row{2, 16, 2'097'152}, Row{8, 16, 4 * 524'288}, Row{4, 4, 3 * 262'144}, Row{1, 16, 0}}) {
    SCOPED_TRACE(r.context);
    TrainingSpec other = spec;
    other.parallel.context = r.context;
    other.model.kv_heads = r.kv_heads;
    other.parallel.global_batch = 16 / (2 * r.context) * 2;  // 16 devices: DP = 16 / (T C), m = 1
    const TrainingLayout ol(other, 16);
    EXPECT_EQ(ring_attention_buffer_bytes(ol), r.buffers);
    EXPECT_EQ(stage_memory(ol, 0).ring_attention_buffers, r.buffers);
  }
  // Without context parallelism the worked example's buffers are the communicators' alone.
  EXPECT_EQ(stage_memory(worked_example(0, Recompute::none), 0).ring_attention_buffers, 0u);
}

TEST(Memory, KorthikantiFormulaWithoutSequenceParallelism) {
  // s b h (10 + 24 / t + 5 a s / (h t)) per layer: the 10 s b h of norms, inputs and dropout masks stay
  // replicated on every TP rank. Unfused attention, as in the paper.
  TrainingSpec spec = small_gpt();
  spec.parallel.fused_attention = false;
  spec.parallel.tensor = 4;
  spec.parallel.global_batch = 1;
  const TrainingLayout l(spec, 4);
  const double s = 1024, b = 1, h = 1024, a = 16, t = 4;
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::none),
            static_cast<std::uint64_t>(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))));
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::selective), static_cast<std::uint64_t>(s * b * h * (10 + 24 / t)));
  EXPECT_EQ(layer_activation_bytes(l, 0, Recompute::full), static_cast<std::uint64_t>(2 * s * b * h));
}

TEST(Memory, InterleavedFirstStageHoldsMoreChunks) {
  // Korthikanti et al.: the first stage of the interleaved schedule holds L (1 + (P - 1) / (P V))
  // layers' worth: P V + P - 1 = 11 chunks of L / 8 layers for P = 4, V = 2.
  TrainingSpec spec = small_gpt();
  spec.parallel.pipeline = 4;
  spec.parallel.virtual_stages = 2;
  spec.parallel.global_batch = 8;
  const auto stages = job_memory(TrainingLayout(spec, 4));
  EXPECT_EQ(stages[0].chunks_in_flight, 11u);
  EXPECT_EQ(stages[3].chunks_in_flight, 5u);  // warm-up 4, then one more before the first backward
  spec.parallel.virtual_stages = 1;
  const auto plain = job_memory(TrainingLayout(spec, 4));
  for (std::uint32_t s = 0; s < 4; ++s) EXPECT_EQ(plain[s].chunks_in_flight, 4u - s);
}

std::string oom_message(const TrainingSpec& spec, std::uint32_t devices) {
  try {
    (void)check_memory(TrainingLayout(spec, devices), h100_cluster(devices).accelerator);
  } catch (const InfeasibleJob& e) {
    return e.what();
  }
  return "";
}

TEST(MemoryCheck, FittingJobPasses) {
  TrainingSpec spec = small_gpt();
  EXPECT_EQ(check_memory(TrainingLayout(spec, 8), h100_cluster(8).accelerator), "");
}

TEST(MemoryCheck, OverflowNamesStageComponentsOverflowAndFittingKnobs) {
  // The 18.4B GPT of Narayanan et al. on 64 GPUs, TP 8, micro-batch 8, no recomputation: activations
  // of 40 layers x 8 sequences do not fit in 80 GiB.
  TrainingSpec spec = megatron_gpt(48, 6144, 40);
  spec.parallel.tensor = 8;
  spec.parallel.micro_batch = 8;
  spec.parallel.global_batch = 512;
  const std::string message = oom_message(spec, 64);
  ASSERT_FALSE(message.empty());
  const TrainingLayout l(spec, 64);
  const MemoryBreakdown m = stage_memory(l, 0);
  const std::uint64_t capacity = 80ULL << 30;
  ASSERT_GT(m.total(), capacity);
  EXPECT_EQ(message.find("workload: stage 0 of 1 needs " + format_gib(m.total()) +
                         " per device but h100-sxm5-80gb has 80.0 GiB: " + format_gib(m.total() - capacity) + " over"),
            0u)
      << message;
  for (const std::string& part :
       {"weights " + format_gib(m.weights), "gradients " + format_gib(m.gradients),
        "optimizer states " + format_gib(m.optimizer_states), "activations " + format_gib(m.activations),
        "communication buffers " + format_gib(m.communication_buffers)})
    EXPECT_NE(message.find(part), std::string::npos) << part << "\n" << message;
  // Recomputation and a smaller micro-batch fit. ZeRO cannot (activations dominate), and neither can a
  // deeper pipeline: 1F1B's first stage holds P micro-batches of L / P layers, L layers' worth.
  EXPECT_NE(message.find("fits with: workload.parallel.recompute: "), std::string::npos) << message;
  EXPECT_NE(message.find("workload.parallel.micro_batch: 4 ("), std::string::npos) << message;
  EXPECT_EQ(message.find("zero_stage"), std::string::npos) << message;
  EXPECT_EQ(message.find("pipeline"), std::string::npos) << message;
  // The recompute that fits, with its total.
  spec.parallel.recompute = Recompute::selective;
  const auto selective = job_memory(TrainingLayout(spec, 64));
  if (selective[0].total() <= capacity) {
    EXPECT_NE(message.find("workload.parallel.recompute: selective (" + format_gib(selective[0].total()) + ")"),
              std::string::npos)
        << message;
  } else {
    EXPECT_NE(message.find("workload.parallel.recompute: full ("), std::string::npos) << message;
  }
}

TEST(MemoryCheck, WarnOnlyReturnsTheMessage) {
  TrainingSpec spec = megatron_gpt(48, 6144, 40);
  spec.parallel.tensor = 8;
  spec.parallel.micro_batch = 8;
  spec.parallel.global_batch = 512;
  spec.memory_warn_only = true;
  const std::string warning = check_memory(TrainingLayout(spec, 64), h100_cluster(64).accelerator);
  EXPECT_EQ(warning.find("workload: stage 0 of 1 needs "), 0u);
}

TEST(MemoryCheck, NothingFitsSaysSo) {
  // GPT-3 175B on 8 devices: 175B x 16 bytes / 8 is far beyond 80 GiB whatever one knob does.
  TrainingSpec spec = megatron_gpt(96, 12288, 96);
  spec.parallel.tensor = 8;
  spec.parallel.global_batch = 8;
  const std::string message = oom_message(spec, 8);
  EXPECT_NE(message.find("no single change of recompute, zero_stage, sequence_parallel, tensor, pipeline, context or "
                         "micro_batch makes it fit"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace rackscale::models::memory::test

// The structure of the training programs: schedule order, dependencies, pipeline transfers that match,
// a deadlock-free run of every stage together, and the collectives of each parallelism.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "models/workload/model_parameters.hpp"
#include "models/workload/parameter_tensors.hpp"
#include "models/workload/training_plan.hpp"
#include "workload_test_support.hpp"

namespace rackscale::models::workload::test {
namespace {

using accelerator::CollectiveKind;
using accelerator::GroupKind;
using accelerator::Op;
using accelerator::OpKind;
using accelerator::Peer;
using accelerator::Phase;
using accelerator::Program;

TrainingPlan plan_for(const TrainingSpec& spec, std::uint32_t devices) {
  return build_training_plan(spec, h100_cluster(devices));
}

// A GPT of `layers` layers on a pipeline of `stages` x `virtual_stages`, one device per stage.
TrainingSpec pipeline_spec(std::uint32_t stages, std::uint32_t virtual_stages, std::uint32_t layers,
                           std::uint64_t micro_batches) {
  TrainingSpec s = small_gpt();
  s.model.layers = layers;
  s.parallel.pipeline = stages;
  s.parallel.virtual_stages = virtual_stages;
  s.parallel.global_batch = micro_batches;
  return s;
}

// The F/B order of a program, read from its QKV ops ("F3", or "F3a" with chunks): the order in which
// it runs the schedule's steps. `first_layers` are the first layer of each of the stage's chunks.
std::string step_order(const Program& p, const std::vector<std::uint32_t>& first_layers, bool chunks) {
  std::string out;
  for (const Op& op : p.ops) {
    if (op.kind != OpKind::compute || op.label != "qkv") continue;
    const auto it = std::find(first_layers.begin(), first_layers.end(), op.layer);
    if (it == first_layers.end()) continue;
    if (op.phase == Phase::recompute) continue;
    if (!out.empty()) out += ' ';
    out += (op.phase == Phase::forward ? 'F' : 'B') + std::to_string(op.micro_batch);
    if (chunks) out += static_cast<char>('a' + (it - first_layers.begin()));
  }
  return out;
}

TEST(Program, StagesRunTheOneFOneBOrder) {
  const TrainingPlan plan = plan_for(pipeline_spec(4, 1, 4, 8), 4);
  ASSERT_EQ(plan.programs.size(), 4u);
  EXPECT_EQ(step_order(plan.programs[0], {0}, false), "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7");
  EXPECT_EQ(step_order(plan.programs[1], {1}, false), "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7");
  EXPECT_EQ(step_order(plan.programs[2], {2}, false), "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 B7");
  EXPECT_EQ(step_order(plan.programs[3], {3}, false), "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7");
  EXPECT_EQ(plan.programs[2].role, "stage 2 of 4");
}

TEST(Program, StagesRunTheInterleavedOrder) {
  // 8 layers, 4 stages x 2 chunks: stage 0 holds layers 0 (chunk a) and 4 (chunk b).
  const TrainingPlan plan = plan_for(pipeline_spec(4, 2, 8, 8), 4);
  EXPECT_EQ(step_order(plan.programs[0], {0, 4}, true),
            "F0a F1a F2a F3a F0b F1b F2b F3b F4a F5a "
            "F6a B0b F7a B1b F4b B2b F5b B3b F6b B0a F7b B1a "
            "B2a B3a B4b B5b B6b B7b B4a B5a B6a B7a");
  EXPECT_EQ(step_order(plan.programs[3], {3, 7}, true),
            "F0a F1a F2a F3a "
            "F0b B0b F1b B1b F2b B2b F3b B3b F4a B0a F5a B1a F6a B2a F7a B3a F4b B4b F5b B5b F6b B6b F7b B7b "
            "B4a B5a B6a B7a");
}

std::vector<TrainingSpec> assorted_specs() {
  std::vector<TrainingSpec> specs;
  specs.push_back(pipeline_spec(4, 1, 4, 8));
  specs.push_back(pipeline_spec(4, 2, 8, 8));
  specs.push_back(pipeline_spec(2, 1, 8, 3));
  TrainingSpec recompute = pipeline_spec(4, 2, 8, 8);
  recompute.parallel.recompute = Recompute::full;
  specs.push_back(recompute);
  return specs;
}

TEST(Program, DependenciesPointBackwards) {
  TrainingSpec big = small_gpt();
  big.parallel.tensor = 2;
  big.parallel.context = 2;
  big.parallel.pipeline = 2;
  big.parallel.sequence_parallel = true;
  big.parallel.zero_stage = 3;
  big.parallel.recompute = Recompute::selective;
  const TrainingPlan plan = plan_for(big, 16);
  for (const Program& p : plan.programs) {
    for (std::size_t i = 0; i < p.ops.size(); ++i) {
      const Op& op = p.ops[i];
      ASSERT_LE(op.first_dependency + op.dependency_count, p.dependencies.size());
      for (std::uint32_t k = 0; k < op.dependency_count; ++k)
        EXPECT_LT(p.dependencies[op.first_dependency + k], i) << p.role << " op " << i;
      EXPECT_LT(op.stream, kStreams);
      EXPECT_EQ(op.stream == kComputeStream, op.kind == OpKind::compute);
    }
  }
}

// Every send has exactly one receive on the stage it names, with the same match id and size.
TEST(Program, SendsAndReceivesMatchAcrossNeighbouringStages) {
  for (const TrainingSpec& spec : assorted_specs()) {
    const std::uint32_t p = spec.parallel.pipeline;
    const TrainingPlan plan = plan_for(spec, p);
    using Transfer = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint64_t>;  // from, to, match, bytes
    std::multiset<Transfer> sends, recvs;
    for (std::uint32_t s = 0; s < p; ++s)
      for (const Op& op : plan.programs[s].ops) {
        const std::uint32_t next = (s + 1) % p, previous = (s + p - 1) % p;
        const std::uint32_t other = op.peer == Peer::next_stage ? next : previous;
        if (op.kind == OpKind::send) sends.insert({s, other, op.match, op.bytes});
        if (op.kind == OpKind::recv) recvs.insert({other, s, op.match, op.bytes});
        if (op.kind == OpKind::send || op.kind == OpKind::recv) {
          EXPECT_LT(op.match, plan.matches_per_iteration);
          EXPECT_EQ(op.bytes, 1u * 1024 * 1024 * 2);  // micro-batch 1 x 1024 tokens x hidden 1024 x 2 bytes
        }
      }
    EXPECT_EQ(sends, recvs);
    // Forward and backward, every micro-batch, every chunk boundary.
    const std::uint64_t boundaries = std::uint64_t{p} * spec.parallel.virtual_stages - 1;
    EXPECT_EQ(sends.size(), 2 * boundaries * spec.parallel.global_batch);
    // Match ids are unique within the iteration, whoever sends.
    std::set<std::uint32_t> ids;
    for (const auto& t : sends) ids.insert(std::get<2>(t));
    EXPECT_EQ(ids.size(), sends.size());
  }
}

// Runs every stage's program with instantaneous ops: an op completes once the op before it on its
// stream, its dependencies, and (for a receive) the matching send have completed. Every op must complete.
// The ranks of a CP ring run one program in lockstep, so a ring receive waits for the same program's
// send of its match id.
TEST(Program, AllStagesTogetherRunToCompletion) {
  std::vector<TrainingSpec> specs = assorted_specs();
  for (const Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
    TrainingSpec ring = pipeline_spec(2, 2, 8, 4);
    ring.parallel.context = 4;
    ring.parallel.recompute = recompute;
    specs.push_back(ring);
  }
  for (const TrainingSpec& spec : specs) {
    const std::uint32_t p = spec.parallel.pipeline;
    const TrainingPlan plan = plan_for(spec, p * spec.parallel.context);
    std::vector<std::vector<bool>> done(p);
    std::vector<std::vector<std::size_t>> next_on_stream(p, std::vector<std::size_t>(kStreams, 0));
    std::vector<std::vector<std::vector<std::size_t>>> streams(p, std::vector<std::vector<std::size_t>>(kStreams));
    std::set<std::pair<std::uint32_t, std::uint32_t>> sent;  // (receiving stage, match)
    std::size_t remaining = 0;
    for (std::uint32_t s = 0; s < p; ++s) {
      done[s].assign(plan.programs[s].ops.size(), false);
      remaining += plan.programs[s].ops.size();
      for (std::size_t i = 0; i < plan.programs[s].ops.size(); ++i)
        streams[s][plan.programs[s].ops[i].stream].push_back(i);
    }
    for (bool progress = true; progress && remaining > 0;) {
      progress = false;
      for (std::uint32_t s = 0; s < p; ++s) {
        const Program& prog = plan.programs[s];
        for (std::uint8_t st = 0; st < kStreams; ++st) {
          while (next_on_stream[s][st] < streams[s][st].size()) {
            const std::size_t i = streams[s][st][next_on_stream[s][st]];
            const Op& op = prog.ops[i];
            bool ready = true;
            for (std::uint32_t k = 0; k < op.dependency_count; ++k)
              ready = ready && done[s][prog.dependencies[op.first_dependency + k]];
            if (op.kind == OpKind::recv) ready = ready && sent.count({s, op.match}) > 0;
            if (!ready) break;
            if (op.kind == OpKind::send) {
              const std::uint32_t to = !accelerator::is_pipeline_peer(op.peer) ? s
                                       : op.peer == Peer::next_stage     ? (s + 1) % p
                                                                         : (s + p - 1) % p;
              sent.insert({to, op.match});
            }
            done[s][i] = true;
            ++next_on_stream[s][st];
            --remaining;
            progress = true;
          }
        }
      }
    }
    EXPECT_EQ(remaining, 0u) << "the stages deadlock (pipeline " << p << " x " << spec.parallel.virtual_stages << ")";
  }
}

// Tensor-group collectives of layer 0 in one micro-batch, by phase.
std::map<Phase, std::map<CollectiveKind, int>> tensor_collectives(const TrainingSpec& spec, std::uint32_t devices) {
  const TrainingPlan plan = plan_for(spec, devices);
  std::map<Phase, std::map<CollectiveKind, int>> count;
  for (const Op& op : plan.programs[0].ops)
    if (op.kind == OpKind::collective && op.group == GroupKind::tensor && op.layer == 0)
      ++count[op.phase][op.collective];
  return count;
}

TEST(Program, TensorParallelCollectivesPerLayer) {
  TrainingSpec spec = small_gpt();
  spec.parallel.tensor = 2;
  spec.parallel.global_batch = 1;
  // Without SP: an all-reduce after attention and after the MLP, forward and backward.
  auto c = tensor_collectives(spec, 2);
  EXPECT_EQ(c[Phase::forward], (std::map<CollectiveKind, int>{{CollectiveKind::all_reduce, 2}}));
  EXPECT_EQ(c[Phase::backward], (std::map<CollectiveKind, int>{{CollectiveKind::all_reduce, 2}}));
  // With SP: all-gather before and reduce-scatter after each block; the backward gathers the gradient
  // and, for the weight gradient, the block's input again.
  spec.parallel.sequence_parallel = true;
  c = tensor_collectives(spec, 2);
  EXPECT_EQ(c[Phase::forward],
            (std::map<CollectiveKind, int>{{CollectiveKind::all_gather, 2}, {CollectiveKind::reduce_scatter, 2}}));
  EXPECT_EQ(c[Phase::backward],
            (std::map<CollectiveKind, int>{{CollectiveKind::all_gather, 4}, {CollectiveKind::reduce_scatter, 2}}));
  // Full recomputation repeats the forward's collectives; the recomputed input needs no second gather.
  spec.parallel.recompute = Recompute::full;
  c = tensor_collectives(spec, 2);
  EXPECT_EQ(c[Phase::recompute],
            (std::map<CollectiveKind, int>{{CollectiveKind::all_gather, 2}, {CollectiveKind::reduce_scatter, 2}}));
  EXPECT_EQ(c[Phase::backward],
            (std::map<CollectiveKind, int>{{CollectiveKind::all_gather, 2}, {CollectiveKind::reduce_scatter, 2}}));
  // Sizes: b x s x h x 2 bytes.
  const TrainingPlan plan = plan_for(spec, 2);
  for (const Op& op : plan.programs[0].ops)
    if (op.kind == OpKind::collective && op.group == GroupKind::tensor) {
      EXPECT_EQ(op.bytes, 1024u * 1024 * 2);
    }
}

TEST(Program, CollectiveOnTheCriticalPathSitsBetweenItsComputeOps) {
  TrainingSpec spec = small_gpt();
  spec.parallel.tensor = 2;
  spec.parallel.global_batch = 1;
  const TrainingPlan plan = plan_for(spec, 2);
  const Program& p = plan.programs[0];
  int checked = 0;
  for (std::size_t i = 0; i + 1 < p.ops.size(); ++i) {
    if (p.ops[i].kind != OpKind::collective || p.ops[i].group != GroupKind::tensor) continue;
    EXPECT_EQ(p.ops[i].stream, kTensorStream);
    // It waits for the compute op just before it ...
    ASSERT_GE(p.ops[i].dependency_count, 1u);
    EXPECT_EQ(p.ops[p.dependencies[p.ops[i].first_dependency + p.ops[i].dependency_count - 1]].kind, OpKind::compute);
    // ... and the next compute op waits for it.
    std::size_t j = i + 1;
    while (p.ops[j].kind != OpKind::compute) ++j;
    const auto* first = &p.dependencies[p.ops[j].first_dependency];
    EXPECT_NE(std::find(first, first + p.ops[j].dependency_count, i), first + p.ops[j].dependency_count);
    ++checked;
  }
  EXPECT_EQ(checked, 8 * 4 + 2);  // 8 layers x (2 forward + 2 backward), embedding forward, logits backward
}

// Bytes of the DP gradient reductions, per group.
std::map<GroupKind, std::uint64_t> reduced_bytes(const Program& p, CollectiveKind kind) {
  std::map<GroupKind, std::uint64_t> bytes;
  for (const Op& op : p.ops)
    if (op.kind == OpKind::collective && op.stream == kDataStream && op.phase == Phase::backward &&
        op.collective == kind)
      bytes[op.group] += op.bytes;
  return bytes;
}

TEST(Program, DataParallelBucketsSumToTheLocalGradients) {
  TrainingSpec spec = small_gpt();
  spec.parallel.pipeline = 2;
  spec.parallel.virtual_stages = 2;
  spec.stack.grad_bucket_bytes = 5'000'000;
  spec.parallel.global_batch = 8;  // data 2, 4 micro-batches
  for (const bool overlap : {true, false})
    for (const std::uint32_t zero : {0u, 1u, 2u}) {
      SCOPED_TRACE(::testing::Message() << "overlap " << overlap << " zero " << zero);
      spec.stack.overlap_grad_reduce = overlap;
      spec.parallel.zero_stage = zero;
      const TrainingPlan plan = plan_for(spec, 4);
      for (std::uint32_t s = 0; s < 2; ++s) {
        const std::uint64_t local = local_stage_parameters(plan.layout, s).total() * 2;
        const auto kind = zero == 0 ? CollectiveKind::all_reduce : CollectiveKind::reduce_scatter;
        const auto bytes = reduced_bytes(plan.programs[s], kind);
        // ZeRO 2 keeps only a shard: it reduces every micro-batch's gradients.
        EXPECT_EQ(bytes.at(GroupKind::data), (zero == 2 ? 4 : 1) * local);
        EXPECT_EQ(bytes.size(), 1u);
        std::uint64_t largest = 0, gathered = 0;
        for (const Op& op : plan.programs[s].ops) {
          if (op.stream == kDataStream && op.phase == Phase::backward) largest = std::max(largest, op.bytes);
          if (op.stream == kDataStream && op.phase == Phase::optimizer) gathered += op.bytes;
        }
        EXPECT_LE(largest, spec.stack.grad_bucket_bytes);
        EXPECT_EQ(gathered, zero == 0 ? 0 : local);  // the updated parameters, ZeRO 1-2
      }
    }
}

TEST(Program, GradientBucketsStartDuringTheLastBackward) {
  TrainingSpec spec = small_gpt();
  spec.stack.grad_bucket_bytes = 5'000'000;
  spec.stack.overlap_grad_reduce = true;
  spec.parallel.global_batch = 8;  // data 2, 4 micro-batches
  const TrainingPlan plan = plan_for(spec, 2);
  const Program& p = plan.programs[0];
  // The first bucket is issued before the last backward compute op: it overlaps the backward pass.
  std::size_t first_bucket = p.ops.size(), last_backward = 0;
  for (std::size_t i = 0; i < p.ops.size(); ++i) {
    if (p.ops[i].stream == kDataStream && first_bucket == p.ops.size()) first_bucket = i;
    if (p.ops[i].kind == OpKind::compute && p.ops[i].phase == Phase::backward) last_backward = i;
  }
  EXPECT_LT(first_bucket, last_backward);
  EXPECT_EQ(p.ops[first_bucket].micro_batch, 3u);
  // Without overlap every bucket comes after the backward pass.
  spec.stack.overlap_grad_reduce = false;
  const TrainingPlan late = plan_for(spec, 2);
  const auto& ops = late.programs[0].ops;
  std::size_t late_first_bucket = ops.size(), late_last_backward = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].stream == kDataStream && late_first_bucket == ops.size()) late_first_bucket = i;
    if (ops[i].kind == OpKind::compute && ops[i].phase == Phase::backward) late_last_backward = i;
  }
  EXPECT_GT(late_first_bucket, late_last_backward);
  EXPECT_LT(late_first_bucket, ops.size());
}

TEST(Program, ZeroThreeGathersEachUnitAndReduceScattersItsGradients) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 2;
  spec.parallel.zero_stage = 3;
  spec.parallel.global_batch = 4;  // data 2, 2 micro-batches
  // One stream: the reduce-scatters queue behind the gathers (one process group); two: a stream each.
  for (const std::uint32_t streams : {1u, 2u}) {
    SCOPED_TRACE(streams);
    spec.stack.zero3_streams = streams;
    const TrainingPlan plan = plan_for(spec, 2);
    const std::uint8_t reduce_stream = streams == 1 ? kParamGatherStream : kDataStream;
    int gathers = 0, reduces = 0;
    std::uint64_t reduced = 0;
    for (const Op& op : plan.programs[0].ops) {
      if (op.kind != OpKind::collective) continue;
      EXPECT_EQ(op.group, GroupKind::data);
      if (op.collective == CollectiveKind::all_gather) {
        ++gathers;
        EXPECT_EQ(op.stream, kParamGatherStream);
      }
      if (op.collective == CollectiveKind::reduce_scatter) {
        ++reduces;
        reduced += op.bytes;
        EXPECT_EQ(op.stream, reduce_stream);
        EXPECT_EQ(op.phase, Phase::backward);
      }
      EXPECT_NE(op.phase, Phase::optimizer);  // no gather after the step
    }
    // 4 units (embedding, 2 layers, output layer) x 2 micro-batches x (forward + backward).
    EXPECT_EQ(gathers, 4 * 2 * 2);
    EXPECT_EQ(reduces, 4 * 2);
    EXPECT_EQ(reduced, 2 * local_stage_parameters(plan.layout, 0).total() * 2);
  }
}

// DeepSpeed-style buckets: the small GPT's layer holds (in use order) attention norm 2,048, QKV
// 3,145,728, projection 1,048,576, MLP norm 2,048, MLP in 4,194,304, MLP out 4,194,304 elements. With
// buckets of at least 4,000,000: [norm, QKV, projection] 4,196,352; [norm, MLP in] 4,196,352; [MLP out]
// 4,194,304. The embedding (32,000 x 1,024) and the output layer (norm 2,048 + 32,768,000) are a bucket
// each. Each bucket is gathered before the first op that uses it, in the forward pass and again in the
// backward, where the layer's buckets come in reverse.
TEST(Program, ZeroThreeBucketsFollowTheStack) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 1;
  spec.model.tied_embeddings = false;
  spec.parallel.zero_stage = 3;
  spec.parallel.global_batch = 2;  // data 2, 1 micro-batch
  spec.stack.zero3_gather_elements = 4'000'000;
  const TrainingLayout layout(spec, 2);
  std::vector<std::uint64_t> sizes;
  for (const GatherBucket& b : gather_buckets(layer_tensors(layout, 0), 4'000'000)) sizes.push_back(b.elements);
  EXPECT_EQ(sizes, (std::vector<std::uint64_t>{4'196'352, 4'196'352, 4'194'304}));
  const TrainingPlan plan = plan_for(spec, 2);
  std::vector<std::uint64_t> gathered;
  std::vector<std::string> first_users;
  const auto& ops = plan.programs[0].ops;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != OpKind::collective || ops[i].collective != CollectiveKind::all_gather) continue;
    gathered.push_back(ops[i].bytes / 2);
  }
  const std::vector<std::uint64_t> forward{32'768'000, 4'196'352, 4'196'352, 4'194'304, 32'770'048};
  std::vector<std::uint64_t> expected = forward;
  for (auto b : {32'770'048ULL, 4'194'304ULL, 4'196'352ULL, 4'196'352ULL, 32'768'000ULL}) expected.push_back(b);
  EXPECT_EQ(gathered, expected);
  EXPECT_EQ(largest_gather_elements(layout, 0), 32'770'048u);
  // Prefetch: one gather ahead by default; a cap of live elements below two of the largest stops it.
  EXPECT_EQ(zero3_prefetch_depth(layout, 0), 1u);
  spec.stack.zero3_max_live_elements = 60'000'000;
  EXPECT_EQ(zero3_prefetch_depth(TrainingLayout(spec, 2), 0), 0u);
  spec.stack.zero3_max_live_elements = 70'000'000;
  EXPECT_EQ(zero3_prefetch_depth(TrainingLayout(spec, 2), 0), 1u);
}

TEST(Program, ContextAndExpertParallelCollectives) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 4;
  spec.model.experts = 8;
  spec.model.top_k = 2;
  spec.model.dense_layers = 1;
  spec.parallel.context = 2;
  spec.parallel.expert = 4;
  spec.parallel.global_batch = 4;  // 8 devices: context 2 x data 4; one micro-batch per replica
  const TrainingPlan plan = plan_for(spec, 8);
  std::map<std::tuple<std::uint32_t, GroupKind, CollectiveKind, Phase>, int> count;
  for (const Op& op : plan.programs[0].ops)
    if (op.kind == OpKind::collective && op.layer != kNoLayer) ++count[{op.layer, op.group, op.collective, op.phase}];
  for (std::uint32_t layer = 0; layer < 4; ++layer) {
    SCOPED_TRACE(layer);
    // Ring attention is point-to-point, not collectives (Program.RingAttentionSendsBlocksRoundTheRing).
    EXPECT_EQ((count[{layer, GroupKind::context, CollectiveKind::all_gather, Phase::forward}]), 0);
    // Dispatch and combine around the experts of the MoE layers (all but the first).
    const int a2a = layer == 0 ? 0 : 2;
    EXPECT_EQ((count[{layer, GroupKind::expert, CollectiveKind::all_to_all, Phase::forward}]), a2a);
    EXPECT_EQ((count[{layer, GroupKind::expert, CollectiveKind::all_to_all, Phase::backward}]), a2a);
  }
  // Dense gradients over DP x CP (8 devices), expert gradients over the expert-data group (2).
  const auto bytes = reduced_bytes(plan.programs[0], CollectiveKind::all_reduce);
  const ParameterCount local = local_stage_parameters(plan.layout, 0);
  EXPECT_EQ(bytes.at(GroupKind::data), local.dense * 2);
  EXPECT_EQ(bytes.at(GroupKind::expert_data), local.expert * 2);
  EXPECT_EQ(plan.layout.group_size(GroupKind::data), 8u);
  EXPECT_EQ(plan.layout.group_size(GroupKind::expert_data), 2u);
}

// Ring attention with C = 4 on the small GPT (1024 tokens, 16 heads of 64, b = 1): each device holds
// s_q = 256 tokens; a key/value block is 256 x 2 x 16 x 64 x 2 bytes = 1 MiB (S). Per layer and
// micro-batch: forward, 3 sends of S (the blocks, C - 1 hops) and 4 attention steps of 256 keys each;
// backward, messages S (block 0), S (block 1), 2S (block 2 and the partial of step 1), S (partial of
// step 2), S (partial of step 3, home to its owner): the blocks and their gradients C - 1 hops each;
// 4 attention backward steps. Ids are unique and the sends and receives of each layer pair up.
// All-gather context parallelism on the ring test's job (small GPT, C = 4, b = 1, s_q = 256 tokens; a
// device's keys and values S = 256 x 2 x 16 x 64 x 2 = 1 MiB): per layer and micro-batch, an all-gather of
// the C blocks (4 MiB, the gathered size) before the forward attention, another before the backward one,
// and a reduce-scatter of their gradients (4 MiB) after it; no point-to-point transfers. The attention
// meets all 1,024 keys with the causal share of two 128-token chunks (one tile each) of 8: 1/2 + 1/16.
TEST(Program, AllGatherContextParallelismGathersKeysAndValues) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 2;
  spec.parallel.context = 4;
  spec.parallel.context_algorithm = ContextAlgorithm::all_gather;
  spec.parallel.global_batch = 2;
  const TrainingPlan plan = plan_for(spec, 4);
  std::map<std::tuple<CollectiveKind, Phase>, std::vector<std::uint64_t>> context;
  double attention_flops = 0;
  for (const Op& op : plan.programs[0].ops) {
    EXPECT_NE(op.kind, OpKind::send);
    EXPECT_NE(op.kind, OpKind::recv);
    if (op.kind == OpKind::collective && op.group == GroupKind::context)
      context[{op.collective, op.phase}].push_back(op.bytes);
    if (op.kind == OpKind::compute && op.label == "attention" && op.phase == Phase::forward)
      attention_flops += op.cost.flops;
  }
  const std::vector<std::uint64_t> four(4, 4u << 20);  // 2 micro-batches x 2 layers
  EXPECT_EQ((context[{CollectiveKind::all_gather, Phase::forward}]), four);
  EXPECT_EQ((context[{CollectiveKind::all_gather, Phase::backward}]), four);
  EXPECT_EQ((context[{CollectiveKind::reduce_scatter, Phase::backward}]), four);
  EXPECT_EQ(context.size(), 3u);
  EXPECT_DOUBLE_EQ(attention_flops, 2.0 * 2 * 4.0 * 256 * 1024 * 16 * 64 * (0.5 + 1.0 / 16));
  // The same work as the ring's 9/16 of every key (Program.RingAttentionSendsBlocksRoundTheRing).
  EXPECT_DOUBLE_EQ(0.5 + 1.0 / 16, 9.0 / 16);
  // Memory: the gathered keys and values and their gradients, 2 C blocks.
  EXPECT_EQ(plan.memory[0].ring_attention_buffers, 2u * 4 * (1u << 20));
}

TEST(Program, RingAttentionSendsBlocksRoundTheRing) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 2;
  spec.parallel.context = 4;
  spec.parallel.global_batch = 2;  // data 1: 2 micro-batches
  const TrainingPlan plan = plan_for(spec, 4);
  const std::uint64_t S = 256u * 2 * 16 * 64 * 2;
  ASSERT_EQ(S, 1u << 20);
  const Program& p = plan.programs[0];
  std::map<std::tuple<std::uint32_t, std::uint32_t, Phase>, std::vector<std::uint64_t>> sends;  // (mb, layer, phase)
  std::map<std::tuple<std::uint32_t, std::uint32_t, Phase>, int> steps;
  std::multiset<std::pair<std::uint32_t, std::uint64_t>> sent, received;  // (match, bytes)
  double attention_flops = 0;
  for (const Op& op : p.ops) {
    if (op.kind == OpKind::send) {
      EXPECT_EQ(op.peer, Peer::next_context);
      EXPECT_EQ(op.stream, kContextSendStream);
      sends[{op.micro_batch, op.layer, op.phase}].push_back(op.bytes);
      sent.insert({op.match, op.bytes});
      EXPECT_LT(op.match, plan.matches_per_iteration);
    }
    if (op.kind == OpKind::recv) {
      EXPECT_EQ(op.peer, Peer::previous_context);
      EXPECT_EQ(op.stream, kContextRecvStream);
      received.insert({op.match, op.bytes});
    }
    if (op.kind == OpKind::compute && op.label == "attention") {
      ++steps[{op.micro_batch, op.layer, op.phase}];
      if (op.phase == Phase::forward) attention_flops += op.cost.flops;
    }
  }
  EXPECT_EQ(sent, received);
  std::set<std::uint32_t> ids;
  for (const auto& s : sent) ids.insert(s.first);
  EXPECT_EQ(ids.size(), sent.size());
  EXPECT_EQ(sent.size(), 2u * 2 * (3 + 5));  // micro-batches x layers x (forward + backward)
  for (std::uint32_t mb = 0; mb < 2; ++mb)
    for (std::uint32_t layer = 0; layer < 2; ++layer) {
      EXPECT_EQ((sends[{mb, layer, Phase::forward}]), (std::vector<std::uint64_t>{S, S, S}));
      EXPECT_EQ((sends[{mb, layer, Phase::backward}]), (std::vector<std::uint64_t>{S, S, 2 * S, S, S}));
      EXPECT_EQ((steps[{mb, layer, Phase::forward}]), 4);
      EXPECT_EQ((steps[{mb, layer, Phase::backward}]), 4);
    }
  // The four steps of a layer meet every key once: 4 b s_q s a_t d = 4 x 256 x 1024 x 16 x 64 per layer
  // and micro-batch (s_kv = s, as without CP), of which the causal mask leaves the tiles a device would
  // compute alone: 8 tiles of 128 a side, 9/16 (step 0 on the device's own two chunks 3/4, the others 1/2).
  EXPECT_DOUBLE_EQ(attention_flops, 2.0 * 2 * 4.0 * 256 * 1024 * 16 * 64 * 9 / 16);
  // With selective recomputation the forward ring runs again in the backward pass, phase recompute.
  spec.parallel.recompute = Recompute::selective;
  const TrainingPlan selective = plan_for(spec, 4);
  int recompute_sends = 0;
  for (const Op& op : selective.programs[0].ops)
    if (op.kind == OpKind::send && op.phase == Phase::recompute) ++recompute_sends;
  EXPECT_EQ(recompute_sends, 2 * 2 * 3);
}

TEST(Program, StaysCompact) {
  // Ops per layer per micro-batch, with every feature on, stay in the tens. Ring attention adds ops in
  // proportion to C: per layer, 2 (C - 1) forward and up to 2 (C + 1) backward send/recv ops, with C - 1 more
  // attention steps each way (again for recomputation); here C = 2.
  TrainingSpec spec = small_gpt();
  spec.model.experts = 8;
  spec.model.top_k = 2;
  spec.parallel.tensor = 2;
  spec.parallel.context = 2;
  spec.parallel.expert = 2;
  spec.parallel.sequence_parallel = true;
  spec.parallel.recompute = Recompute::full;
  spec.parallel.zero_stage = 3;
  spec.parallel.global_batch = 4;
  const TrainingPlan plan = plan_for(spec, 8);
  const double per_layer_step = static_cast<double>(plan.programs[0].ops.size()) / (8.0 * 2.0);
  EXPECT_LT(per_layer_step, 70.0);
  EXPECT_GT(per_layer_step, 20.0);
}

TEST(Program, Fp8NeedsAnAcceleratorWithFp8) {
  TrainingSpec spec = small_gpt();
  spec.parallel.dtype = accelerator::DType::fp8;
  network::ClusterSpec cluster = h100_cluster(4);
  EXPECT_NO_THROW((void)build_training_plan(spec, cluster));
  cluster.accelerator.name = "a100";
  cluster.accelerator.peak_fp8_flops = 0;
  try {
    (void)build_training_plan(spec, cluster);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "workload.parallel.dtype: fp8 needs an accelerator with FP8 support; a100 has no "
                           "peak_fp8_flops");
  }
}

}  // namespace
}  // namespace rackscale::models::workload::test

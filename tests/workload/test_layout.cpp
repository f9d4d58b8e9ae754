// TrainingLayout: validation messages, device coordinates, groups and pipeline peers, worked out by hand.
#include <algorithm>
#include <functional>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/network/build_topology.hpp"
#include "models/network/topology/fat_tree_shape.hpp"
#include "models/workload/job_pods.hpp"
#include "models/workload/group_directory.hpp"
#include "models/workload/training_layout.hpp"
#include "workload_test_support.hpp"

namespace rackscale::models::workload::test {
namespace {

using accelerator::GroupKind;
using accelerator::Peer;
using Members = std::vector<std::uint32_t>;

std::string layout_error(const TrainingSpec& spec, std::uint64_t devices) {
  try {
    (void)TrainingLayout(spec, devices);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

struct BadLayout {
  const char* name;
  std::uint64_t devices;
  std::function<void(TrainingSpec&)> change;
  std::string message;
};

TEST(LayoutValidation, EachErrorNamesTheKeyAtFault) {
  const auto moe = [](TrainingSpec& s) {
    s.model.experts = 8;
    s.model.top_k = 2;
  };
  const std::vector<BadLayout> table{
      {"grid does not divide", 1000,
       [](TrainingSpec& s) {
         s.parallel.tensor = 8;
         s.parallel.pipeline = 16;
       },
       "workload.parallel.tensor: 8 x pipeline 16 x context 1 = 128 does not divide the 1000 devices"},
      {"heads vs tensor", 14,
       [](TrainingSpec& s) {
         s.model.heads = 96;
         s.model.hidden = 96 * 64;
         s.model.ffn_hidden = 7 * 1024;
         s.parallel.tensor = 7;
       },
       "workload.model.heads: 96 heads are not divisible by tensor 7"},
      {"explicit data", 8,
       [](TrainingSpec& s) {
         s.parallel.tensor = 2;
         s.parallel.pipeline = 2;
         s.parallel.data = 3;
       },
       "workload.parallel.data: tensor 2 x pipeline 2 x context 1 x data 3 = 12 devices, but the cluster has 8 "
       "(leave data out to use them all)"},
      {"global batch", 4, [](TrainingSpec& s) { s.parallel.global_batch = 10; },
       "workload.parallel.global_batch: 10 sequences are not divisible by micro_batch 1 x data 4 = 4"},
      {"micro batch", 2,
       [](TrainingSpec& s) {
         s.parallel.global_batch = 12;
         s.parallel.micro_batch = 4;
       },
       "workload.parallel.global_batch: 12 sequences are not divisible by micro_batch 4 x data 2 = 8"},
      {"layers vs stages", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.virtual_stages = 3;
       },
       "workload.model.layers: 8 layers are not divisible by pipeline 2 x virtual_stages 3 = 6 (for uneven stages "
       "set parallel.first_stage_layers, last_stage_layers or chunk_layers)"},
      // Uneven stages (small_gpt has 8 layers).
      {"first stage without a pipeline", 1, [](TrainingSpec& s) { s.parallel.first_stage_layers = 3; },
       "workload.parallel.first_stage_layers: uneven pipeline stages need pipeline > 1"},
      {"first + last above the layers", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 4;
         s.parallel.first_stage_layers = 5;
         s.parallel.last_stage_layers = 4;
       },
       "workload.parallel.first_stage_layers: first_stage_layers 5 + last_stage_layers 4 = 9 exceed the model's 8 "
       "layers"},
      {"last alone above the layers", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 4;
         s.parallel.last_stage_layers = 9;
       },
       "workload.parallel.last_stage_layers: 9 exceeds the model's 8 layers"},
      {"rest does not divide", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 4;
         s.parallel.first_stage_layers = 1;
         s.parallel.last_stage_layers = 2;
       },
       "workload.parallel.first_stage_layers: the 2 other stages x virtual_stages 1 = 2 model chunks share the "
       "remaining layers evenly: expected a multiple of 2, found 5 of the 8"},
      {"rest does not divide over the chunks", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.virtual_stages = 2;
         s.parallel.global_batch = 8;
         s.parallel.first_stage_layers = 3;
       },
       "workload.parallel.first_stage_layers: the 1 other stage x virtual_stages 2 = 2 model chunks share the "
       "remaining layers evenly: expected a multiple of 2, found 5 of the 8"},
      {"two stages, both given, not the layers", 2,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.first_stage_layers = 3;
         s.parallel.last_stage_layers = 4;
       },
       "workload.parallel.first_stage_layers: first_stage_layers 3 + last_stage_layers 4 = 7, expected the model's 8 "
       "layers (pipeline 2 has no other stages)"},
      {"middle stages left empty", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 4;
         s.parallel.first_stage_layers = 4;
         s.parallel.last_stage_layers = 4;
       },
       "workload.parallel.first_stage_layers: leaves model chunk 1 (stage 1, virtual stage 0) with no layers; only "
       "the first chunk (with the embedding) and the last (with the output layer) may have none"},
      {"first stage's later chunk empty", 2,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.virtual_stages = 2;
         s.parallel.global_batch = 8;
         s.parallel.first_stage_layers = 0;
       },
       "workload.parallel.first_stage_layers: leaves model chunk 2 (stage 0, virtual stage 1) with no layers; only "
       "the first chunk (with the embedding) and the last (with the output layer) may have none"},
      {"chunk list and first stage", 2,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.chunk_layers = {3, 5};
         s.parallel.first_stage_layers = 3;
       },
       "workload.parallel.chunk_layers: give either chunk_layers or first_stage_layers, not both"},
      {"chunk list length", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.virtual_stages = 2;
         s.parallel.global_batch = 8;
         s.parallel.chunk_layers = {3, 5};
       },
       "workload.parallel.chunk_layers: expected pipeline 2 x virtual_stages 2 = 4 entries (one per model chunk), "
       "found 2"},
      {"chunk list sum", 2,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 2;
         s.parallel.chunk_layers = {3, 4};
       },
       "workload.parallel.chunk_layers: expected entries summing to the model's 8 layers, found 7"},
      {"chunk list with an empty middle chunk", 3,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 3;
         s.parallel.global_batch = 3;
         s.parallel.chunk_layers = {4, 0, 4};
       },
       "workload.parallel.chunk_layers: leaves model chunk 1 (stage 1, virtual stage 0) with no layers; only the "
       "first chunk (with the embedding) and the last (with the output layer) may have none"},
      {"interleaving without a pipeline", 4, [](TrainingSpec& s) { s.parallel.virtual_stages = 2; },
       "workload.parallel.virtual_stages: interleaving needs pipeline > 1"},
      {"interleaved micro-batches", 4,
       [](TrainingSpec& s) {
         s.parallel.pipeline = 4;
         s.parallel.virtual_stages = 2;
         s.parallel.global_batch = 6;
       },
       "workload.parallel.global_batch: the interleaved schedule needs the micro-batches per replica (6 = 6 / "
       "(micro_batch 1 x data 1)) to be a multiple of pipeline 4"},
      {"expert without experts", 4, [](TrainingSpec& s) { s.parallel.expert = 2; },
       "workload.parallel.expert: expert parallelism needs a mixture-of-experts model (workload.model.experts > 0)"},
      {"expert does not divide dp x cp", 4,
       [&](TrainingSpec& s) {
         moe(s);
         s.parallel.expert = 3;
       },
       "workload.parallel.expert: 3 does not divide data 4 x context 1 = 4"},
      {"experts vs expert", 4,
       [&](TrainingSpec& s) {
         moe(s);
         s.model.experts = 6;
         s.parallel.expert = 4;
       },
       "workload.model.experts: 6 experts are not divisible by expert 4"},
      {"moe with tp needs sp", 8,
       [&](TrainingSpec& s) {
         moe(s);
         s.parallel.tensor = 2;
       },
       "workload.parallel.sequence_parallel: mixture-of-experts layers with tensor > 1 need sequence parallelism "
       "(as in Megatron-LM)"},
      {"kv heads vs tensor", 4,
       [](TrainingSpec& s) {
         s.model.kv_heads = 8;
         s.parallel.tensor = 4;
         s.model.heads = 24;
         s.model.hidden = 24 * 64;
         s.model.kv_heads = 6;
       },
       "workload.model.kv_heads: 6 kv_heads and tensor 4: one must divide the other (key/value heads are split "
       "over the TP group, or replicated when there are fewer)"},
      {"kv heads vs heads", 1, [](TrainingSpec& s) { s.model.kv_heads = 3; },
       "workload.model.kv_heads: 16 heads are not divisible by 3 kv_heads (each key/value head serves a whole number "
       "of query heads)"},
      {"hidden vs heads", 1, [](TrainingSpec& s) { s.model.hidden = 1000; },
       "workload.model.hidden: 1000 is not divisible by the 16 heads (the head dimension must be whole)"},
      {"ffn vs tensor", 8,
       [](TrainingSpec& s) {
         s.model.ffn_hidden = 1020;
         s.parallel.tensor = 8;
       },
       "workload.model.ffn_hidden: 1020 is not divisible by tensor 8"},
      {"sequence vs context", 6,
       [](TrainingSpec& s) {
         s.model.sequence = 1000;
         s.parallel.context = 3;
         s.parallel.global_batch = 2;
       },
       "workload.model.sequence: 1000 tokens are not divisible by 2 x context 3 = 6 (load-balanced ring attention "
       "cuts each sequence into 2 x context chunks)"},
      {"sequence vs sequence parallel", 4,
       [](TrainingSpec& s) {
         s.model.sequence = 1026;
         s.parallel.tensor = 4;
         s.parallel.sequence_parallel = true;
       },
       "workload.model.sequence: 1026 tokens / context 1 = 1026 are not divisible by tensor 4 (sequence "
       "parallelism splits them over the TP group)"},
      {"zero stage", 1, [](TrainingSpec& s) { s.parallel.zero_stage = 4; },
       "workload.parallel.zero_stage: expected 0 to 3, found 4"},
      {"sequence parallel without tensor", 1, [](TrainingSpec& s) { s.parallel.sequence_parallel = true; },
       "workload.parallel.sequence_parallel: needs tensor > 1 (it shards what tensor parallelism replicates)"},
      {"top_k above experts", 1,
       [&](TrainingSpec& s) {
         moe(s);
         s.model.top_k = 9;
       },
       "workload.model.top_k: expected 1 to 8 (the experts), found 9"},
      {"no devices", 0, [](TrainingSpec&) {}, "cluster.nodes: a training job needs at least one device"},
  };
  for (const auto& row : table) {
    SCOPED_TRACE(row.name);
    TrainingSpec spec = small_gpt();
    row.change(spec);
    EXPECT_EQ(layout_error(spec, row.devices), row.message);
  }
}

TEST(LayoutValidation, ResolvesDefaults) {
  TrainingSpec spec = small_gpt();
  spec.parallel.tensor = 2;
  spec.parallel.pipeline = 2;
  const TrainingLayout l(spec, 16);
  EXPECT_EQ(l.data(), 4u);
  EXPECT_EQ(l.model().kv_heads, 16u);
  EXPECT_EQ(l.model().ffn_hidden, 4096u);
  EXPECT_EQ(l.micro_batches(), 4u);  // 16 / (1 x 4)
  EXPECT_EQ(l.tokens_per_iteration(), 16u * 1024u);
  EXPECT_EQ(l.chunk_layers(0), 4u);
  EXPECT_EQ(l.chunk_first_layer(1), 4u);
  EXPECT_TRUE(l.even_stages());
  EXPECT_EQ(l.roles(), 2u);
  EXPECT_EQ(l.devices_per_role(), 8u);
}

// The layers of every model chunk, in model order.
std::vector<std::uint32_t> chunk_split(const TrainingLayout& l) {
  std::vector<std::uint32_t> counts;
  for (std::uint32_t k = 0; k < l.model_chunks(); ++k) {
    EXPECT_EQ(l.chunk_first_layer(k), std::accumulate(counts.begin(), counts.end(), 0u)) << "chunk " << k;
    counts.push_back(l.chunk_layers(k));
  }
  return counts;
}

TEST(LayoutStages, UnevenSplits) {
  TrainingSpec spec = small_gpt();
  spec.model.layers = 14;
  spec.parallel.pipeline = 4;
  spec.parallel.global_batch = 4;
  // First and last stage 2 layers, the two others (14 - 4) / 2 = 5.
  spec.parallel.first_stage_layers = 2;
  spec.parallel.last_stage_layers = 2;
  TrainingLayout l(spec, 4);
  EXPECT_EQ(chunk_split(l), (std::vector<std::uint32_t>{2, 5, 5, 2}));
  EXPECT_EQ(l.stage_layers(1), 5u);
  EXPECT_FALSE(l.even_stages());
  // Only the first: the three others share 12.
  spec.parallel.last_stage_layers.reset();
  EXPECT_EQ(chunk_split(TrainingLayout(spec, 4)), (std::vector<std::uint32_t>{2, 4, 4, 4}));

  // Llama 3 405B: 126 layers, 16 stages x 4 chunks, 7 on the first and last stages. Stage 0's chunks are
  // 0, 16, 32, 48 and get 1, 2, 2, 2 (the chunk with the embedding is the light one); stage 15's chunks
  // 15, 31, 47, 63 get 2, 2, 2, 1 (the one with the output layer is); the 14 x 4 others (126 - 14) / 56 = 2.
  TrainingSpec llama = small_gpt();
  llama.model.layers = 126;
  llama.parallel.pipeline = 16;
  llama.parallel.virtual_stages = 4;
  llama.parallel.global_batch = 16;
  llama.parallel.first_stage_layers = 7;
  llama.parallel.last_stage_layers = 7;
  const TrainingLayout ll(llama, 16);
  std::vector<std::uint32_t> expected(64, 2);
  expected[0] = 1;
  expected[63] = 1;
  EXPECT_EQ(chunk_split(ll), expected);
  EXPECT_EQ(ll.stage_layers(0), 7u);
  EXPECT_EQ(ll.stage_layers(7), 8u);
  EXPECT_EQ(ll.stage_layers(15), 7u);
  EXPECT_EQ(ll.chunk_first_layer(63), 125u);

  // Six layers on a first stage of 4 chunks: 1, 1, 2, 2 (the earliest chunks are short).
  TrainingSpec six = small_gpt();
  six.model.layers = 14;
  six.parallel.pipeline = 2;
  six.parallel.virtual_stages = 4;
  six.parallel.global_batch = 2;
  six.parallel.first_stage_layers = 6;
  EXPECT_EQ(chunk_split(TrainingLayout(six, 2)), (std::vector<std::uint32_t>{1, 2, 1, 2, 2, 2, 2, 2}));

  // An explicit list, with an empty first chunk (a stage of just the embedding).
  TrainingSpec list = small_gpt();
  list.parallel.pipeline = 3;
  list.parallel.global_batch = 3;
  list.parallel.chunk_layers = {0, 5, 3};
  EXPECT_EQ(chunk_split(TrainingLayout(list, 3)), (std::vector<std::uint32_t>{0, 5, 3}));
  // Even stages written out are even.
  list.parallel.chunk_layers = {4, 4};
  list.parallel.pipeline = 2;
  list.parallel.global_batch = 2;
  EXPECT_TRUE(TrainingLayout(list, 2).even_stages());
}

// 32 devices: TP 2 (fastest), CP 2, DP 2, PP 4 (slowest); with MoE, EP 2 inside DP x CP.
TrainingLayout grid_32(std::uint32_t virtual_stages = 1) {
  TrainingSpec spec = small_gpt();
  spec.model.experts = 4;
  spec.model.top_k = 2;
  spec.parallel.tensor = 2;
  spec.parallel.context = 2;
  spec.parallel.pipeline = 4;
  spec.parallel.expert = 2;
  spec.parallel.sequence_parallel = true;
  spec.parallel.virtual_stages = virtual_stages;
  spec.parallel.global_batch = 8;
  return TrainingLayout(spec, 32);
}

TEST(LayoutCoordinates, MegatronOrderTensorFastestThenContextDataPipeline) {
  const TrainingLayout l = grid_32();
  EXPECT_EQ(l.data(), 2u);
  // device = tp + 2 (cp + 2 (dp + 2 pp)); r = cp + 2 dp; ep = r mod 2; edp = r / 2.
  EXPECT_EQ(l.coordinates(0), (Coordinates{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(l.coordinates(1), (Coordinates{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(l.coordinates(2), (Coordinates{0, 1, 0, 0, 1, 0}));
  EXPECT_EQ(l.coordinates(4), (Coordinates{0, 0, 1, 0, 0, 1}));
  EXPECT_EQ(l.coordinates(7), (Coordinates{1, 1, 1, 0, 1, 1}));
  EXPECT_EQ(l.coordinates(8), (Coordinates{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(l.coordinates(13), (Coordinates{1, 0, 1, 1, 0, 1}));
  EXPECT_EQ(l.coordinates(31), (Coordinates{1, 1, 1, 3, 1, 1}));
  for (std::uint32_t d = 0; d < 32; ++d) {
    const Coordinates c = l.coordinates(d);
    EXPECT_EQ(l.device_at(c.tensor, c.context, c.data, c.pipeline), d);
    EXPECT_EQ(l.role_of(d), d / 8);
  }
  EXPECT_THROW((void)l.coordinates(32), std::out_of_range);
}

TEST(LayoutGroups, DeviceThirteenByHand) {
  const TrainingLayout l = grid_32();
  EXPECT_EQ(l.group(13, GroupKind::tensor), (Members{12, 13}));
  EXPECT_EQ(l.group(13, GroupKind::context), (Members{13, 15}));
  EXPECT_EQ(l.group(13, GroupKind::data), (Members{9, 11, 13, 15}));  // DP x CP, by cp + 2 dp
  EXPECT_EQ(l.group(13, GroupKind::expert), (Members{13, 15}));       // r = 2, 3
  EXPECT_EQ(l.group(13, GroupKind::expert_data), (Members{9, 13}));   // r = 0, 2
  EXPECT_EQ(l.group(13, GroupKind::pipeline), (Members{5, 13, 21, 29}));
  EXPECT_EQ(l.group(13, GroupKind::world).size(), 32u);
  EXPECT_EQ(l.rank_in_group(13, GroupKind::tensor), 1u);
  EXPECT_EQ(l.rank_in_group(13, GroupKind::data), 2u);
  EXPECT_EQ(l.rank_in_group(13, GroupKind::expert), 0u);
  EXPECT_EQ(l.rank_in_group(13, GroupKind::expert_data), 1u);
  EXPECT_EQ(l.rank_in_group(13, GroupKind::pipeline), 1u);
  EXPECT_EQ(l.group_size(GroupKind::data), 4u);
  EXPECT_EQ(l.group_size(GroupKind::expert_data), 2u);
}

// The rank's one copy of each group: every member gets the layout's list, members of one group share a
// copy, and a kind has as many copies as groups (32 devices over the group size).
TEST(LayoutGroups, TheDirectoryKeepsOneListPerGroup) {
  const TrainingLayout l = grid_32();
  GroupDirectory directory(l);
  for (const GroupKind kind : {GroupKind::tensor, GroupKind::context, GroupKind::data, GroupKind::expert,
                               GroupKind::expert_data, GroupKind::pipeline, GroupKind::world}) {
    std::set<const Members*> copies;
    for (std::uint32_t d = 0; d < 32; ++d) {
      const auto members = directory.group(d, kind);
      EXPECT_EQ(*members, l.group(d, kind));
      EXPECT_EQ(directory.group(members->front(), kind), members);
      copies.insert(members.get());
    }
    EXPECT_EQ(copies.size(), 32u / l.group(0, kind).size()) << static_cast<int>(kind);
  }
}

TEST(LayoutGroups, EveryDeviceInExactlyOneGroupOfEachKind) {
  const TrainingLayout l = grid_32();
  for (const GroupKind kind : {GroupKind::tensor, GroupKind::context, GroupKind::data, GroupKind::expert,
                               GroupKind::expert_data, GroupKind::pipeline, GroupKind::world}) {
    SCOPED_TRACE(static_cast<int>(kind));
    std::set<Members> groups;
    for (std::uint32_t d = 0; d < 32; ++d) {
      const Members g = l.group(d, kind);
      ASSERT_EQ(g.size(), l.group_size(kind));
      EXPECT_EQ(g[l.rank_in_group(d, kind)], d);
      EXPECT_TRUE(std::is_sorted(g.begin(), g.end()));
      for (const std::uint32_t member : g) EXPECT_EQ(l.group(member, kind), g);  // the same list on every member
      groups.insert(g);
    }
    std::vector<int> seen(32, 0);
    for (const auto& g : groups)
      for (const std::uint32_t member : g) ++seen[member];
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 32);
    EXPECT_EQ(groups.size() * l.group_size(kind), 32u);
  }
}

TEST(LayoutPeers, NextAndPreviousStage) {
  const TrainingLayout l = grid_32();
  EXPECT_EQ(l.peer(13, Peer::next_stage), 21u);
  EXPECT_EQ(l.peer(13, Peer::previous_stage), 5u);
  EXPECT_EQ(l.peer(5, Peer::previous_stage), std::nullopt);
  EXPECT_EQ(l.peer(5, Peer::next_stage), 13u);
  EXPECT_EQ(l.peer(29, Peer::next_stage), std::nullopt);
  // Interleaved: model chunk c P + 3 is followed by chunk (c + 1) P + 0, on stage 0.
  const TrainingLayout v = grid_32(2);
  EXPECT_EQ(v.peer(29, Peer::next_stage), 5u);
  EXPECT_EQ(v.peer(5, Peer::previous_stage), 29u);
  EXPECT_EQ(v.peer(13, Peer::next_stage), 21u);
  EXPECT_EQ(v.model_chunks(), 8u);
  EXPECT_EQ(v.chunk_layers(5), 1u);
  EXPECT_EQ(v.model_chunk(3, 1), 7u);
  // A single stage has no peers.
  TrainingSpec one = small_gpt();
  const TrainingLayout flat(one, 4);
  EXPECT_EQ(flat.peer(0, Peer::next_stage), std::nullopt);
}

}  // namespace
}  // namespace rackscale::models::workload::test

namespace rackscale::models::workload::test {
namespace {

// Issue 20, item 5: pods are settable, and Megatron's device order keeps a pipeline stage's T x C x D
// devices contiguous, so a data-parallel group sits inside one pod whenever the pods hold whole stages
// (the framework's placement: DP inside a pod where it fits). Derived pods are sized so for a training
// job (job_pods.hpp); set pods are taken as set.
//
// The pod of each device, read from the built topology alone: the device's NIC cable goes to its leaf,
// and the leaves of one pod are cabled to the same spines, so a pod is known by its lowest spine.
std::vector<network::NodeId> pods_from_topology(const network::Topology& t) {
  std::vector<network::NodeId> pod(t.device_count(), network::kNoNode);
  for (std::uint32_t d = 0; d < t.device_count(); ++d) {
    for (const network::Port& nic : t.ports_of(t.devices[d])) {
      if (nic.link_class != network::LinkClass::nic) continue;
      for (const network::Port& up : t.ports_of(nic.peer))
        if (up.link_class == network::LinkClass::leaf_spine) pod[d] = std::min(pod[d], up.peer);
    }
  }
  return pod;
}

// The data-parallel groups whose members are not all under one pod.
std::uint32_t data_groups_across_pods(const network::ClusterSpec& cluster, const TrainingLayout& layout) {
  const std::vector<network::NodeId> pod = pods_from_topology(network::build_topology(cluster, network::RoutingMode::ecmp));
  std::uint32_t across = 0;
  for (std::uint32_t device = 0; device < layout.devices(); ++device) {
    if (layout.rank_in_group(device, GroupKind::data) != 0) continue;  // each group once
    const Members members = layout.group(device, GroupKind::data);
    EXPECT_NE(pod[device], network::kNoNode);
    across += std::any_of(members.begin(), members.end(), [&](std::uint32_t m) { return pod[m] != pod[device]; });
  }
  return across;
}

// 40-port HDR switches, 1:1 at the leaves (20 NICs, 20 up) and 2:1 at the spines: a spine serves at
// most 26 leaves (26 down + 13 up <= 40).
network::ClusterSpec hdr_cluster(std::uint32_t nodes) {
  network::ClusterSpec c;
  c.nodes = nodes;
  c.devices_per_node = 8;
  c.nics_per_node = 8;
  c.nodes_per_rack = 4;
  c.scale_out.kind = network::ScaleOutKind::fat_tree;
  c.scale_out.switch_spec.radix = 40;
  c.scale_out.switch_spec.port_bandwidth = 25e9;
  c.scale_out.fat_tree.oversubscription = {1, 2};
  c.nic.bandwidth = 25e9;
  return c;
}

// GPT-3 on 1,024 A100s (TP 8, PP 16, DP 8: stages of 64 devices), 52 leaves, by hand. Pods from the
// radix alone: 26 leaves = 520 NICs (two pods), which cut stage 8 (512-575): 8 DP groups. Sized to
// the job: the most leaves <= 26 whose 20 x L NICs are a multiple of 64 is L = 16 (320 NICs = 5
// stages): 4 pods of 16, 16, 16 and 4 leaves, and no DP group leaves its pod. Above a 1:1 spine tier
// the pods stay as the radix gives them (crossing a pod costs no bandwidth there).
TEST(Layout, DerivedPodsHoldWholeDataParallelGroups) {
  network::ClusterSpec c = hdr_cluster(128);
  TrainingSpec spec = megatron_gpt(96, 12288, 96);
  spec.parallel.tensor = 8;
  spec.parallel.pipeline = 16;
  spec.parallel.global_batch = 1536;
  const TrainingLayout layout(spec, c.devices());
  ASSERT_EQ(layout.group_size(GroupKind::data), 8u);

  EXPECT_EQ(network::plan_fat_tree(c, 0).pods, 2u);  // not told of the job: 520 and 504 NICs
  EXPECT_EQ(data_groups_across_pods(c, layout), 8u);

  align_pods_to_job(c, spec);
  EXPECT_EQ(c.scale_out.fat_tree.job_group_endpoints, std::vector<std::uint32_t>{64});
  const network::FatTreeShape shape = network::plan_fat_tree(c, 0);
  EXPECT_EQ(shape.leaves_per_pod, 16u);
  EXPECT_EQ(shape.pods, 4u);
  EXPECT_EQ(shape.pod_group_endpoints, 64u);
  EXPECT_EQ(data_groups_across_pods(c, layout), 0u);

  // Pods set by hand are kept: 520 NICs cut the same 8 groups.
  c.scale_out.fat_tree.pod_endpoints = 520;
  EXPECT_EQ(network::plan_fat_tree(c, 0).pods, 2u);
  EXPECT_EQ(data_groups_across_pods(c, layout), 8u);

  // 1:1 above the pods: 20 leaves per pod (400 NICs) as the radix gives them, 16 groups across.
  c.scale_out.fat_tree.pod_endpoints = 0;
  c.scale_out.fat_tree.oversubscription = {1, 1};
  EXPECT_EQ(network::plan_fat_tree(c, 0).leaves_per_pod, 20u);
  EXPECT_EQ(network::plan_fat_tree(c, 0).pod_group_endpoints, 0u);
  EXPECT_EQ(data_groups_across_pods(c, layout), 16u);
}

// The fallback, by hand. A 145.6B GPT on 1,536 A100s (TP 8, PP 8, DP 24: stages of 192 devices) on the
// same switches: a pod of L leaves holds 20 L NICs, a multiple of 192 only for L a multiple of 48, more
// than the 26 a spine serves; the job has no other group that leaves a node. The pods stay as the radix
// gives them (77 leaves: 26, 26, 25; 520, 520 and 496 NICs) and the ranks keep Megatron's order: the
// boundaries at 520 and 1,040 cut stages 2 and 5, 8 DP groups each.
TEST(Layout, PodsThatCannotHoldWholeGroupsStayAsTheRadixGivesThem) {
  network::ClusterSpec c = hdr_cluster(192);
  TrainingSpec spec = megatron_gpt(96, 12288, 96);
  spec.parallel.tensor = 8;
  spec.parallel.pipeline = 8;
  spec.parallel.global_batch = 1536;
  const TrainingLayout layout(spec, c.devices());
  ASSERT_EQ(layout.devices_per_role(), 192u);
  align_pods_to_job(c, spec);
  EXPECT_EQ(c.scale_out.fat_tree.job_group_endpoints, std::vector<std::uint32_t>{192});
  const network::FatTreeShape shape = network::plan_fat_tree(c, 0);
  EXPECT_EQ(shape.leaves_per_pod, 26u);
  EXPECT_EQ(shape.pods, 3u);
  EXPECT_EQ(shape.pod_group_endpoints, 0u);
  EXPECT_EQ(data_groups_across_pods(c, layout), 16u);
}

// Context parallelism: when no pod can hold whole stages, pods hold whole CP groups instead. TP 8 x CP 4
// x DP 8 x PP 4 on 1,024 A100s: stages of 256 NICs need 20 L = 256 k, L a multiple of 64 (> 26), so the
// CP groups' 32 NICs decide: L = 24 (480 NICs = 15 CP groups), 52 leaves in 3 pods.
TEST(Layout, DerivedPodsFallBackToContextParallelGroups) {
  network::ClusterSpec c = hdr_cluster(128);
  TrainingSpec spec = megatron_gpt(32, 4096, 32);
  spec.parallel.tensor = 8;
  spec.parallel.context = 4;
  spec.parallel.pipeline = 4;
  spec.model.sequence = 8192;
  spec.parallel.global_batch = 64;
  const TrainingLayout layout(spec, c.devices());
  ASSERT_EQ(layout.devices_per_role(), 256u);
  align_pods_to_job(c, spec);
  EXPECT_EQ(c.scale_out.fat_tree.job_group_endpoints, (std::vector<std::uint32_t>{256, 32}));
  const network::FatTreeShape shape = network::plan_fat_tree(c, 0);
  EXPECT_EQ(shape.leaves_per_pod, 24u);
  EXPECT_EQ(shape.pod_group_endpoints, 32u);
  EXPECT_EQ(shape.pods, 3u);
  const std::vector<network::NodeId> pod =
      pods_from_topology(network::build_topology(c, network::RoutingMode::ecmp));
  for (std::uint32_t device = 0; device < layout.devices(); ++device) {
    for (const std::uint32_t m : layout.group(device, GroupKind::context)) EXPECT_EQ(pod[m], pod[device]) << device;
  }
}

}  // namespace
}  // namespace rackscale::models::workload::test

#pragma once
// Small specs and clusters shared by the workload tests.
#include <cstdint>
#include <string>

#include "models/network/cluster_spec.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::models::workload::test {

// A small GPT: 8 layers, hidden 1024, 16 heads, 4h GeLU MLP, vocabulary 32000, 1024 tokens.
inline TrainingSpec small_gpt() {
  TrainingSpec s;
  s.model.name = "small-gpt";
  s.model.layers = 8;
  s.model.hidden = 1024;
  s.model.heads = 16;
  s.model.vocabulary = 32000;
  s.model.sequence = 1024;
  s.parallel.global_batch = 16;
  s.parallel.micro_batch = 1;
  return s;
}

// A GPT row of Narayanan et al. 2021, Table 1 (vocabulary 51200, sequence 2048), with the unfused attention
// of that paper (it predates FlashAttention): every score is computed, the causal mask applied after.
inline TrainingSpec megatron_gpt(std::uint32_t heads, std::uint32_t hidden, std::uint32_t layers) {
  TrainingSpec s;
  s.parallel.fused_attention = false;
  s.model.layers = layers;
  s.model.hidden = hidden;
  s.model.heads = heads;
  s.model.vocabulary = 51200;
  s.model.sequence = 2048;
  return s;
}

// `devices` H100s, 8 per node.
inline network::ClusterSpec h100_cluster(std::uint32_t devices) {
  network::ClusterSpec c;
  c.devices_per_node = devices < 8 ? devices : 8;
  c.nodes = devices / c.devices_per_node;
  c.accelerator.name = "h100-sxm5-80gb";
  c.accelerator.peak_bf16_flops = 989.4e12;
  c.accelerator.peak_fp8_flops = 1979e12;
  c.accelerator.memory_bytes = 80ULL << 30;
  c.accelerator.memory_bandwidth = 3.35e12;
  return c;
}

}  // namespace rackscale::models::workload::test

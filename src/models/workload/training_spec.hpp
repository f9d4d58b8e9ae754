#pragma once
// A training job as a scenario describes it: the transformer, how it is parallelized, and the batch.
// src/io/config fills these from `workload: {type: training, model: ..., parallel: ...}`; the workload
// generator (models/workload/training_plan.hpp) turns them into device programs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/accelerator/compute_variability.hpp"
#include "models/vocabulary/program.hpp"
#include "models/collectives/bench_sizes.hpp"
#include "models/workload/stack_spec.hpp"

namespace rackscale::models::workload {

enum class Activation : std::uint8_t {
  gelu,    // MLP of two matrices: h -> ffn -> h
  swiglu,  // gated MLP of three matrices: h -> 2 x ffn (gate, up) -> h
};

struct TransformerSpec {
  std::string name;
  std::uint32_t layers = 0;
  std::uint32_t hidden = 0;
  std::uint32_t heads = 0;
  std::uint32_t kv_heads = 0;      // 0: = heads (multi-head attention); fewer: grouped-query attention
  std::uint32_t ffn_hidden = 0;    // 0: 4 x hidden
  Activation activation = Activation::gelu;
  std::uint32_t vocabulary = 0;
  std::uint32_t sequence = 0;      // tokens per sequence
  // A causal (decoder) language model: a query attends to the keys at or before its position. Fused
  // attention then skips the masked tiles (half the work for long sequences), and the model FLOPs count
  // causal attention (6 L h s per token instead of 12 L h s).
  bool causal = true;
  bool tied_embeddings = true;     // input embedding and output layer share weights
  // Mixture of experts (experts == 0: dense).
  std::uint32_t experts = 0;
  std::uint32_t top_k = 1;                // experts per token
  std::uint32_t moe_ffn_hidden = 0;       // per expert; 0: ffn_hidden
  std::uint32_t shared_experts = 0;       // always-active experts per MoE layer
  std::uint32_t dense_layers = 0;         // the first layers are dense (DeepSeek-V3: 3)
  double capacity_factor = 1.0;           // tokens an expert accepts, relative to an even split
};

enum class Recompute : std::uint8_t {
  none,       // keep every activation for the backward pass
  selective,  // recompute attention's softmax/dropout internals (Korthikanti et al. 2022)
  full,       // keep only each layer's input; recompute the layer's forward in the backward pass
};

// How context parallelism shares keys and values (both with the load-balanced causal split: each device
// holds chunks i and 2C - 1 - i of the 2C chunks of every sequence).
enum class ContextAlgorithm : std::uint8_t {
  ring,        // ring attention: key/value blocks passed round the CP group, one step each (Megatron-LM/TE p2p)
  all_gather,  // all-gather every device's keys and values before attention, reduce-scatter their
               // gradients after its backward (Llama 3's context parallelism; TE's all_gather variant)
};

struct ParallelSpec {
  std::uint32_t tensor = 1;         // TP
  std::uint32_t pipeline = 1;       // PP
  std::uint32_t data = 0;           // DP; 0: devices / (TP x PP x CP)
  std::uint32_t context = 1;        // CP
  ContextAlgorithm context_algorithm = ContextAlgorithm::ring;
  std::uint32_t expert = 1;         // EP (MoE only); divides DP x CP
  bool sequence_parallel = false;   // SP: TP all-reduces become reduce-scatter + all-gather
  std::uint32_t virtual_stages = 1; // interleaved 1F1B when > 1 (stages per device)
  // Uneven pipeline stages (Megatron-LM's --decoder-first/last-pipeline-num-layers; Llama 3 405B gives its
  // first and last stages one layer fewer to balance the embedding and the output layer): transformer
  // layers of the first / last pipeline stage, the other stages sharing the rest evenly. Or, for anything
  // irregular, every model chunk's layers in model order (chunk k = c P + s), P x V entries. Unset and
  // empty: L / (P V) layers per chunk. TrainingLayout states how a stage's layers spread over its chunks.
  std::optional<std::uint32_t> first_stage_layers;
  std::optional<std::uint32_t> last_stage_layers;
  std::vector<std::uint32_t> chunk_layers;
  std::uint32_t zero_stage = 0;     // 0-3 (ZeRO-3 = FSDP)
  Recompute recompute = Recompute::none;
  std::uint64_t global_batch = 0;   // sequences per iteration
  std::uint64_t micro_batch = 1;    // sequences per micro-batch
  accelerator::DType dtype = accelerator::DType::bf16;  // matrix products; weights and activations in bf16
  // Fused (flash) attention keeps the score matrix on chip; unfused attention (Megatron-LM before
  // FlashAttention, e.g. Narayanan et al. 2021) writes it to HBM and reads it back around the softmax
  // and dropout kernels.
  bool fused_attention = true;
};

// Which data-parallel replicas the event engine simulates (workload.simulated_replicas; docs/models.md,
// "One replica for all"): every one, or replica 0 standing for all of them (network/replica_mirror.hpp).
enum class SimulatedReplicas : std::uint8_t { all, one };

struct TrainingSpec {
  TransformerSpec model;
  ParallelSpec parallel;
  StackSpec stack;  // how the framework schedules communication (stack_spec.hpp)
  std::uint32_t iterations = 1;       // iterations simulated
  bool memory_warn_only = false;      // a job that does not fit: warn instead of stopping
  SimulatedReplicas simulated_replicas = SimulatedReplicas::all;
  // Slow devices and kernel jitter (workload.variability; accelerator/compute_variability.hpp).
  accelerator::VariabilitySpec variability;
};

// An nccl-tests style sweep: one collective over the first `devices` devices at every size from
// min_bytes to max_bytes (nccl-tests' -b, -e, -f and -i; collectives/bench_sizes.hpp), reported as
// nccl-tests reports it.
struct CollectiveBenchSpec {
  accelerator::CollectiveKind op = accelerator::CollectiveKind::all_reduce;
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = 8ULL << 30;
  std::uint64_t step_factor = 2;          // each size times this; 1: plus step_bytes instead
  std::uint64_t step_bytes = 1ULL << 20;  // used when step_factor is 1
  collectives::DataType data_type = collectives::DataType::float32;
  collectives::ReduceOp redop = collectives::ReduceOp::sum;  // ops that reduce (accelerator::reduces)
  std::uint32_t root = 0;                                    // ops with a root (accelerator::has_root)
  std::uint32_t devices = 0;  // 0: every device of the cluster
  accelerator::Algorithm algorithm = accelerator::Algorithm::automatic;
  // Parallel rings (tree: tree pairs) the call's data is split over, as NCCL_MIN_NCHANNELS and
  // NCCL_MAX_NCHANNELS set both to it; 0: the collectives model's default (collectives::CollectiveOptions).
  std::uint32_t channels = 0;
};

}  // namespace rackscale::models::workload

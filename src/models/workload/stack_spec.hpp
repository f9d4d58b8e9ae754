#pragma once
// The software stack a training job runs on: how its framework schedules communication around compute.
// Two jobs with the same model and parallel layout behave differently under Megatron-LM, DeepSpeed or
// PyTorch FSDP because each framework issues its pipeline transfers, data-parallel reductions and ZeRO-3
// parameter gathers its own way. Presets in configs/presets/stacks/ (megatron_lm, megatron_core,
// deepspeed, fsdp) hold each framework's documented defaults with their sources; `workload.stack` names
// one and may set any knob by hand. docs/models.md ("Software stacks") states what each knob does.
#include <cstdint>
#include <string>

namespace rackscale::models::workload {

// How a stage sends activations and gradients to its neighbours.
enum class PipelineTransfers : std::uint8_t {
  // On communication streams of their own, overlapping the stage's compute; the consumer waits for the
  // receive (Megatron-LM's batched isend/irecv, waited for only where the data is needed).
  overlapped,
  // In the compute stream's order: the stage computes nothing while a send or a receive runs, as
  // DeepSpeed's pipeline engine executes SendActivation / RecvGrad ... as blocking instructions between
  // its ForwardPass and BackwardPass instructions.
  blocking,
};

struct StackSpec {
  std::string name = "megatron_core";
  // Whether the framework has an interleaved (virtual-stage) 1F1B schedule; without one,
  // parallel.virtual_stages must be 1.
  bool interleaved_schedule = true;
  PipelineTransfers pipeline_transfers = PipelineTransfers::overlapped;
  // ZeRO 0-2: start a gradient bucket's data-parallel reduction as soon as its gradients exist, during
  // the backward pass; otherwise everything is reduced after the backward pass (after the pipeline flush).
  bool overlap_grad_reduce = false;
  // Bytes of gradients per data-parallel reduction (ZeRO 0-2); 0: the whole gradient buffer in one.
  std::uint64_t grad_bucket_bytes = 80'000'000;
  // ZeRO-3. Parameters are gathered in collectives of at least this many elements (consecutive parameter
  // tensors in execution order, a tensor never split; DeepSpeed's stage3_prefetch_bucket_size); 0: one
  // collective per unit (a transformer layer, the embedding, the output layer: FSDP's flat parameter).
  std::uint64_t zero3_gather_elements = 0;
  // Gathers that may run ahead of the one the compute units are using (0: each gather starts only when
  // the compute before its first user has finished; FSDP's forward/backward prefetch with
  // limit_all_gathers: 1).
  std::uint32_t zero3_prefetch = 1;
  // Gradients are reduce-scattered in collectives of at least this many elements (DeepSpeed's
  // reduce_bucket_size); 0: one per unit.
  std::uint64_t zero3_reduce_elements = 0;
  // At most this many gathered parameter elements live at once (DeepSpeed's stage3_max_live_parameters):
  // prefetching stops short of it; 0: no limit beyond zero3_prefetch.
  std::uint64_t zero3_max_live_elements = 0;
  // Streams the ZeRO-3 gathers and reduce-scatters run on: 1 when both go through one process group
  // (one NCCL communicator, whose operations PyTorch's ProcessGroupNCCL runs in issue order on one
  // stream), 2 when they can run at once.
  std::uint32_t zero3_streams = 1;
};

}  // namespace rackscale::models::workload

#pragma once
// The order in which one pipeline stage runs the forward and backward passes of its micro-batches.
//
// V = 1: 1F1B (PipeDream-Flush; Narayanan et al. 2021, Fig. 3): stage s of P runs min(P - s - 1, m)
// warm-up forwards, then alternates one forward and one backward, then runs the remaining backwards.
//
// V > 1: interleaved 1F1B (Narayanan et al. 2021, Fig. 4), exactly as Megatron-LM's
// forward_backward_pipelining_with_interleaving orders it. The device's forward passes run in groups
// of P micro-batches per model chunk: forward number k is chunk (k / P) mod V on micro-batch
// (k / (P V)) x P + k mod P; backward number k the same with the chunk order reversed. Warm-up:
// (P - s - 1) x 2 + (V - 1) x P forwards (all m V of them when m = P), capped at m V; then one
// forward and one backward alternately; then the remaining backwards. m must be a multiple of P.
#include <cstdint>
#include <vector>

namespace rackscale::models::workload {

struct PipelineStep {
  bool forward = true;
  std::uint32_t virtual_stage = 0;  // the device's model chunk index c (model chunk c x P + stage)
  std::uint32_t micro_batch = 0;

  friend bool operator==(const PipelineStep&, const PipelineStep&) = default;
};

// The steps of `stage` (0-based) of `stages`, with `virtual_stages` chunks per device and
// `micro_batches` micro-batches per iteration: every (chunk, micro-batch) once forward, once backward.
[[nodiscard]] std::vector<PipelineStep> pipeline_schedule(std::uint32_t stages, std::uint32_t virtual_stages,
                                                          std::uint64_t micro_batches, std::uint32_t stage);

// What a stage holds after each of its forward steps: per model chunk, the forwards whose backward has not
// run yet. `counts` holds, `chunks` numbers at a time, each distinct such vector once, in the order the
// schedule first reaches it (later repeats cannot raise a peak). A weighted sum over one of them is what a
// walk of pipeline_schedule() holds at that step: the memory model's peak of activations
// (memory_model.hpp) for any bytes per chunk, without walking the m V steps again for every layout that
// shares the schedule (a search's pruning of thousands of them, docs/search.md).
struct InFlightCounts {
  std::uint32_t chunks = 0;
  std::vector<std::uint32_t> counts;
};

// pipeline_schedule()'s in-flight counts, made once per (stages, virtual stages, micro-batches, stage) on
// each thread and kept (a bounded cache; the reference stays valid until the next call on the thread).
[[nodiscard]] const InFlightCounts& in_flight_counts(std::uint32_t stages, std::uint32_t virtual_stages,
                                                     std::uint64_t micro_batches, std::uint32_t stage);

// The warm-up forwards of `stage`: those it runs before its first backward is due.
// 1F1B: min(P - s - 1, m); interleaved: see above.
[[nodiscard]] std::uint64_t warmup_forwards(std::uint32_t stages, std::uint32_t virtual_stages,
                                            std::uint64_t micro_batches, std::uint32_t stage);

}  // namespace rackscale::models::workload

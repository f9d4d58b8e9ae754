#pragma once
// Does every pipeline stage of a training job fit in its accelerator's memory, and if not, what would
// make it fit?
//
// When the largest stage overflows, the message names that stage, its total against the capacity, each
// component, the overflow, and the single changes that would make every stage fit, each with the new
// largest total, tried in this order: recompute (selective, then full), zero_stage (+1 up to 3),
// sequence_parallel (on), tensor (x2, x4, ...), pipeline (x2, x4, ...), context (x2, x4, ...) (the
// last three keep the device count: data shrinks), micro_batch (halved down to 1). Example:
//
//   workload: stage 0 of 1 needs 121.6 GiB per device but h100-sxm5-80gb has 80.0 GiB: 41.6 GiB over
//     weights 4.3 GiB, gradients 4.3 GiB, optimizer states 25.8 GiB, activations 87.1 GiB (1 micro-batch in
//     flight), communication buffers 0.1 GiB
//     fits with: workload.parallel.recompute: full (45.0 GiB); workload.parallel.tensor: 16 (data 4)
//     (79.8 GiB); workload.parallel.context: 2 (data 4) (78.1 GiB); workload.parallel.micro_batch: 4 (78.0 GiB)
// (three lines; when several stages overflow the first also says which: "(stages 0, 1 do not fit)").
// The message has no file position: the lead's command prints it as is, with exit code 3.
#include <string>

#include "models/hardware.hpp"
#include "models/workload/memory_model.hpp"
#include "models/workload/training_layout.hpp"

namespace rackscale::models::memory {

// "" when every stage fits. Otherwise throws InfeasibleJob with the message above, or, when the spec
// says memory_warn_only, returns that message as a warning.
[[nodiscard]] std::string check_memory(const workload::TrainingLayout& layout, const AcceleratorSpec& accelerator);

// "93.1 GiB": bytes in GiB with one decimal, as the messages show them.
[[nodiscard]] std::string format_gib(std::uint64_t bytes);

}  // namespace rackscale::models::memory

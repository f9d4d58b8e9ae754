#include "models/workload/pipeline_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace rackscale::models::workload {

std::uint64_t warmup_forwards(std::uint32_t stages, std::uint32_t virtual_stages, std::uint64_t micro_batches,
                              std::uint32_t stage) {
  if (stages == 0 || virtual_stages == 0 || stage >= stages)
    throw std::invalid_argument("pipeline_schedule: stage outside the pipeline");
  const std::uint64_t total = micro_batches * virtual_stages;
  if (virtual_stages == 1) return std::min<std::uint64_t>(stages - stage - 1, micro_batches);
  // Megatron-LM runs every forward first when there are exactly P micro-batches.
  if (micro_batches == stages) return total;
  const std::uint64_t warmup = std::uint64_t{stages - stage - 1} * 2 + std::uint64_t{virtual_stages - 1} * stages;
  return std::min(warmup, total);
}

std::vector<PipelineStep> pipeline_schedule(std::uint32_t stages, std::uint32_t virtual_stages,
                                            std::uint64_t micro_batches, std::uint32_t stage) {
  const std::uint64_t warmup = warmup_forwards(stages, virtual_stages, micro_batches, stage);
  if (virtual_stages > 1 && micro_batches % stages != 0)
    throw std::invalid_argument("pipeline_schedule: the interleaved schedule needs micro-batches divisible by stages");
  const std::uint64_t total = micro_batches * virtual_stages;
  const std::uint64_t group = std::uint64_t{stages} * virtual_stages;

  // The k-th forward (backward) of this device.
  const auto step = [&](std::uint64_t k, bool forward) {
    PipelineStep s;
    s.forward = forward;
    if (virtual_stages == 1) {
      s.micro_batch = static_cast<std::uint32_t>(k);
      return s;
    }
    const auto chunk = static_cast<std::uint32_t>((k % group) / stages);
    s.virtual_stage = forward ? chunk : virtual_stages - 1 - chunk;
    s.micro_batch = static_cast<std::uint32_t>((k / group) * stages + k % stages);
    return s;
  };

  std::vector<PipelineStep> steps;
  steps.reserve(2 * total);
  std::uint64_t forwards = 0;
  std::uint64_t backwards = 0;
  for (; forwards < warmup; ++forwards) steps.push_back(step(forwards, true));
  for (; forwards < total; ++forwards, ++backwards) {
    steps.push_back(step(forwards, true));
    steps.push_back(step(backwards, false));
  }
  for (; backwards < total; ++backwards) steps.push_back(step(backwards, false));
  return steps;
}

}  // namespace rackscale::models::workload

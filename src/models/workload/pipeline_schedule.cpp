#include "models/workload/pipeline_schedule.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

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

const InFlightCounts& in_flight_counts(std::uint32_t stages, std::uint32_t virtual_stages, std::uint64_t micro_batches,
                                       std::uint32_t stage) {
  using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint64_t, std::uint32_t>;
  // Bounded: a search's space holds a few thousand schedules; past this many the cache starts over.
  constexpr std::size_t kMaxSchedules = 1 << 14;
  thread_local std::map<Key, InFlightCounts> cache;
  const Key key{stages, virtual_stages, micro_batches, stage};
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  InFlightCounts made;
  made.chunks = virtual_stages;
  std::vector<std::uint32_t> held(virtual_stages, 0);
  std::set<std::vector<std::uint32_t>> seen;
  for (const auto& step : pipeline_schedule(stages, virtual_stages, micro_batches, stage)) {
    if (!step.forward) {
      --held[step.virtual_stage];
      continue;
    }
    ++held[step.virtual_stage];
    if (seen.insert(held).second) made.counts.insert(made.counts.end(), held.begin(), held.end());
  }
  if (cache.size() >= kMaxSchedules) cache.clear();
  return cache.emplace(key, std::move(made)).first->second;
}

}  // namespace rackscale::models::workload

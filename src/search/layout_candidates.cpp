#include "search/layout_candidates.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "models/workload/memory_model.hpp"
#include "models/workload/training_layout.hpp"
#include "search/iteration_bound.hpp"

namespace rackscale::search {

namespace wl = models::workload;

namespace {

// The config key a TrainingLayout message starts with ("workload.parallel.tensor: 8 x ..."), or the
// message itself when it names none.
std::string rule_of(const std::string& message) {
  const std::size_t colon = message.find(':');
  return colon == std::string::npos ? message : message.substr(0, colon);
}

// Layers of the first and last stages when `layers` do not divide over stages x virtual chunks: the
// chunks hold n = ceil(L / (P V)) layers, and the d = n P V - L missing ones come off the two ends
// (the extra one of an odd d off the first stage, which also holds the embedding).
void balance_stages(wl::ParallelSpec& p, std::uint32_t layers) {
  p.first_stage_layers.reset();
  p.last_stage_layers.reset();
  p.chunk_layers.clear();
  const std::uint64_t chunks = static_cast<std::uint64_t>(p.pipeline) * p.virtual_stages;
  if (chunks == 0 || layers % chunks == 0 || p.pipeline < 2) return;
  const std::uint64_t per_chunk = (layers + chunks - 1) / chunks;
  const std::uint64_t missing = per_chunk * chunks - layers;
  const std::uint64_t per_stage = per_chunk * p.virtual_stages;
  const std::uint64_t first_less = (missing + 1) / 2, last_less = missing / 2;
  if (first_less >= per_stage || last_less >= per_stage) return;  // TrainingLayout refuses the even split
  p.first_stage_layers = static_cast<std::uint32_t>(per_stage - first_less);
  p.last_stage_layers = static_cast<std::uint32_t>(per_stage - last_less);
}

}  // namespace

std::uint64_t Pruning::pruned_total() const noexcept {
  std::uint64_t total = 0;
  for (const auto& [rule, count] : pruned) total += count;
  return total;
}

void Pruning::merge(const Pruning& other) {
  layouts += other.layouts;
  for (const auto& [rule, count] : other.pruned) pruned[rule] += count;
  std::vector<Candidate> merged;
  merged.reserve(kept.size() + other.kept.size());
  std::merge(kept.begin(), kept.end(), other.kept.begin(), other.kept.end(), std::back_inserter(merged),
             [](const Candidate& a, const Candidate& b) { return a.index < b.index; });
  kept = std::move(merged);
}

wl::TrainingSpec with_layout(const wl::TrainingSpec& spec, const wl::ParallelSpec& parallel) {
  wl::TrainingSpec out = spec;
  out.parallel = parallel;
  return out;
}

namespace {
std::array<std::uint64_t, 9> radix_of(const LayoutSpace& space) {
  return {space.tensor.size(),         space.sequence_parallel.size(), space.pipeline.size(),
          space.virtual_stages.size(), space.context.size(),           space.expert.size(),
          space.micro_batch.size(),    space.zero.size(),              space.recompute.size()};
}
}  // namespace

std::uint64_t product_points(const LayoutSpace& space) {
  std::uint64_t points = 1;
  for (std::uint64_t r : radix_of(space)) points *= r;
  return points;
}

std::optional<wl::ParallelSpec> layout_at(const wl::TrainingSpec& spec, const LayoutSpace& space, std::uint64_t index) {
  // Mixed-radix digits, the first axis slowest: the enumeration order.
  const auto radix = radix_of(space);
  std::array<std::uint64_t, 9> digit{};
  std::uint64_t rest = index;
  for (std::size_t a = radix.size(); a-- > 0;) {
    digit[a] = rest % radix[a];
    rest /= radix[a];
  }
  wl::ParallelSpec p = spec.parallel;
  p.tensor = space.tensor[digit[0]];
  // With one TP rank, "on" is the same layout as "off": only the "off" point counts.
  if (space.sequence_parallel.size() == 2 && p.tensor == 1 && space.sequence_parallel[digit[1]]) return std::nullopt;
  p.sequence_parallel = space.sequence_parallel[digit[1]] && p.tensor > 1;
  p.pipeline = space.pipeline[digit[2]];
  p.virtual_stages = space.virtual_stages[digit[3]];
  p.context = space.context[digit[4]];
  p.expert = space.expert[digit[5]];
  p.micro_batch = space.micro_batch[digit[6]];
  p.zero_stage = space.zero[digit[7]];
  p.recompute = space.recompute[digit[8]];
  p.data = 0;
  balance_stages(p, spec.model.layers);
  return p;
}

Pruning prune_layouts(const wl::TrainingSpec& spec, const models::network::ClusterSpec& cluster,
                      const LayoutSpace& space, std::uint64_t first, std::uint64_t stride) {
  Pruning result;
  if (stride == 0) stride = 1;
  const std::uint64_t devices = cluster.devices();
  const std::uint64_t capacity = cluster.accelerator.memory_bytes;
  const std::uint64_t points = product_points(space);
  // Whether TrainingLayout accepts a point does not depend on its ZeRO stage (0 to 3, all valid) nor on
  // its recomputation, the product's two fastest axes: a family of points that differ only in those
  // breaks the same rule, found once (most of a space breaks one: throwing is what pruning cost most).
  const std::uint64_t family_size = space.zero.size() * space.recompute.size();
  std::uint64_t family = points;  // none yet
  std::string family_rule;        // the rule the family's points break; empty: TrainingLayout accepts them
  CollectiveTimes times(cluster);  // the floors' closed forms, shared by the layouts of one grid
  for (std::uint64_t index = first; index < points; index += stride) {
    std::optional<wl::ParallelSpec> p = layout_at(spec, space, index);
    if (!p) continue;
    ++result.layouts;
    if (p->virtual_stages > 1 && p->pipeline < 2) {
      ++result.pruned["workload.parallel.virtual_stages"];
      continue;
    }
    if (index / family_size == family && !family_rule.empty()) {
      ++result.pruned[family_rule];
      continue;
    }
    std::optional<wl::TrainingLayout> layout;
    try {
      layout.emplace(with_layout(spec, *p), devices);
      family_rule.clear();
    } catch (const std::invalid_argument& e) {
      family_rule = rule_of(e.what());
      ++result.pruned[family_rule];
    }
    family = index / family_size;
    if (!layout) continue;
    try {
      std::uint64_t peak = 0;
      for (const auto& stage : models::workload::job_memory(*layout)) peak = std::max(peak, stage.total());
      if (capacity > 0 && peak > capacity) {
        ++result.pruned["memory"];
        continue;
      }
      p->data = layout->data();
      const IterationBound floor = bound_iteration(*layout, times);
      result.kept.push_back(
          Candidate{index, *p, peak, layout->tokens_per_iteration(), floor.iteration, floor.least_compute});
    } catch (const std::invalid_argument& e) {
      ++result.pruned[rule_of(e.what())];
    }
  }
  return result;
}

std::string describe(const wl::ParallelSpec& p, std::uint64_t devices) {
  const std::uint64_t data =
      p.data != 0 ? p.data : devices / std::max<std::uint64_t>(1, std::uint64_t{p.tensor} * p.pipeline * p.context);
  std::string pipeline = fmt::format("PP {}", p.pipeline);
  if (p.virtual_stages > 1) pipeline += fmt::format(" (V {})", p.virtual_stages);
  return fmt::format("TP {}, {}, DP {}, CP {}, EP {}, mb {}, ZeRO {}, recompute {}, SP {}", p.tensor, pipeline, data,
                     p.context, p.expert, p.micro_batch, p.zero_stage, recompute_name(p.recompute),
                     p.sequence_parallel ? "on" : "off");
}

}  // namespace rackscale::search

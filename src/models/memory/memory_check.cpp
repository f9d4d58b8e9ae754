#include "models/memory/memory_check.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "models/memory/infeasible_job.hpp"

namespace rackscale::models::memory {
namespace {

using workload::Recompute;
using workload::TrainingLayout;
using workload::TrainingSpec;
using workload::MemoryBreakdown;
using workload::job_memory;

std::uint64_t largest_total(const std::vector<MemoryBreakdown>& stages) {
  std::uint64_t most = 0;
  for (const auto& s : stages) most = std::max(most, s.total());
  return most;
}

// The largest stage total of `spec` on `devices` devices, or nothing if that layout is not valid.
std::optional<std::uint64_t> peak_of(const TrainingSpec& spec, std::uint32_t devices) {
  try {
    return largest_total(job_memory(TrainingLayout(spec, devices)));
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

const char* recompute_name(Recompute r) {
  switch (r) {
    case Recompute::none:
      return "none";
    case Recompute::selective:
      return "selective";
    case Recompute::full:
      return "full";
  }
  return "?";
}

// The single changes of one knob that make every stage fit, the first that does for each knob.
std::vector<std::string> fitting_changes(const TrainingLayout& layout, std::uint64_t capacity) {
  const TrainingSpec& base = layout.spec();
  const std::uint32_t devices = layout.devices();
  std::vector<std::string> found;
  // Tries each candidate in turn; records the first that fits.
  const auto first_fit = [&](const std::vector<std::pair<TrainingSpec, std::string>>& candidates) {
    for (const auto& [spec, label] : candidates) {
      const auto peak = peak_of(spec, devices);
      if (peak && *peak <= capacity) {
        found.push_back(fmt::format("{} ({})", label, format_gib(*peak)));
        return;
      }
    }
  };
  const auto with = [&](const std::function<void(TrainingSpec&)>& change) {
    TrainingSpec s = base;
    change(s);
    return s;
  };

  std::vector<std::pair<TrainingSpec, std::string>> candidates;
  for (const Recompute r : {Recompute::selective, Recompute::full})
    if (static_cast<int>(r) > static_cast<int>(base.parallel.recompute))
      candidates.emplace_back(with([&](TrainingSpec& s) { s.parallel.recompute = r; }),
                              fmt::format("workload.parallel.recompute: {}", recompute_name(r)));
  first_fit(candidates);

  candidates.clear();
  for (std::uint32_t z = base.parallel.zero_stage + 1; z <= 3; ++z)
    candidates.emplace_back(with([&](TrainingSpec& s) { s.parallel.zero_stage = z; }),
                            fmt::format("workload.parallel.zero_stage: {}", z));
  first_fit(candidates);

  if (base.parallel.tensor > 1 && !base.parallel.sequence_parallel)
    first_fit({{with([](TrainingSpec& s) { s.parallel.sequence_parallel = true; }),
                "workload.parallel.sequence_parallel: true"}});

  // Grid changes keep the devices: data follows.
  const auto grow = [&](const char* key, std::uint32_t workload::ParallelSpec::*field) {
    std::vector<std::pair<TrainingSpec, std::string>> grown;
    for (std::uint64_t factor = 2; base.parallel.*field * factor <= devices; factor *= 2) {
      TrainingSpec s = base;
      s.parallel.*field = static_cast<std::uint32_t>(base.parallel.*field * factor);
      s.parallel.data = 0;
      std::string label = fmt::format("workload.parallel.{}: {}", key, s.parallel.*field);
      try {
        label += fmt::format(" (data {})", TrainingLayout(s, devices).data());
      } catch (const std::invalid_argument&) {
        continue;
      }
      grown.emplace_back(std::move(s), std::move(label));
    }
    first_fit(grown);
  };
  grow("tensor", &workload::ParallelSpec::tensor);
  grow("pipeline", &workload::ParallelSpec::pipeline);
  grow("context", &workload::ParallelSpec::context);

  candidates.clear();
  for (std::uint64_t b = base.parallel.micro_batch / 2; b >= 1; b /= 2)
    candidates.emplace_back(with([&](TrainingSpec& s) { s.parallel.micro_batch = b; }),
                            fmt::format("workload.parallel.micro_batch: {}", b));
  first_fit(candidates);
  return found;
}

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace

std::string format_gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / static_cast<double>(1ULL << 30));
}

std::string check_memory(const TrainingLayout& layout, const AcceleratorSpec& accelerator) {
  const std::vector<MemoryBreakdown> stages = job_memory(layout);
  const std::uint64_t capacity = accelerator.memory_bytes;
  const auto worst = std::max_element(stages.begin(), stages.end(), [](const auto& a, const auto& b) {
    return a.total() < b.total();
  });
  if (worst->total() <= capacity) return "";

  std::vector<std::string> over;
  for (const auto& s : stages)
    if (s.total() > capacity) over.push_back(std::to_string(s.stage));
  std::string message = fmt::format("workload: stage {} of {} needs {} per device but {} has {}: {} over",
                                    worst->stage, stages.size(), format_gib(worst->total()), accelerator.name,
                                    format_gib(capacity), format_gib(worst->total() - capacity));
  if (over.size() > 1) message += fmt::format(" (stages {} do not fit)", join(over, ", "));
  message += fmt::format(
      "\n  weights {}, gradients {}, optimizer states {}, activations {} ({} {} in flight), communication buffers {}",
      format_gib(worst->weights), format_gib(worst->gradients), format_gib(worst->optimizer_states),
      format_gib(worst->activations), worst->chunks_in_flight,
      layout.virtual_stages() > 1 ? "model-chunk micro-batches"
                                  : (worst->chunks_in_flight == 1 ? "micro-batch" : "micro-batches"),
      format_gib(worst->communication_buffers));
  if (worst->ring_attention_buffers > 0)
    message += fmt::format(" (ring attention's blocks in flight {})", format_gib(worst->ring_attention_buffers));
  const auto changes = fitting_changes(layout, capacity);
  if (changes.empty())
    message +=
        "\n  no single change of recompute, zero_stage, sequence_parallel, tensor, pipeline, context or micro_batch "
        "makes it fit; combine them, or use devices with more memory";
  else
    message += "\n  fits with: " + join(changes, "; ");
  if (layout.spec().memory_warn_only) return message;
  throw InfeasibleJob(message);
}

}  // namespace rackscale::models::memory

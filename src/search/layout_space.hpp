#pragma once
// The layouts a search tries: one list of values per axis of a training job's parallel layout, and the
// product of the lists as the candidates (layout_candidates.hpp).
//
// Axes and their default values (the "full product" for the config's model on its cluster; docs/search.md):
//   tensor             powers of two up to min(heads, devices, 64)
//   pipeline           divisors of the device count up to the model's layers
//   virtual            1, 2, 4, 8 (interleaved 1F1B chunks per device)
//   context            1, 2, 4, 8 (context parallelism; the sequence must split into 2 C chunks)
//   expert             1 for a dense model; a MoE model's divisors of its expert count
//   micro_batch        1 to 8
//   zero               0 to 3
//   recompute          none, selective, full
//   sequence_parallel  off, on (on only where tensor > 1: with one TP rank it changes nothing)
// The data-parallel degree is what is left: devices / (tensor x pipeline x context).
//
// `--space` changes axes: space-separated `axis=values` items, values a comma list of numbers or ranges
// `a..b` (every integer, or for tensor, virtual and context every power of two, in the range), or names
// for recompute (none, selective, full) and sequence_parallel (off, on). Example:
//   tensor=1,2,4,8 pipeline=1..64 zero=0..3 recompute=selective,full
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/network/cluster_spec.hpp"
#include "models/workload/training_spec.hpp"

namespace rackscale::search {

struct LayoutSpace {
  std::vector<std::uint32_t> tensor;
  std::vector<std::uint32_t> pipeline;
  std::vector<std::uint32_t> virtual_stages;
  std::vector<std::uint32_t> context;
  std::vector<std::uint32_t> expert;
  std::vector<std::uint32_t> micro_batch;
  std::vector<std::uint32_t> zero;
  std::vector<models::workload::Recompute> recompute;
  std::vector<bool> sequence_parallel;

  // Layouts in the product (before any rule prunes them), counting sequence_parallel on only where
  // tensor > 1.
  [[nodiscard]] std::uint64_t size() const noexcept;
};

// The default space for `spec`'s model on `cluster` (above).
[[nodiscard]] LayoutSpace default_space(const models::workload::TrainingSpec& spec,
                                        const models::network::ClusterSpec& cluster);

// `space` with the axes `text` names replaced. Throws std::invalid_argument naming `option` (the
// command-line option, "--space"), the item at fault, what was expected and what was found.
[[nodiscard]] LayoutSpace parse_space(std::string_view text, LayoutSpace space, std::string_view option = "--space");

// "none", "selective" or "full": the config's and --space's spelling.
[[nodiscard]] const char* recompute_name(models::workload::Recompute recompute) noexcept;

// "tensor=1,2,4 pipeline=1,2 ..." (every axis; parse_space reads it back).
[[nodiscard]] std::string describe(const LayoutSpace& space);

}  // namespace rackscale::search

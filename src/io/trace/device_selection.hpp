#pragma once
// `--trace-devices SPEC`: which devices of a training job a timeline trace shows. SPEC is a
// comma-separated list of items, joined as a set:
//   12            one device (its index, as in the config's device order)
//   0-7           a range of devices, both ends included
//   all           every device
//   stage:3       every device of pipeline stage 3; stage:0-1 for several stages
//   first-of-each-stage   the first device of every pipeline stage (tensor, context and data rank 0):
//                 one view of the whole pipeline
// Syntax is checked when parsing, ranges against the job when resolving; both throw
// std::invalid_argument with a message that starts with the option and names what was expected and
// what was found.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/workload/training_layout.hpp"

namespace rackscale::io {

class DeviceSelection {
 public:
  static constexpr std::string_view kOption = "--trace-devices";

  [[nodiscard]] static DeviceSelection parse(std::string_view spec);

  // The selected devices of `layout`'s job, increasing and distinct.
  [[nodiscard]] std::vector<std::uint32_t> resolve(const models::workload::TrainingLayout& layout) const;
  [[nodiscard]] const std::string& text() const noexcept { return text_; }

 private:
  enum class Kind : std::uint8_t { devices, stages, first_of_each_stage };
  struct Item {
    Kind kind = Kind::devices;
    std::uint64_t first = 0, last = 0;  // inclusive; `all` is devices 0 .. 2^32 - 1, clipped when resolving
    bool all = false;
  };
  std::string text_;
  std::vector<Item> items_;
};

}  // namespace rackscale::io

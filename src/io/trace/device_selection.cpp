#include "io/trace/device_selection.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::io {

namespace {
constexpr std::string_view kExpected =
    "a comma-separated list of device ids (12), ranges (0-7), all, stage:S or stage:S-T (pipeline stages) "
    "or first-of-each-stage";

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

bool parse_number(std::string_view s, std::uint64_t& value) {
  if (s.empty() || s.size() > 10) return false;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  return error == std::errc{} && end == s.data() + s.size() && value <= std::numeric_limits<std::uint32_t>::max();
}

// "7" or "0-7".
bool parse_range(std::string_view s, std::uint64_t& first, std::uint64_t& last) {
  const auto dash = s.find('-');
  if (dash == std::string_view::npos) {
    if (!parse_number(s, first)) return false;
    last = first;
    return true;
  }
  return parse_number(s.substr(0, dash), first) && parse_number(s.substr(dash + 1), last);
}
}  // namespace

DeviceSelection DeviceSelection::parse(std::string_view spec) {
  DeviceSelection selection;
  selection.text_ = std::string(spec);
  const auto refuse = [&](std::string_view found) {
    return std::invalid_argument(fmt::format("{} {}: expected {}; found '{}'", kOption, spec, kExpected, found));
  };
  if (trim(spec).empty()) throw refuse(spec);
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string_view text = trim(spec.substr(start, comma - start));
    start = comma + 1;
    Item item;
    if (text == "all") {
      item.all = true;
      item.last = std::numeric_limits<std::uint32_t>::max();
    } else if (text == "first-of-each-stage") {
      item.kind = Kind::first_of_each_stage;
    } else if (text.starts_with("stage:")) {
      item.kind = Kind::stages;
      if (!parse_range(text.substr(6), item.first, item.last)) throw refuse(text);
    } else if (!parse_range(text, item.first, item.last)) {
      throw refuse(text);
    }
    if (item.first > item.last)
      throw std::invalid_argument(fmt::format("{} {}: expected ranges written low-high; found '{}'", kOption, spec, text));
    selection.items_.push_back(item);
  }
  return selection;
}

std::vector<std::uint32_t> DeviceSelection::resolve(const models::workload::TrainingLayout& layout) const {
  const std::uint32_t devices = layout.devices();
  const std::uint32_t stages = layout.pipeline();
  std::vector<bool> chosen(devices, false);
  for (const Item& item : items_) {
    switch (item.kind) {
      case Kind::devices: {
        if (!item.all && item.last >= devices)
          throw std::invalid_argument(fmt::format("{} {}: expected device ids below {} (the job's devices); found {}",
                                                  kOption, text_, devices, item.last));
        const std::uint64_t last = std::min<std::uint64_t>(item.last, devices - 1);
        for (std::uint64_t d = item.first; d <= last; ++d) chosen[d] = true;
        break;
      }
      case Kind::stages: {
        if (item.last >= stages)
          throw std::invalid_argument(fmt::format("{} {}: expected pipeline stages below {} (workload.parallel.pipeline); "
                                                  "found stage {}",
                                                  kOption, text_, stages, item.last));
        for (std::uint32_t d = 0; d < devices; ++d) {
          const std::uint32_t stage = layout.role_of(d);
          if (stage >= item.first && stage <= item.last) chosen[d] = true;
        }
        break;
      }
      case Kind::first_of_each_stage:
        for (std::uint32_t s = 0; s < stages; ++s) chosen[layout.device_at(0, 0, 0, s)] = true;
        break;
    }
  }
  std::vector<std::uint32_t> list;
  for (std::uint32_t d = 0; d < devices; ++d)
    if (chosen[d]) list.push_back(d);
  return list;
}

}  // namespace rackscale::io

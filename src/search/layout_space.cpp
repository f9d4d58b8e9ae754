#include "search/layout_space.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::search {

namespace wl = models::workload;

namespace {

constexpr std::uint32_t kMaxDefaultTensor = 64;
constexpr std::uint64_t kMaxAxisValue = 1u << 24;

bool is_power_of_two(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

[[noreturn]] void fail(std::string_view option, std::string_view item, std::string_view detail) {
  throw std::invalid_argument(fmt::format("{}: '{}': {}", option, item, detail));
}

std::uint64_t parse_number(std::string_view option, std::string_view item, std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size())
    fail(option, item, fmt::format("expected a whole number or a range a..b, found '{}'", text));
  if (value > kMaxAxisValue) fail(option, item, fmt::format("{} is larger than {}", value, kMaxAxisValue));
  return value;
}

// Numbers and ranges; `powers` keeps only the powers of two of a range.
std::vector<std::uint32_t> parse_numbers(std::string_view option, std::string_view item, std::string_view values,
                                         bool powers, std::uint64_t minimum, std::uint64_t maximum) {
  std::vector<std::uint32_t> out;
  for (std::string_view part : split(values, ',')) {
    const std::size_t dots = part.find("..");
    std::uint64_t low = 0, high = 0;
    if (dots == std::string_view::npos) {
      low = high = parse_number(option, item, part);
    } else {
      low = parse_number(option, item, part.substr(0, dots));
      high = parse_number(option, item, part.substr(dots + 2));
      if (high < low) fail(option, item, fmt::format("range {}..{} is empty", low, high));
    }
    if (low < minimum || high > maximum)
      fail(option, item, fmt::format("expected values from {} to {}, found {}", minimum, maximum, part));
    for (std::uint64_t v = low; v <= high; ++v)
      if (!powers || dots == std::string_view::npos || is_power_of_two(v)) out.push_back(static_cast<std::uint32_t>(v));
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.empty()) fail(option, item, "no value left (a range of powers of two holds none?)");
  return out;
}

template <typename T>
std::string join(const std::vector<T>& values) {
  std::string out;
  for (const T& v : values) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}", v);
  }
  return out;
}

}  // namespace

const char* recompute_name(wl::Recompute r) noexcept {
  switch (r) {
    case wl::Recompute::none: return "none";
    case wl::Recompute::selective: return "selective";
    case wl::Recompute::full: return "full";
  }
  return "none";
}

std::uint64_t LayoutSpace::size() const noexcept {
  const std::uint64_t tensor_one = static_cast<std::uint64_t>(std::count(tensor.begin(), tensor.end(), 1u));
  // With tensor 1, sequence parallelism on is the same layout as off: counted once.
  const std::uint64_t tensor_sp =
      (tensor.size() - tensor_one) * sequence_parallel.size() + (sequence_parallel.empty() ? 0 : tensor_one);
  return tensor_sp * pipeline.size() * virtual_stages.size() * context.size() * expert.size() * micro_batch.size() *
         zero.size() * recompute.size();
}

LayoutSpace default_space(const wl::TrainingSpec& spec, const models::network::ClusterSpec& cluster) {
  LayoutSpace space;
  const std::uint64_t devices = cluster.devices();
  const std::uint64_t tensor_cap = std::min<std::uint64_t>({spec.model.heads, devices, kMaxDefaultTensor});
  for (std::uint64_t t = 1; t <= std::max<std::uint64_t>(tensor_cap, 1); t *= 2) space.tensor.push_back(static_cast<std::uint32_t>(t));
  for (std::uint64_t p = 1; p <= std::max<std::uint32_t>(spec.model.layers, 1) && p <= devices; ++p)
    if (devices % p == 0) space.pipeline.push_back(static_cast<std::uint32_t>(p));
  space.virtual_stages = {1, 2, 4, 8};
  space.context = {1, 2, 4, 8};
  if (spec.model.experts == 0) {
    space.expert = {1};
  } else {
    for (std::uint32_t e = 1; e <= spec.model.experts; ++e)
      if (spec.model.experts % e == 0) space.expert.push_back(e);
  }
  space.micro_batch = {1, 2, 3, 4, 5, 6, 7, 8};
  space.zero = {0, 1, 2, 3};
  space.recompute = {wl::Recompute::none, wl::Recompute::selective, wl::Recompute::full};
  space.sequence_parallel = {false, true};
  return space;
}

LayoutSpace parse_space(std::string_view text, LayoutSpace space, std::string_view option) {
  for (std::string_view item : split(text, ' ')) {
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      fail(option, item, "expected axis=values (e.g. tensor=1,2,4 or pipeline=1..16)");
    const std::string_view axis = item.substr(0, eq);
    const std::string_view values = item.substr(eq + 1);
    if (axis == "tensor") {
      space.tensor = parse_numbers(option, item, values, true, 1, kMaxAxisValue);
    } else if (axis == "pipeline") {
      space.pipeline = parse_numbers(option, item, values, false, 1, kMaxAxisValue);
    } else if (axis == "virtual" || axis == "virtual_stages") {
      space.virtual_stages = parse_numbers(option, item, values, true, 1, kMaxAxisValue);
    } else if (axis == "context") {
      space.context = parse_numbers(option, item, values, true, 1, kMaxAxisValue);
    } else if (axis == "expert") {
      space.expert = parse_numbers(option, item, values, false, 1, kMaxAxisValue);
    } else if (axis == "micro_batch") {
      space.micro_batch = parse_numbers(option, item, values, false, 1, kMaxAxisValue);
    } else if (axis == "zero" || axis == "zero_stage") {
      space.zero = parse_numbers(option, item, values, false, 0, 3);
    } else if (axis == "recompute") {
      space.recompute.clear();
      for (std::string_view name : split(values, ',')) {
        if (name == "none") space.recompute.push_back(wl::Recompute::none);
        else if (name == "selective") space.recompute.push_back(wl::Recompute::selective);
        else if (name == "full") space.recompute.push_back(wl::Recompute::full);
        else fail(option, item, fmt::format("expected none, selective or full, found '{}'", name));
      }
      std::sort(space.recompute.begin(), space.recompute.end());
      space.recompute.erase(std::unique(space.recompute.begin(), space.recompute.end()), space.recompute.end());
    } else if (axis == "sequence_parallel") {
      space.sequence_parallel.clear();
      for (std::string_view name : split(values, ',')) {
        if (name == "off" || name == "false") space.sequence_parallel.push_back(false);
        else if (name == "on" || name == "true") space.sequence_parallel.push_back(true);
        else fail(option, item, fmt::format("expected off or on, found '{}'", name));
      }
      std::sort(space.sequence_parallel.begin(), space.sequence_parallel.end());
      space.sequence_parallel.erase(std::unique(space.sequence_parallel.begin(), space.sequence_parallel.end()),
                                    space.sequence_parallel.end());
    } else {
      fail(option, item,
           fmt::format("unknown axis '{}'; expected tensor, pipeline, virtual, context, expert, micro_batch, zero, "
                       "recompute or sequence_parallel",
                       axis));
    }
  }
  return space;
}

std::string describe(const LayoutSpace& space) {
  std::vector<std::string> recompute, sp;
  for (wl::Recompute r : space.recompute) recompute.emplace_back(recompute_name(r));
  for (bool on : space.sequence_parallel) sp.emplace_back(on ? "on" : "off");
  return fmt::format("tensor={} pipeline={} virtual={} context={} expert={} micro_batch={} zero={} recompute={} "
                     "sequence_parallel={}",
                     join(space.tensor), join(space.pipeline), join(space.virtual_stages), join(space.context),
                     join(space.expert), join(space.micro_batch), join(space.zero), join(recompute), join(sp));
}

}  // namespace rackscale::search

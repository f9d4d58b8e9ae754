#include "io/hdf5/injected_failure.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

namespace rackscale::io::hdf5 {

namespace {
struct Injection {
  int rank = -1;
  std::string call;
  unsigned occurrence = 1;
};

std::optional<unsigned> number(std::string_view text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<Injection> read_injection() {
  const char* text = std::getenv(kInjectedFailureVariable);
  if (text == nullptr) return std::nullopt;
  const std::string_view spec(text);
  const auto first = spec.find(':');
  if (first == std::string_view::npos) return std::nullopt;
  const auto rank = number(spec.substr(0, first));
  std::string_view rest = spec.substr(first + 1);
  Injection injection;
  if (const auto second = rest.find(':'); second != std::string_view::npos) {
    const auto occurrence = number(rest.substr(second + 1));
    if (!occurrence || *occurrence == 0) return std::nullopt;
    injection.occurrence = *occurrence;
    rest = rest.substr(0, second);
  }
  if (!rank || rest.empty()) return std::nullopt;
  injection.rank = static_cast<int>(*rank);
  injection.call = std::string(rest);
  return injection;
}
}  // namespace

bool injected_failure(int rank, std::string_view call) {
  static const std::optional<Injection> injection = read_injection();
  static unsigned seen = 0;
  if (!injection || injection->rank != rank || injection->call != call) return false;
  return ++seen == injection->occurrence;
}

}  // namespace rackscale::io::hdf5

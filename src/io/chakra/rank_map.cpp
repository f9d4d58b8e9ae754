#include "io/chakra/rank_map.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "io/config/config_error.hpp"

namespace rackscale::io {
namespace {

constexpr std::uint32_t kNoLine = 0;

std::string_view trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// A whole decimal number below 2^32, or nothing.
std::optional<std::uint32_t> number(std::string_view s) {
  std::uint32_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

}  // namespace

std::vector<std::uint32_t> read_rank_map(const std::filesystem::path& file, std::uint32_t ranks, std::uint32_t roles) {
  std::ifstream in(file);
  if (!in) throw ConfigError(fmt::format("{}: cannot open the rank map: {}", file.string(), std::strerror(errno)));
  std::vector<std::uint32_t> role_of(ranks, 0);
  std::vector<std::uint32_t> line_of(ranks, kNoLine);  // the line that gave each rank its role
  std::string text;
  for (std::uint32_t line = 1; std::getline(in, text); ++line) {
    const auto at = [&](const std::string& detail) {
      return ConfigError(fmt::format("{}:{}: {}", file.string(), line, detail));
    };
    std::string_view content = text;
    content = trimmed(content.substr(0, content.find('#')));
    if (content.empty()) continue;
    const auto space = content.find_first_of(" \t");
    const std::string_view range = content.substr(0, space);
    const std::string_view role_text = space == std::string_view::npos ? std::string_view{} : trimmed(content.substr(space));
    const auto dash = range.find('-');
    const auto first = number(range.substr(0, dash));
    const auto last = dash == std::string_view::npos ? first : number(range.substr(dash + 1));
    const auto role = number(role_text);
    if (!first || !last || !role || *last < *first)
      throw at(fmt::format("expected RANKS ROLE (a traced rank or a range FIRST-LAST, then the role's number), found '{}'",
                           content));
    if (*last >= ranks)
      throw at(fmt::format("expected traced ranks from 0 to {} ({} traced ranks), found rank {}", ranks - 1, ranks, *last));
    if (*role >= roles)
      throw at(fmt::format("role {}: expected a role with a trace (roles 0 to {} have one), found none for role {}", *role,
                           roles == 0 ? 0 : roles - 1, *role));
    for (std::uint32_t r = *first; r <= *last; ++r) {
      if (line_of[r] != kNoLine)
        throw at(fmt::format("expected each traced rank once, found rank {} again (line {} gave it role {})", r,
                             line_of[r], role_of[r]));
      line_of[r] = line;
      role_of[r] = *role;
    }
  }
  if (in.bad()) throw ConfigError(fmt::format("{}: cannot read the rank map: {}", file.string(), std::strerror(errno)));
  for (std::uint32_t r = 0; r < ranks; ++r)
    if (line_of[r] == kNoLine)
      throw ConfigError(fmt::format("{}: expected a role for every traced rank from 0 to {}, found none for rank {}",
                                    file.string(), ranks - 1, r));
  return role_of;
}

void write_rank_map(const std::filesystem::path& file, const std::vector<std::uint32_t>& role_of) {
  std::ofstream out(file, std::ios::trunc);
  if (!out) throw std::runtime_error(fmt::format("{}: cannot create the rank map: {}", file.string(), std::strerror(errno)));
  out << "# rackscale rank map (docs/traces.md): RANKS ROLE, RANKS a traced rank or a range FIRST-LAST\n";
  for (std::size_t first = 0; first < role_of.size();) {
    std::size_t last = first;
    while (last + 1 < role_of.size() && role_of[last + 1] == role_of[first]) ++last;
    if (last == first) {
      out << first << ' ' << role_of[first] << '\n';
    } else {
      out << first << '-' << last << ' ' << role_of[first] << '\n';
    }
    first = last + 1;
  }
  out.flush();
  if (!out) throw std::runtime_error(fmt::format("{}: cannot write the rank map: {}", file.string(), std::strerror(errno)));
}

}  // namespace rackscale::io

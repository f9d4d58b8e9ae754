#include "io/config/double_from_chars.hpp"

#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <system_error>

namespace rackscale::io {

std::from_chars_result double_from_chars(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars)  // defined only where from_chars takes floating-point types
  return std::from_chars(first, last, value);
#else
  return detail::double_from_chars_by_strtod(first, last, value);
#endif
}

namespace detail {
std::from_chars_result double_from_chars_by_strtod(const char* first, const char* last, double& value) {
  // strtod skips leading space and takes '+'; from_chars does neither.
  if (first == last || *first == '+' || std::isspace(static_cast<unsigned char>(*first)) != 0)
    return {first, std::errc::invalid_argument};
  const std::string text(first, last);  // strtod reads up to a NUL
  const std::size_t sign = text[0] == '-' ? 1 : 0;
  if (text.size() > sign + 1 && text[sign] == '0' && (text[sign + 1] == 'x' || text[sign + 1] == 'X')) {
    value = sign == 1 ? -0.0 : 0.0;
    return {first + sign + 1, std::errc{}};
  }
  errno = 0;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return {first, std::errc::invalid_argument};
  const char* stop = first + (end - text.c_str());
  if (errno == ERANGE) return {stop, std::errc::result_out_of_range};
  value = parsed;
  return {stop, std::errc{}};
}
}  // namespace detail

}  // namespace rackscale::io

#pragma once
// std::from_chars for a double, also where the standard library has none: libc++ (Apple's clang on
// macOS) gained floating-point from_chars only in LLVM 20. There strtod reads the text instead, held
// to from_chars's rules: no leading space or '+', decimal only (of "0x1p3" it takes the "0"), out of
// range an error that leaves `value` alone. strtod follows the C locale, which rackscale never changes.
#include <charconv>

namespace rackscale::io {

[[nodiscard]] std::from_chars_result double_from_chars(const char* first, const char* last, double& value);

namespace detail {
// The strtod way. Declared here so that the tests compare it with std::from_chars on Linux.
[[nodiscard]] std::from_chars_result double_from_chars_by_strtod(const char* first, const char* last, double& value);
}  // namespace detail

}  // namespace rackscale::io

// The strtod way of reading a double (io::detail::double_from_chars_by_strtod, what a standard library
// without floating-point std::from_chars uses: Apple's clang) reads every text as std::from_chars does:
// the same value, the same end, the same error.
#include "io/config/double_from_chars.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include <gtest/gtest.h>

namespace rackscale::io {
namespace {

TEST(DoubleFromChars, StrtodWayReadsAsFromChars) {
  // Config numbers (the units parser hands over "digits e exponent"), and what must be refused or cut
  // short: space and '+' in front, hexadecimal, out of range both ways, words, a number and a unit.
  const char* const texts[] = {"1",     "-2.5",      "0.125",  "6.02e23",  "1e-5",   "125e-3", "17e+2", "0",
                               "-0",    "1e400",     "-1e400", "1e-400",   "inf",    "-Infinity", "nan",
                               "",      " 1",        "+1",     "0x10",     "-0X1p3", "abc",    "-",     "1.5kg",
                               "3.",    ".5",        "1e",     "2e+",      "1..2",   "12 GiB", "--1"};
  for (const std::string text : texts) {
    SCOPED_TRACE("text '" + text + "'");
    double expected = 42.0;
    double actual = 42.0;
    const auto want = std::from_chars(text.data(), text.data() + text.size(), expected);
    const auto got = detail::double_from_chars_by_strtod(text.data(), text.data() + text.size(), actual);
    EXPECT_EQ(got.ptr - text.data(), want.ptr - text.data());
    EXPECT_EQ(got.ec, want.ec);
    if (expected != expected) {  // NaN: compare what it is, not its value
      EXPECT_NE(actual, actual);
    } else {
      EXPECT_EQ(actual, expected);
      EXPECT_EQ(std::signbit(actual), std::signbit(expected));
    }
  }
}

TEST(DoubleFromChars, IsFromCharsWhereTheLibraryHasIt) {
  const std::string text = "2.5e3 rest";
  double value = 0;
  const auto result = double_from_chars(text.data(), text.data() + text.size(), value);
  EXPECT_EQ(value, 2500.0);
  EXPECT_EQ(result.ec, std::errc{});
  EXPECT_EQ(result.ptr - text.data(), 5);
}

}  // namespace
}  // namespace rackscale::io

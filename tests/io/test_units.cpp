// Units: every unit of every quantity, exact values, and every malformed form with its message.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "io/config/units.hpp"

namespace rackscale::io {
namespace {

std::string error_of(double (*parse)(std::string_view), std::string_view text) {
  try {
    (void)parse(text);
  } catch (const UnitError& e) {
    return e.what();
  }
  return "";
}

template <class Parse>
std::string error_of_any(Parse parse, std::string_view text) {
  try {
    (void)parse(text);
  } catch (const UnitError& e) {
    return e.what();
  }
  return "";
}

TEST(Units, BandwidthInBits) {
  EXPECT_EQ(parse_bandwidth("8bps"), 1.0);
  EXPECT_EQ(parse_bandwidth("1bps"), 0.125);
  EXPECT_EQ(parse_bandwidth("1Kbps"), 125.0);
  EXPECT_EQ(parse_bandwidth("1Mbps"), 125e3);
  EXPECT_EQ(parse_bandwidth("1Gbps"), 125e6);
  EXPECT_EQ(parse_bandwidth("1Tbps"), 125e9);
  EXPECT_EQ(parse_bandwidth("400Gbps"), 5e10);
  EXPECT_EQ(parse_bandwidth("200Gbps"), 2.5e10);
  EXPECT_EQ(parse_bandwidth("800 Gbps"), 1e11);
}

TEST(Units, BandwidthInBytes) {
  EXPECT_EQ(parse_bandwidth("1B/s"), 1.0);
  EXPECT_EQ(parse_bandwidth("1KB/s"), 1e3);
  EXPECT_EQ(parse_bandwidth("1MB/s"), 1e6);
  EXPECT_EQ(parse_bandwidth("50GB/s"), 50e9);
  EXPECT_EQ(parse_bandwidth("1TB/s"), 1e12);
  EXPECT_EQ(parse_bandwidth("1KiB/s"), 1024.0);
  EXPECT_EQ(parse_bandwidth("1MiB/s"), 1048576.0);
  EXPECT_EQ(parse_bandwidth("1GiB/s"), 1073741824.0);
  EXPECT_EQ(parse_bandwidth("1TiB/s"), 1099511627776.0);
  // One rounding: the same double as the decimal literal, not 3.35 * 1e12.
  EXPECT_EQ(parse_bandwidth("3.35TB/s"), 3.35e12);
  EXPECT_EQ(parse_bandwidth("2.039TB/s"), 2.039e12);
  EXPECT_EQ(parse_bandwidth(".5GB/s"), 5e8);
  EXPECT_EQ(parse_bandwidth("5.GB/s"), 5e9);
  EXPECT_EQ(parse_bandwidth("1e3Gbps"), 1.25e11);
  EXPECT_EQ(parse_bandwidth("1E-3GB/s"), 1e6);
  EXPECT_EQ(parse_bandwidth("0GB/s"), 0.0);  // the units API allows zero; the loader insists on > 0
}

TEST(Units, Sizes) {
  EXPECT_EQ(parse_bytes("1B"), 1u);
  EXPECT_EQ(parse_bytes("1KB"), 1000u);
  EXPECT_EQ(parse_bytes("1MB"), 1000000u);
  EXPECT_EQ(parse_bytes("80GB"), 80000000000u);
  EXPECT_EQ(parse_bytes("1TB"), 1000000000000u);
  EXPECT_EQ(parse_bytes("64KiB"), 65536u);
  EXPECT_EQ(parse_bytes("1MiB"), 1048576u);
  EXPECT_EQ(parse_bytes("80GiB"), 85899345920u);
  EXPECT_EQ(parse_bytes("1TiB"), 1099511627776u);
  EXPECT_EQ(parse_bytes("1.5KiB"), 1536u);
  EXPECT_EQ(parse_bytes("0.5KB"), 500u);
  EXPECT_EQ(parse_bytes("1e-3KB"), 1u);
  EXPECT_EQ(parse_bytes("64 KiB"), 65536u);
  EXPECT_EQ(parse_bytes("0B"), 0u);
  EXPECT_EQ(parse_bytes("000012B"), 12u);
  EXPECT_EQ(parse_bytes("18446744073709551614B"), 18446744073709551614u);
  EXPECT_EQ(parse_bytes("15TiB"), 15ull << 40);
}

TEST(Units, Durations) {
  EXPECT_EQ(parse_duration("1ps"), 1u);
  EXPECT_EQ(parse_duration("1ns"), 1000u);
  EXPECT_EQ(parse_duration("1us"), 1000000u);
  EXPECT_EQ(parse_duration("1ms"), 1000000000u);
  EXPECT_EQ(parse_duration("1s"), 1000000000000u);
  EXPECT_EQ(parse_duration("500ns"), 500000u);
  EXPECT_EQ(parse_duration("1.5us"), 1500000u);
  EXPECT_EQ(parse_duration("2.5ns"), 2500u);
  EXPECT_EQ(parse_duration("0.001ns"), 1u);
  EXPECT_EQ(parse_duration("0s"), 0u);
  EXPECT_EQ(parse_duration("10 ms"), 10000000000u);
  EXPECT_EQ(parse_duration("18446744s"), 18446744000000000000u);
  // Minutes, hours and days, for recovery times and run lengths (docs/goodput.md).
  EXPECT_EQ(parse_duration("1min"), 60000000000000u);
  EXPECT_EQ(parse_duration("1.5min"), 90000000000000u);
  EXPECT_EQ(parse_duration("0.5h"), 1800000000000000u);
  EXPECT_EQ(parse_duration("24h"), parse_duration("1d"));
  EXPECT_EQ(parse_duration("213d"), 213u * 86400u * 1000000000000u);
  EXPECT_THROW(static_cast<void>(parse_duration("214d")), UnitError);
}

TEST(Units, PowerAndFlopRate) {
  EXPECT_EQ(parse_power("700W"), 700.0);
  EXPECT_EQ(parse_power("1.2kW"), 1200.0);
  EXPECT_EQ(parse_power("2MW"), 2e6);
  EXPECT_EQ(parse_power("17.5 W"), 17.5);
  EXPECT_EQ(parse_flop_rate("1FLOPS"), 1.0);
  EXPECT_EQ(parse_flop_rate("5GFLOPS"), 5e9);
  EXPECT_EQ(parse_flop_rate("989.4TFLOPS"), 989.4e12);
  EXPECT_EQ(parse_flop_rate("2.5PFLOPS"), 2.5e15);
  EXPECT_EQ(parse_flop_rate("0TFLOPS"), 0.0);
}

TEST(Units, MissingUnitIsAnErrorNamingExamples) {
  EXPECT_EQ(error_of(parse_bandwidth, "400"), "expected a bandwidth with a unit, such as 400Gbps or 50GB/s, found 400");
  EXPECT_EQ(error_of_any(parse_bytes, "65536"), "expected a size with a unit, such as 64KiB or 80GB, found 65536");
  EXPECT_EQ(error_of_any(parse_duration, "500"), "expected a duration with a unit, such as 500ns or 1.5us, found 500");
  EXPECT_EQ(error_of(parse_power, "700"), "expected a power with a unit, such as 700W or 1.2kW, found 700");
  EXPECT_EQ(error_of(parse_flop_rate, "1e15"),
            "expected a FLOP rate with a unit, such as 989.4TFLOPS or 2.5PFLOPS, found 1e15");
}

TEST(Units, UnknownUnitListsTheValidOnes) {
  EXPECT_EQ(error_of(parse_bandwidth, "400Gbit/s"),
            "expected a bandwidth unit (one of bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, "
            "GiB/s, TiB/s), found '400Gbit/s'");
  EXPECT_EQ(error_of_any(parse_duration, "2mins"),
            "expected a duration unit (one of ps, ns, us, ms, s, min, h, d), found '2mins'");
  EXPECT_EQ(error_of(parse_power, "1.2KW"),
            "expected a power unit (one of W, kW, MW), found '1.2KW'; did you mean '1.2kW'?");
}

TEST(Units, CaseMattersAndNearMissesAreSuggested) {
  EXPECT_EQ(error_of(parse_bandwidth, "400gbps"),
            "expected a bandwidth unit (one of bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, "
            "GiB/s, TiB/s), found '400gbps'; did you mean '400Gbps'?");
  EXPECT_EQ(
      error_of_any(parse_bytes, "64kib"),
      "expected a size unit (one of B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), found '64kib'; did you mean '64KiB'?");
  EXPECT_EQ(error_of_any(parse_duration, "5NS"),
            "expected a duration unit (one of ps, ns, us, ms, s, min, h, d), found '5NS'; did you mean '5ns'?");
  // A size unit is not a bandwidth unit.
  EXPECT_NE(error_of(parse_bandwidth, "50GB").find("found '50GB'"), std::string::npos);
}

TEST(Units, SpacingIsStrict) {
  EXPECT_NE(error_of(parse_bandwidth, "400  Gbps"), "");
  EXPECT_NE(error_of(parse_bandwidth, " 400Gbps"), "");
  EXPECT_NE(error_of(parse_bandwidth, "400Gbps "), "");
  EXPECT_NE(error_of(parse_bandwidth, "400\tGbps"), "");
  EXPECT_EQ(error_of(parse_bandwidth, "Gbps"), "expected a bandwidth such as 400Gbps or 50GB/s, found 'Gbps'");
  EXPECT_EQ(error_of(parse_bandwidth, ""), "expected a bandwidth such as 400Gbps or 50GB/s, found ''");
  EXPECT_EQ(error_of(parse_bandwidth, "fast"), "expected a bandwidth such as 400Gbps or 50GB/s, found 'fast'");
  EXPECT_NE(error_of(parse_bandwidth, "+400Gbps"), "");
  EXPECT_NE(error_of(parse_bandwidth, "1,000Gbps"), "");
}

TEST(Units, NegativeValuesAreErrors) {
  EXPECT_EQ(error_of(parse_bandwidth, "-400Gbps"), "expected a non-negative bandwidth, found '-400Gbps'");
  EXPECT_EQ(error_of_any(parse_bytes, "-1B"), "expected a non-negative size, found '-1B'");
  EXPECT_EQ(error_of_any(parse_duration, "-5ns"), "expected a non-negative duration, found '-5ns'");
  EXPECT_EQ(error_of(parse_power, "-1W"), "expected a non-negative power, found '-1W'");
  EXPECT_EQ(error_of(parse_flop_rate, "-1TFLOPS"), "expected a non-negative FLOP rate, found '-1TFLOPS'");
}

TEST(Units, BytesAndPicosecondsMustBeWhole) {
  EXPECT_EQ(error_of_any(parse_bytes, "1.5B"), "expected a whole number of bytes, found '1.5B'");
  EXPECT_EQ(error_of_any(parse_bytes, "1.1KiB"), "expected a whole number of bytes, found '1.1KiB'");
  EXPECT_EQ(error_of_any(parse_bytes, "1e-4KB"), "expected a whole number of bytes, found '1e-4KB'");
  EXPECT_EQ(error_of_any(parse_duration, "0.5ps"), "expected a whole number of picoseconds, found '0.5ps'");
  EXPECT_EQ(error_of_any(parse_duration, "1.0001ns"), "expected a whole number of picoseconds, found '1.0001ns'");
  EXPECT_EQ(error_of_any(parse_duration, "1e-30s"), "expected a whole number of picoseconds, found '1e-30s'");
}

TEST(Units, OverflowIsAnError) {
  EXPECT_EQ(error_of_any(parse_bytes, "18446744073709551615B"),
            "expected a size below 16EiB (2^64 bytes), found '18446744073709551615B'");
  EXPECT_EQ(error_of_any(parse_bytes, "16777216TiB"), "expected a size below 16EiB (2^64 bytes), found '16777216TiB'");
  EXPECT_EQ(error_of_any(parse_bytes, "1e30GB"), "expected a size below 16EiB (2^64 bytes), found '1e30GB'");
  EXPECT_EQ(error_of_any(parse_bytes, "123456789012345678901234567890B"),
            "expected a size below 16EiB (2^64 bytes), found '123456789012345678901234567890B'");
  EXPECT_EQ(error_of_any(parse_duration, "1e8s"), "expected a duration below 2^64 ps (about 213 days), found '1e8s'");
  EXPECT_EQ(error_of_any(parse_duration, "18446745s"),
            "expected a duration below 2^64 ps (about 213 days), found '18446745s'");
  EXPECT_EQ(error_of(parse_bandwidth, "1e400GB/s"),
            "expected a bandwidth within the range of a double, found '1e400GB/s'");
  EXPECT_NE(error_of(parse_bandwidth, "1e99999999999Gbps"), "");
}

TEST(Units, UnitListsForMessagesAndDocs) {
  EXPECT_EQ(size_units(), "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB");
  EXPECT_EQ(duration_units(), "ps, ns, us, ms, s, min, h, d");
  EXPECT_EQ(power_units(), "W, kW, MW");
  EXPECT_EQ(flop_rate_units(), "FLOPS, GFLOPS, TFLOPS, PFLOPS");
  EXPECT_EQ(bandwidth_units(), "bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s");
}

TEST(Units, QuoteFoundShowsNumbersBare) {
  EXPECT_EQ(quote_found("-2"), "-2");
  EXPECT_EQ(quote_found("1.5e3"), "1.5e3");
  EXPECT_EQ(quote_found("eight"), "'eight'");
  EXPECT_EQ(quote_found("400Gbps"), "'400Gbps'");
  EXPECT_EQ(quote_found(""), "''");
}

}  // namespace
}  // namespace rackscale::io

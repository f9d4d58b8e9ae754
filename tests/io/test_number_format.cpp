// The number rules of the summaries (src/io/number_format.hpp), against values worked out by hand: four
// significant figures in fixed notation, trailing zeros only where the value is not exact, one unit per
// table, "not counted" apart from 0.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "io/number_format.hpp"

namespace {

using namespace rackscale::io;

TEST(NumberFormat, FourSignificantFiguresInFixedNotation) {
  EXPECT_EQ(significant(34.5334), "34.53");
  EXPECT_EQ(significant(139.3), "139.3");
  EXPECT_EQ(significant(0.000162734), "0.0001627");  // never 1.627e-04
  EXPECT_EQ(significant(12345.6), "12,350");          // never 1.235e+04
  EXPECT_EQ(significant(1979), "1,979");
  EXPECT_EQ(significant(-2.5), "-2.5");
  EXPECT_EQ(significant(0), "0");
  EXPECT_EQ(significant(std::numeric_limits<double>::quiet_NaN()), "-");
}

TEST(NumberFormat, TrailingZerosShowOnlyWhenTheValueIsNotExact) {
  EXPECT_EQ(significant(1.6), "1.6");       // 1.600 is exact
  EXPECT_EQ(significant(80), "80");
  EXPECT_EQ(significant(323.991), "324.0");  // rounded: the zero is a measured digit
  EXPECT_EQ(significant(0.807000000000001), "0.807");  // exact within the doubles' rounding
  // 9.99951 rounds up to the next power of ten: still four figures, not "10.000".
  EXPECT_EQ(significant(9.99951), "10.00");
}

TEST(NumberFormat, PrefixFamilies) {
  EXPECT_EQ(with_prefix(5651.564, Prefixes::si, "J"), "5.652 kJ");
  EXPECT_EQ(with_prefix(189.096, Prefixes::si, "J"), "189.1 J");
  EXPECT_EQ(with_prefix(0.5, Prefixes::si, "J"), "0.5 J");
  EXPECT_EQ(with_prefix(348.2353e12, Prefixes::si, "FLOP/s"), "348.2 TFLOP/s");
  // Counts: K, M, B, T, a word of their own; tokens are never "G".
  EXPECT_EQ(with_prefix(16e9, Prefixes::counts, "tokens"), "16 B tokens");
  EXPECT_EQ(with_prefix(3152098.6, Prefixes::counts, ""), "3.152 M");
  EXPECT_EQ(with_prefix(820645888, Prefixes::counts, "parameters"), "820.6 M parameters");
  EXPECT_EQ(with_prefix(2000, Prefixes::counts, ""), "2 K");
  EXPECT_EQ(with_prefix(999, Prefixes::counts, "tokens"), "999 tokens");
  // 999,960 W rounds to 1000 kW: shown as 1.000 MW instead.
  EXPECT_EQ(with_prefix(999960, Prefixes::si, "W"), "1.000 MW");
}

TEST(NumberFormat, BytesBandwidthMoneyAndShares) {
  EXPECT_EQ(format_bytes(566935683072), "528 GiB");  // 528 x 2^30 exactly
  EXPECT_EQ(format_bytes(56724291584), "52.83 GiB");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(1023.99 * 1024 * 1024), "1.000 GiB");
  EXPECT_EQ(format_bytes(100), "100 B");
  EXPECT_EQ(format_bandwidth(5e10), "50 GB/s (400 Gb/s)");
  EXPECT_EQ(format_usd(51.472136), "$51.47");
  EXPECT_EQ(format_usd(4.569e6), "$4.569 M");
  EXPECT_EQ(format_usd(807000.0000000001), "$807 K");
  EXPECT_EQ(format_usd(0.000245844), "$0.0002458");
  EXPECT_EQ(format_usd(0), "$0");
  EXPECT_EQ(format_percent(0.3252412), "32.52 %");
  EXPECT_EQ(format_percent(1), "100 %");
  EXPECT_EQ(format_percent(0.00082467), "0.08247 %");
}

TEST(NumberFormat, Durations) {
  EXPECT_EQ(format_seconds(3.45334e-5), "34.53 us");
  EXPECT_EQ(format_seconds(1.393e-4), "139.3 us");
  EXPECT_EQ(format_seconds(0.166329820574), "166.3 ms");
  EXPECT_EQ(format_seconds(5076.053), "84.60 min");  // 84.6009 min
  EXPECT_EQ(format_seconds(3 * 3600), "3 h");
  EXPECT_EQ(format_seconds(34 * 86400), "34 days");
  EXPECT_EQ(format_seconds(0), "0 s");
  // Rounding that reaches the next unit moves to it: 999.96 us is 1.000 ms, 119.9996 s is 2.000 min.
  EXPECT_EQ(format_seconds(999.96e-6), "1.000 ms");
  EXPECT_EQ(format_seconds(119.9996), "2.000 min");
  // Simulated time in integer picoseconds.
  EXPECT_EQ(format_picoseconds(250000), "250 ns");
  EXPECT_EQ(format_picoseconds(7), "7 ps");
  EXPECT_EQ(format_picoseconds(34533355), "34.53 us");
  EXPECT_EQ(format_picoseconds(rackscale::pdes::kNever), "never");
}

TEST(NumberFormat, OneUnitPerTable) {
  // A time breakdown whose largest part is 72.59 ms is shown in ms throughout.
  const Unit ms = time_unit(0.07259);
  EXPECT_STREQ(ms.name, "ms");
  EXPECT_EQ(in_unit(1.372e-4, ms), "0.1372 ms");
  EXPECT_EQ(in_unit(0, ms), "0 ms");
  EXPECT_STREQ(time_unit(2.5).name, "s");
  EXPECT_STREQ(time_unit(3e-7).name, "ns");
  EXPECT_STREQ(time_unit(0).name, "ps");
  // Carbon: a table whose largest item is 20.03 kg shows 96.05 g as 0.09605 kg.
  const Unit kg = carbon_unit(20.03);
  EXPECT_STREQ(kg.name, "kg");
  EXPECT_EQ(format_carbon(0.09605112, kg), "0.09605 kg");
  EXPECT_EQ(format_carbon(36134.4, carbon_unit(36134.4)), "36.13 t");
  EXPECT_STREQ(carbon_unit(0.5).name, "g");
  EXPECT_STREQ(carbon_unit(2e6).name, "kt");
  EXPECT_EQ(format_carbon(0.0011677, carbon_unit(0.0011840)), "1.168 g");
}

TEST(NumberFormat, NotCountedIsNotZero) {
  const Unit kg = carbon_unit(1);
  EXPECT_EQ(format_carbon(std::nullopt, kg), "not counted");
  EXPECT_EQ(format_carbon(0.0, kg), "0 kg");
}

TEST(NumberFormat, ThousandsSeparators) {
  EXPECT_EQ(with_commas(1234567), "1,234,567");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(0), "0");
}

}  // namespace

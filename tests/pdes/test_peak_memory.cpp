// pdes::peak_memory_bytes() is in bytes on every system (getrusage's ru_maxrss is KiB on Linux and
// bytes on macOS): touching 64 MiB raises it by about that much, not by a thousandth or a thousand
// times as much.
#include "pdes/statistics.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace rackscale::pdes {
namespace {

TEST(PeakMemory, CountsBytes) {
  constexpr std::size_t kBlock = std::size_t{64} << 20;
  const std::uint64_t before = peak_memory_bytes();
  std::vector<unsigned char> block(kBlock);
  for (std::size_t i = 0; i < kBlock; i += 4096) block[i] = static_cast<unsigned char>(i / 4096);
  const std::uint64_t after = peak_memory_bytes();
  EXPECT_EQ(block[kBlock - 4096], static_cast<unsigned char>(kBlock / 4096 - 1));
  EXPECT_GE(after, before + kBlock * 9 / 10);
  EXPECT_LT(after, std::uint64_t{4} << 30);  // the test process is far smaller than 4 GiB
}

}  // namespace
}  // namespace rackscale::pdes

#include "pdes/log_buckets.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace rackscale::pdes {

std::size_t log_bucket_of(std::uint64_t value) noexcept {
  constexpr std::uint64_t sub = std::uint64_t{1} << kLogBucketSubBits;
  if (value < sub) return static_cast<std::size_t>(value);
  // Values in [2^e, 2^(e+1)) with e >= kLogBucketSubBits share 128 buckets of width 2^(e - kLogBucketSubBits).
  const auto shift = static_cast<unsigned>(std::bit_width(value)) - 1 - kLogBucketSubBits;
  return ((shift + 1) << kLogBucketSubBits) | static_cast<std::size_t>((value >> shift) & (sub - 1));
}

std::uint64_t log_bucket_low(std::size_t bucket) noexcept {
  constexpr std::uint64_t sub = std::uint64_t{1} << kLogBucketSubBits;
  if (bucket < sub) return bucket;
  const auto shift = static_cast<unsigned>(bucket >> kLogBucketSubBits) - 1;
  return ((bucket & (sub - 1)) | sub) << shift;
}

std::uint64_t log_bucket_quantile(std::span<const std::uint64_t> counts, std::uint64_t count, std::uint64_t min,
                                  std::uint64_t max, double q) noexcept {
  if (count == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    seen += counts[b];
    if (seen >= std::max<std::uint64_t>(rank, 1)) return std::clamp(log_bucket_low(b), min, max);
  }
  return max;
}

}  // namespace rackscale::pdes

#pragma once
// Logarithmic buckets for non-negative integers (durations in ps, sizes in bytes): exact below 128,
// then 128 buckets per power of two, so a quantile read from bucket counts is within 1/128 (0.8 %) of a
// true sample, and the counts merge over ranks by plain sums.
#include <cstddef>
#include <cstdint>
#include <span>

namespace rackscale::pdes {

inline constexpr unsigned kLogBucketSubBits = 7;  // 128 sub-buckets per octave
inline constexpr std::size_t kLogBuckets = (64 - kLogBucketSubBits + 1) << kLogBucketSubBits;

[[nodiscard]] std::size_t log_bucket_of(std::uint64_t value) noexcept;
// The smallest value that falls in `bucket`.
[[nodiscard]] std::uint64_t log_bucket_low(std::size_t bucket) noexcept;
// The smallest bucket value v with at least q * count samples at or below v's bucket, clamped to
// [min, max]; 0 without samples. `counts` has kLogBuckets entries.
[[nodiscard]] std::uint64_t log_bucket_quantile(std::span<const std::uint64_t> counts, std::uint64_t count,
                                                std::uint64_t min, std::uint64_t max, double q) noexcept;

}  // namespace rackscale::pdes

#include "models/statistics/log_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace rackscale::models::statistics {

std::size_t LogHistogram::bucket_of(std::uint64_t value) noexcept {
  constexpr std::uint64_t sub = std::uint64_t{1} << kSubBits;
  if (value < sub) return static_cast<std::size_t>(value);
  // Values in [2^e, 2^(e+1)) with e >= kSubBits share 128 buckets of width 2^(e - kSubBits).
  const auto shift = static_cast<unsigned>(std::bit_width(value)) - 1 - kSubBits;
  return ((shift + 1) << kSubBits) | static_cast<std::size_t>((value >> shift) & (sub - 1));
}

std::uint64_t LogHistogram::bucket_low(std::size_t bucket) noexcept {
  constexpr std::uint64_t sub = std::uint64_t{1} << kSubBits;
  if (bucket < sub) return bucket;
  const auto shift = static_cast<unsigned>(bucket >> kSubBits) - 1;
  return ((bucket & (sub - 1)) | sub) << shift;
}

void LogHistogram::add(std::uint64_t value) noexcept {
  ++counts_[bucket_of(value)];
  ++count_;
  sum_ += value;
  min_ = std::min(min_, value);
  max_ = std::max(max_, value);
}

double LogHistogram::mean() const noexcept {
  return count_ == 0 ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
}

std::uint64_t LogHistogram::quantile(double q) const noexcept {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < counts_.size(); ++b) {
    seen += counts_[b];
    if (seen >= std::max<std::uint64_t>(rank, 1)) return std::clamp(bucket_low(b), min(), max_);
  }
  return max_;
}

}  // namespace rackscale::models::statistics

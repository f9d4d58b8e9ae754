#include "models/statistics/log_histogram.hpp"

#include <algorithm>

#include "pdes/log_buckets.hpp"

namespace rackscale::models::statistics {

std::size_t LogHistogram::bucket_of(std::uint64_t value) noexcept { return pdes::log_bucket_of(value); }

std::uint64_t LogHistogram::bucket_low(std::size_t bucket) noexcept { return pdes::log_bucket_low(bucket); }

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
  return pdes::log_bucket_quantile(counts_, count_, min(), max_, q);
}

}  // namespace rackscale::models::statistics

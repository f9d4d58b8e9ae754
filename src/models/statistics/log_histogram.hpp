#pragma once
// A histogram of non-negative integers (durations in ps) in the engine's logarithmic buckets
// (pdes/log_buckets.hpp): exact below 128, then 128 buckets per power of two, so any quantile is within
// 1/128 (0.8%) of a true sample. Counts are integers, so merging the ranks' histograms gives the same answer however
// the samples were spread; memory is fixed (about 60 KiB) whatever the number of samples.
#include <cstdint>
#include <vector>

#include "pdes/log_buckets.hpp"

namespace rackscale::models::statistics {

class LogHistogram {
 public:
  static constexpr unsigned kSubBits = pdes::kLogBucketSubBits;
  static constexpr std::size_t kBuckets = pdes::kLogBuckets;

  LogHistogram() : counts_(kBuckets, 0) {}

  void add(std::uint64_t value) noexcept;
  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] std::uint64_t min() const noexcept { return count_ ? min_ : 0; }
  [[nodiscard]] std::uint64_t max() const noexcept { return max_; }
  [[nodiscard]] std::uint64_t sum() const noexcept { return sum_; }
  [[nodiscard]] double mean() const noexcept;
  // The smallest bucket value v with at least q * count samples <= v's bucket, clamped to [min, max].
  [[nodiscard]] std::uint64_t quantile(double q) const noexcept;

  // For reductions over ranks: bucket counts, count and sum add; min and max take min and max.
  [[nodiscard]] std::vector<std::uint64_t>& counts() noexcept { return counts_; }
  [[nodiscard]] const std::vector<std::uint64_t>& counts() const noexcept { return counts_; }
  std::uint64_t& raw_count() noexcept { return count_; }
  std::uint64_t& raw_min() noexcept { return min_; }
  std::uint64_t& raw_max() noexcept { return max_; }

  // For checkpoints (pdes/checkpoint.hpp).
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    for (std::uint64_t& c : counts_) ar & c;
    ar & count_ & min_ & max_ & sum_;
  }

  [[nodiscard]] static std::size_t bucket_of(std::uint64_t value) noexcept;
  [[nodiscard]] static std::uint64_t bucket_low(std::size_t bucket) noexcept;

 private:
  std::vector<std::uint64_t> counts_;
  std::uint64_t count_ = 0;
  std::uint64_t min_ = ~std::uint64_t{0};
  std::uint64_t max_ = 0;
  std::uint64_t sum_ = 0;  // exact below 2^64 (1.8e19 ps summed: 5 hours of total latency)
};

}  // namespace rackscale::models::statistics

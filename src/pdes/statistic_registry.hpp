#pragma once
// Statistics as an engine service. A model declares each figure once — its name, units, description and
// how ranks combine it — records into it while it runs, and the run reduces every declared figure in one
// collective whose result does not depend on how LPs are spread over ranks: every value is an unsigned
// integer, combined by sum, minimum or maximum, which are exact, associative and commutative. Writers
// (io/statistics_figures.*) iterate over the reduced set, so no figure is indexed by hand.
//
// Every rank declares the same statistics in the same order (a model declares them whether or not it
// owns an LP that records into them); reduce() checks that and names the first difference.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/mpi/communicator.hpp>

namespace rackscale::pdes {

enum class Combine : std::uint8_t { sum, min, max };

enum class StatisticShape : std::uint8_t {
  values,     // `rows` values, each combined by `combine` (a scalar has one row)
  histogram,  // samples in logarithmic buckets (pdes/log_buckets.hpp): counts, sample count and sum add,
              // the smallest and largest sample take the minimum and the maximum
};

struct StatisticSpec {
  std::string name;  // snake_case, the unit's suffix last (_ps, _bytes, ...): the figure's name in outputs
  std::string units;
  std::string description;
  StatisticShape shape = StatisticShape::values;
  Combine combine = Combine::sum;  // values only
  std::size_t rows = 1;            // values only
};

class StatisticRegistry;

// One declared statistic, as the model that records into it holds it.
class Statistic {
 public:
  // Combines `value` into `row` by the declared rule: a sum adds it, a minimum keeps the smaller, a
  // maximum the larger.
  void record(std::uint64_t value, std::size_t row = 0);
  // A histogram's sample.
  void sample(std::uint64_t value);
  // A histogram's samples kept elsewhere in the same logarithmic buckets (pdes/log_buckets.hpp): `counts`
  // has kLogBuckets entries; `min` and `max` are ignored when `count` is 0. Throws std::logic_error for a
  // values statistic and std::invalid_argument for another number of buckets.
  void merge_samples(std::span<const std::uint64_t> counts, std::uint64_t count, std::uint64_t sum, std::uint64_t min,
                     std::uint64_t max);
  [[nodiscard]] std::span<const std::uint64_t> values() const;

 private:
  friend class StatisticRegistry;
  Statistic(StatisticRegistry& registry, std::uint32_t index) : registry_(&registry), index_(index) {}
  StatisticRegistry* registry_;
  std::uint32_t index_;
};

// A statistic summed, minimized or maximized over every rank.
struct ReducedStatistic {
  StatisticSpec spec;
  std::vector<std::uint64_t> values;  // values: one per row; histogram: buckets, then count, sum, min, max

  // Histograms: the number of samples, their sum, smallest and largest, and the smallest bucket value v
  // with at least q of the samples at or below v's bucket (within 1/128 of a true sample), clamped to
  // [min, max].
  [[nodiscard]] std::uint64_t sample_count() const;
  [[nodiscard]] std::uint64_t sample_sum() const;
  [[nodiscard]] std::uint64_t sample_min() const;
  [[nodiscard]] std::uint64_t sample_max() const;
  [[nodiscard]] std::uint64_t quantile(double q) const;
};

class ReducedStatistics {
 public:
  ReducedStatistics() = default;
  explicit ReducedStatistics(std::vector<ReducedStatistic> statistics) : statistics_(std::move(statistics)) {}
  [[nodiscard]] const std::vector<ReducedStatistic>& all() const noexcept { return statistics_; }
  // Throws std::out_of_range naming `name` when no statistic has it.
  [[nodiscard]] const ReducedStatistic& operator[](std::string_view name) const;

 private:
  std::vector<ReducedStatistic> statistics_;
};

class StatisticRegistry {
 public:
  // Throws std::invalid_argument for a repeated or empty name, or a values statistic of no rows.
  Statistic declare(StatisticSpec spec);
  Statistic values(std::string name, std::string units, std::string description, Combine combine,
                   std::size_t rows = 1);
  Statistic histogram(std::string name, std::string units, std::string description);

  [[nodiscard]] std::size_t size() const noexcept { return specs_.size(); }

  // Collective: every statistic reduced over the ranks of `comm`, on every rank, in one MPI_Allreduce.
  // Throws std::logic_error when the ranks declared different statistics.
  [[nodiscard]] ReducedStatistics reduce(const boost::mpi::communicator& comm) const;

 private:
  friend class Statistic;
  std::vector<StatisticSpec> specs_;
  std::vector<std::vector<std::uint64_t>> values_;
};

}  // namespace rackscale::pdes

#include "pdes/statistic_registry.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <boost/mpi/exception.hpp>

#include "pdes/log_buckets.hpp"

namespace rackscale::pdes {

namespace {

constexpr std::uint64_t kUnset = std::numeric_limits<std::uint64_t>::max();
// A histogram's values after its bucket counts.
constexpr std::size_t kHistogramCount = kLogBuckets, kHistogramSum = kLogBuckets + 1,
                      kHistogramMin = kLogBuckets + 2, kHistogramMax = kLogBuckets + 3,
                      kHistogramValues = kLogBuckets + 4;

std::size_t value_count(const StatisticSpec& spec) {
  return spec.shape == StatisticShape::histogram ? kHistogramValues : spec.rows;
}

// How value `i` of a statistic combines over ranks.
Combine combine_of(const StatisticSpec& spec, std::size_t i) {
  if (spec.shape == StatisticShape::values) return spec.combine;
  if (i == kHistogramMin) return Combine::min;
  if (i == kHistogramMax) return Combine::max;
  return Combine::sum;
}

std::uint64_t initial_value(Combine combine) { return combine == Combine::min ? kUnset : 0; }

std::uint64_t combined(Combine combine, std::uint64_t a, std::uint64_t b) {
  switch (combine) {
    case Combine::sum: return a + b;
    case Combine::min: return std::min(a, b);
    case Combine::max: return std::max(a, b);
  }
  return a;
}

// MPI reduces (rule, value) pairs: the rule travels with each value, so one user operation combines
// sums, minima and maxima in a single MPI_Allreduce. Integer sums, minima and maxima are exact,
// associative and commutative, so the result does not depend on the order MPI combines ranks in.
extern "C" void combine_rule_value_pairs(void* in, void* inout, int* length, MPI_Datatype* /*type*/) {
  const auto* a = static_cast<const std::uint64_t*>(in);
  auto* b = static_cast<std::uint64_t*>(inout);
  for (int i = 0; i < *length; ++i) {
    b[2 * i + 1] = combined(static_cast<Combine>(a[2 * i]), a[2 * i + 1], b[2 * i + 1]);
  }
}

// FNV-1a over what every rank must have declared alike.
std::uint64_t declaration_hash(const std::vector<StatisticSpec>& specs) {
  std::uint64_t hash = 14695981039346656037ULL;
  const auto mix = [&hash](std::uint64_t byte) {
    hash ^= byte;
    hash *= 1099511628211ULL;
  };
  for (const StatisticSpec& spec : specs) {
    for (char c : spec.name) mix(static_cast<unsigned char>(c));
    mix(0);
    mix(static_cast<std::uint64_t>(spec.shape));
    mix(static_cast<std::uint64_t>(spec.combine));
    for (int shift = 0; shift < 64; shift += 8) mix((value_count(spec) >> shift) & 0xFF);
  }
  return hash;
}

void allreduce_pairs(const boost::mpi::communicator& comm, std::vector<std::uint64_t>& pairs) {
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  BOOST_MPI_CHECK_RESULT(MPI_Type_contiguous, (2, MPI_UINT64_T, &pair));
  BOOST_MPI_CHECK_RESULT(MPI_Type_commit, (&pair));
  MPI_Op op = MPI_OP_NULL;
  BOOST_MPI_CHECK_RESULT(MPI_Op_create, (&combine_rule_value_pairs, 1, &op));
  const int result = MPI_Allreduce(MPI_IN_PLACE, pairs.data(), static_cast<int>(pairs.size() / 2), pair, op,
                                   MPI_Comm(comm));
  MPI_Op_free(&op);
  MPI_Type_free(&pair);
  if (result != MPI_SUCCESS) boost::throw_exception(boost::mpi::exception("MPI_Allreduce", result));
}

}  // namespace

void Statistic::record(std::uint64_t value, std::size_t row) {
  const StatisticSpec& spec = registry_->specs_[index_];
  std::uint64_t& cell = registry_->values_[index_].at(row);
  cell = combined(spec.combine, cell, value);
}

void Statistic::sample(std::uint64_t value) {
  std::vector<std::uint64_t>& v = registry_->values_[index_];
  ++v[log_bucket_of(value)];
  ++v[kHistogramCount];
  v[kHistogramSum] += value;
  v[kHistogramMin] = std::min(v[kHistogramMin], value);
  v[kHistogramMax] = std::max(v[kHistogramMax], value);
}

void Statistic::merge_samples(std::span<const std::uint64_t> counts, std::uint64_t count, std::uint64_t sum,
                              std::uint64_t min, std::uint64_t max) {
  const StatisticSpec& spec = registry_->specs_[index_];
  if (spec.shape != StatisticShape::histogram) throw std::logic_error("statistic " + spec.name + " is not a histogram");
  if (counts.size() != kLogBuckets) {
    throw std::invalid_argument("statistic " + spec.name + ": expected " + std::to_string(kLogBuckets) +
                                " bucket counts, found " + std::to_string(counts.size()));
  }
  std::vector<std::uint64_t>& v = registry_->values_[index_];
  for (std::size_t b = 0; b < kLogBuckets; ++b) v[b] += counts[b];
  v[kHistogramCount] += count;
  v[kHistogramSum] += sum;
  if (count == 0) return;
  v[kHistogramMin] = std::min(v[kHistogramMin], min);
  v[kHistogramMax] = std::max(v[kHistogramMax], max);
}

std::span<const std::uint64_t> Statistic::values() const { return registry_->values_[index_]; }

Statistic StatisticRegistry::declare(StatisticSpec spec) {
  if (spec.name.empty()) throw std::invalid_argument("a statistic needs a name");
  if (spec.shape == StatisticShape::values && spec.rows == 0) {
    throw std::invalid_argument("statistic " + spec.name + ": expected at least one row, found 0");
  }
  for (const StatisticSpec& other : specs_) {
    if (other.name == spec.name) throw std::invalid_argument("statistic " + spec.name + " is declared twice");
  }
  std::vector<std::uint64_t> values(value_count(spec));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = initial_value(combine_of(spec, i));
  specs_.push_back(std::move(spec));
  values_.push_back(std::move(values));
  return Statistic(*this, static_cast<std::uint32_t>(specs_.size() - 1));
}

Statistic StatisticRegistry::values(std::string name, std::string units, std::string description, Combine combine,
                                    std::size_t rows) {
  return declare({std::move(name), std::move(units), std::move(description), StatisticShape::values, combine, rows});
}

Statistic StatisticRegistry::histogram(std::string name, std::string units, std::string description) {
  return declare({std::move(name), std::move(units), std::move(description), StatisticShape::histogram, Combine::sum, 1});
}

ReducedStatistics StatisticRegistry::reduce(const boost::mpi::communicator& comm) const {
  // First agree on what was declared: a different count would make the data reduction itself erroneous.
  std::size_t total = 0;
  for (const auto& v : values_) total += v.size();
  const std::uint64_t hash = declaration_hash(specs_);
  std::vector<std::uint64_t> check{static_cast<std::uint64_t>(Combine::min), total, static_cast<std::uint64_t>(Combine::max),
                                   total, static_cast<std::uint64_t>(Combine::min), hash,
                                   static_cast<std::uint64_t>(Combine::max), hash};
  allreduce_pairs(comm, check);
  if (check[1] != check[3] || check[5] != check[7]) {
    throw std::logic_error("the ranks declared different statistics (rank " + std::to_string(comm.rank()) + " declared " +
                           std::to_string(specs_.size()) + ", " + std::to_string(total) +
                           " values): every rank must declare the same statistics in the same order");
  }
  std::vector<std::uint64_t> pairs;
  pairs.reserve(2 * total);
  for (std::size_t s = 0; s < specs_.size(); ++s) {
    for (std::size_t i = 0; i < values_[s].size(); ++i) {
      pairs.push_back(static_cast<std::uint64_t>(combine_of(specs_[s], i)));
      pairs.push_back(values_[s][i]);
    }
  }
  if (!pairs.empty()) allreduce_pairs(comm, pairs);
  std::vector<ReducedStatistic> reduced;
  reduced.reserve(specs_.size());
  std::size_t at = 0;
  for (std::size_t s = 0; s < specs_.size(); ++s) {
    ReducedStatistic r{specs_[s], std::vector<std::uint64_t>(values_[s].size())};
    for (std::uint64_t& value : r.values) value = pairs[2 * at++ + 1];
    reduced.push_back(std::move(r));
  }
  return ReducedStatistics(std::move(reduced));
}

const ReducedStatistic& ReducedStatistics::operator[](std::string_view name) const {
  for (const ReducedStatistic& s : statistics_) {
    if (s.spec.name == name) return s;
  }
  throw std::out_of_range("no statistic named " + std::string(name) + " was declared");
}

namespace {
void require_histogram(const ReducedStatistic& s) {
  if (s.spec.shape != StatisticShape::histogram) {
    throw std::logic_error("statistic " + s.spec.name + " is not a histogram");
  }
}
}  // namespace

std::uint64_t ReducedStatistic::sample_count() const {
  require_histogram(*this);
  return values[kHistogramCount];
}
std::uint64_t ReducedStatistic::sample_sum() const {
  require_histogram(*this);
  return values[kHistogramSum];
}
std::uint64_t ReducedStatistic::sample_min() const {
  require_histogram(*this);
  return values[kHistogramCount] == 0 ? 0 : values[kHistogramMin];
}
std::uint64_t ReducedStatistic::sample_max() const {
  require_histogram(*this);
  return values[kHistogramMax];
}
std::uint64_t ReducedStatistic::quantile(double q) const {
  require_histogram(*this);
  return log_bucket_quantile(std::span(values).first(kLogBuckets), sample_count(), sample_min(), sample_max(), q);
}

}  // namespace rackscale::pdes

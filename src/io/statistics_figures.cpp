#include "io/statistics_figures.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "io/figures.hpp"
#include "io/number_format.hpp"
#include "io/results_columns.hpp"
#include "pdes/log_buckets.hpp"

namespace rackscale::io {

nlohmann::ordered_json statistics_json(const pdes::ReducedStatistics& statistics) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const pdes::ReducedStatistic& s : statistics.all()) {
    if (s.spec.shape == pdes::StatisticShape::histogram) {
      out[s.spec.name] = {{"count", s.sample_count()}, {"sum", s.sample_sum()}, {"min", s.sample_min()},
                          {"max", s.sample_max()},     {"p50", s.quantile(0.5)}, {"p99", s.quantile(0.99)}};
    } else if (s.values.size() == 1) {
      out[s.spec.name] = s.values.front();
    } else {
      out[s.spec.name] = s.values;
    }
  }
  return out;
}

namespace {
const char* combine_name(pdes::Combine c) {
  switch (c) {
    case pdes::Combine::sum: return "sum";
    case pdes::Combine::min: return "minimum";
    case pdes::Combine::max: return "maximum";
  }
  return "?";
}

std::string rows_text(const std::vector<std::uint64_t>& values, std::size_t shown) {
  std::string out;
  const std::size_t n = std::min(shown, values.size());
  for (std::size_t i = 0; i < n; ++i) out += (i == 0 ? "" : ", ") + with_commas(values[i]);
  if (values.size() > n) out += fmt::format(", ... {} more", values.size() - n);
  return out;
}
}  // namespace

std::string statistics_text(const pdes::ReducedStatistics& statistics, std::size_t rows_shown) {
  if (statistics.all().empty()) return "";
  std::string out = fmt::format("statistics: {} figure(s), reduced over ranks\n", statistics.all().size());
  for (const pdes::ReducedStatistic& s : statistics.all()) {
    const std::string units = s.spec.units.empty() ? "" : " " + s.spec.units;
    if (s.spec.shape == pdes::StatisticShape::histogram) {
      out += fmt::format("  {}: {} samples, sum {}, min {}, p50 {}, p99 {}, max {}{} (histogram; {})\n", s.spec.name,
                         with_commas(s.sample_count()), with_commas(s.sample_sum()), with_commas(s.sample_min()),
                         with_commas(s.quantile(0.5)), with_commas(s.quantile(0.99)), with_commas(s.sample_max()), units,
                         s.spec.description);
    } else if (s.values.size() == 1) {
      out += fmt::format("  {}: {}{} ({}; {})\n", s.spec.name, with_commas(s.values.front()), units,
                         combine_name(s.spec.combine), s.spec.description);
    } else {
      out += fmt::format("  {}: [{}]{} ({}, {} rows; {})\n", s.spec.name, rows_text(s.values, rows_shown), units,
                         combine_name(s.spec.combine), s.values.size(), s.spec.description);
    }
  }
  return out;
}

void write_statistics(hdf5::Group& root, const pdes::ReducedStatistics& statistics) {
  hdf5::Group g = root.create_group("statistics");
  g.set_attribute("description",
                  "every figure the workload declared, reduced over ranks (sum, minimum or maximum as declared)");
  Figures histogram_figures;
  for (const pdes::ReducedStatistic& s : statistics.all()) {
    if (s.spec.shape == pdes::StatisticShape::histogram) {
      const std::vector<std::uint64_t> buckets(s.values.begin(), s.values.begin() + pdes::kLogBuckets);
      write_replicated_column(g, s.spec.name + "_by_bucket", buckets, "samples",
                              s.spec.description + " (" + s.spec.units +
                                  "): samples per logarithmic bucket (pdes/log_buckets.hpp; docs/output.md)");
      histogram_figures.push_back({s.spec.name + "_count", s.sample_count()});
      histogram_figures.push_back({s.spec.name + "_sum", s.sample_sum()});
      histogram_figures.push_back({s.spec.name + "_min", s.sample_min()});
      histogram_figures.push_back({s.spec.name + "_max", s.sample_max()});
    } else {
      write_replicated_column(g, s.spec.name, s.values, s.spec.units, s.spec.description);
    }
  }
  write_figures(g, histogram_figures);
}

}  // namespace rackscale::io

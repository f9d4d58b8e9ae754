#include "io/statistics_figures.hpp"

#include <string>

#include "io/figures.hpp"
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

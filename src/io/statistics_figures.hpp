#pragma once
// Generic writers of a run's statistics (pdes/statistic_registry.hpp): every figure a workload declared,
// reduced over ranks, written by iterating over the registry — a "statistics" object in the `--json`
// line, a /statistics group in the HDF5 file (docs/output.md, "Statistics") and a text block for
// `rackscale run --statistics` (docs/sim.md, "Writers"). A workload's own
// figures and tables are written by its own writers; these add nothing by hand.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "io/hdf5/group.hpp"
#include "pdes/statistic_registry.hpp"

namespace rackscale::io {

// One member per statistic, in declaration order: a value statistic of one row is a number, of several
// rows an array; a histogram is {count, sum, min, max, p50, p99} (min and max 0 without samples).
[[nodiscard]] nlohmann::ordered_json statistics_json(const pdes::ReducedStatistics& statistics);

// One line per statistic, in declaration order, after a heading: its name, its value with its units (a
// statistic of several rows: the first `rows_shown`, then how many more; a histogram: its sample count,
// sum, minimum, p50, p99 and maximum), how ranks combined it and its description. Ends with a newline;
// "" when there are none.
[[nodiscard]] std::string statistics_text(const pdes::ReducedStatistics& statistics, std::size_t rows_shown = 8);

// Collective: the group `statistics` under `root`: a value statistic is a dataset of its rows; a
// histogram is the dataset `<name>_by_bucket` of its logarithmic buckets' counts with `<name>_count`,
// `_sum`, `_min` and `_max` as the group's attributes. Each dataset carries its units and description.
void write_statistics(hdf5::Group& root, const pdes::ReducedStatistics& statistics);

}  // namespace rackscale::io

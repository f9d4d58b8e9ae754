#pragma once
// Figures that a run's results carry twice, in the `--json` object and in the HDF5 file, written to both
// from one list so that a figure has one name in both (docs/output.md, "Conventions"). Scalars become
// JSON members and the attributes of an HDF5 group; a table becomes a JSON array of records, one per
// row, and the datasets (columns) of an HDF5 group.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/hdf5/group.hpp"

namespace rackscale::io {

// A double that is NaN has no figure (a component not counted, a method without data): null in JSON,
// NaN in HDF5.
using FigureValue = std::variant<std::uint64_t, double, std::string, std::vector<std::string>>;
struct Figure {
  std::string name;  // snake_case, the unit's suffix last (_ps, _s, _bytes, _Bps, _W, _J, ...)
  FigureValue value;
};
using Figures = std::vector<Figure>;

[[nodiscard]] nlohmann::ordered_json figures_json(const Figures& figures);
// The same members added to an object that has others.
void add_figures(nlohmann::ordered_json& object, const Figures& figures);
// Collective: every rank passes the same figures (attributes are metadata; rank 0's are stored).
void write_figures(hdf5::Group& group, const Figures& figures);

// A column of values from a short list of names: uint8 indices with a `names` attribute in HDF5, the
// name itself in JSON.
struct Enumeration {
  std::vector<std::uint8_t> values;
  std::vector<std::string> names;
};
using ColumnValues =
    std::variant<std::vector<std::uint64_t>, std::vector<double>, std::vector<std::string>, Enumeration>;
struct Column {
  std::string name;
  std::string units;  // the `units` attribute in HDF5; empty for none
  std::string description;
  ColumnValues values;
};
// A small table every rank holds whole; its columns have one value per row.
using Table = std::vector<Column>;

[[nodiscard]] nlohmann::ordered_json table_json(const Table& table);
// Collective: one dataset per column, written by rank 0.
void write_table(hdf5::Group& group, const Table& table);

}  // namespace rackscale::io

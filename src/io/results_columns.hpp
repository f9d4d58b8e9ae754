#pragma once
// Columns of a results file: a 1-D dataset with one row per row of a table, each rank writing the rows
// it owns, labelled with its units and what it means (docs/output.md's conventions). Small tables that
// every rank holds whole (histograms, per-stage figures, the iteration times) are written by rank 0.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "io/hdf5/group.hpp"
#include "io/owned_rows.hpp"

namespace rackscale::io {

// Creates `name` with rows.rows() rows, writes this rank's `mine` (its rows, in row order) and sets the
// `units` (when not empty) and `description` attributes, and `names` for enumerations (value i means
// names[i]) when given. Collective.
template <hdf5::StorableScalar T>
void write_column(hdf5::Group& group, std::string_view name, const OwnedRows& rows, const std::vector<T>& mine,
                  std::string_view units, std::string_view description, std::span<const std::string> names = {}) {
  hdf5::Dataset dataset = group.create_dataset<T>(name, rows.rows());
  dataset.write_rows(rows.mine(), std::span<const T>(mine));
  if (!units.empty()) dataset.set_attribute("units", units);
  dataset.set_attribute("description", description);
  if (!names.empty()) dataset.set_attribute("names", names);
}

// Rows that rank 0 owns, all of them: for tables every rank holds whole.
[[nodiscard]] inline OwnedRows rank0_rows(const boost::mpi::communicator& comm, std::uint64_t rows) {
  return {std::vector<std::int32_t>(rows, 0), comm.size(), comm.rank()};
}

// A column of a table every rank holds whole (`all`, the same everywhere), written by rank 0.
template <hdf5::StorableScalar T>
void write_replicated_column(hdf5::Group& group, std::string_view name, const std::vector<T>& all,
                             std::string_view units, std::string_view description,
                             std::span<const std::string> names = {}) {
  const auto& comm = group.comm();
  write_column(group, name, rank0_rows(comm, all.size()), comm.rank() == 0 ? all : std::vector<T>{}, units,
               description, names);
}

// The same for strings: a fixed-length string dataset as wide as the longest entry.
void write_replicated_strings(hdf5::Group& group, std::string_view name, const std::vector<std::string>& all,
                              std::string_view description);

}  // namespace rackscale::io

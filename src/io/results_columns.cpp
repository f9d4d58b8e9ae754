#include "io/results_columns.hpp"

#include <algorithm>

namespace rackscale::io {

void write_replicated_strings(hdf5::Group& group, std::string_view name, const std::vector<std::string>& all,
                              std::string_view description) {
  std::size_t width = 1;
  for (const auto& s : all) width = std::max(width, s.size());
  const auto& comm = group.comm();
  const OwnedRows rows = rank0_rows(comm, all.size());
  hdf5::Dataset dataset = group.create_string_dataset(name, all.size(), width);
  const std::vector<std::string> mine = comm.rank() == 0 ? all : std::vector<std::string>{};
  dataset.write_strings(rows.mine(), mine);
  dataset.set_attribute("description", description);
}

}  // namespace rackscale::io

#include "io/hdf5/group.hpp"

#include <fmt/format.h>

#include "io/hdf5/c_api.hpp"
#include "io/hdf5/collective_call.hpp"
#include "io/hdf5/file_space.hpp"

namespace rackscale::io::hdf5 {

Group Group::create_group(std::string_view name) {
  c_api::quiet_errors();
  const std::string path = child_path(name);
  const std::string place = fmt::format("file '{}', group '{}'", context_->path, path);
  Handle group = collective_handle(*context_, "H5Gcreate2", place, H5Gclose, [&] {
    return H5Gcreate2(id(), std::string(name).c_str(), c_api::kDefault, c_api::kDefault, c_api::kDefault);
  });
  return Group(context_, std::move(group), path, "group");
}

Dataset Group::create_string_dataset(std::string_view name, std::uint64_t rows, std::size_t width) {
  return create(name, rows, 0, Dataset::kStrings, width == 0 ? 1 : width);
}

Dataset Group::create(std::string_view name, std::uint64_t rows, std::uint64_t columns, int element,
                      std::size_t width) {
  c_api::quiet_errors();
  const std::string path = child_path(name);
  const std::string place = fmt::format("file '{}', dataset '{}'", context_->path, path);
  const hsize_t dims[2] = {rows, columns};
  const Handle space(c_api::check_id(H5Screate_simple(columns > 0 ? 2 : 1, dims, nullptr), "H5Screate_simple", place),
                     H5Sclose);
  Handle string_type;
  hid_t stored = -1;
  if (element == Dataset::kStrings) {
    string_type = c_api::string_type(width, place);
    stored = string_type.get();
  } else {
    stored = c_api::file_type(static_cast<Scalar>(element));
  }
  // Parallel HDF5 allocates contiguous storage when the dataset is created; not writing fill values
  // saves a pass over the whole dataset, and every row is written anyway.
  const Handle create(c_api::check_id(H5Pcreate(H5P_DATASET_CREATE), "H5Pcreate", place), H5Pclose);
  c_api::check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), "H5Pset_fill_time", place);
  Handle dataset = collective_handle(*context_, "H5Dcreate2", place, H5Dclose, [&] {
    return H5Dcreate2(id(), std::string(name).c_str(), stored, space.get(), c_api::kDefault, create.get(),
                      c_api::kDefault);
  });
  // Its storage, placed at creation (parallel HDF5 allocates early), is reserved before it is written.
  agree(context_->comm, context_->space ? context_->space->reserve_dataset(dataset.get()) : std::string());
  return Dataset(context_, std::move(dataset), path, rows, columns, element, width);
}

}  // namespace rackscale::io::hdf5

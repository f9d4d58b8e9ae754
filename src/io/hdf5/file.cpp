#include "io/hdf5/file.hpp"

#include <fmt/format.h>

#include "io/hdf5/c_api.hpp"

namespace rackscale::io::hdf5 {

File File::create(const boost::mpi::communicator& comm, const std::string& path) {
  c_api::quiet_errors();
  const std::string place = fmt::format("file '{}'", path);
  const Handle access(c_api::check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate", place), H5Pclose);
  c_api::check(H5Pset_fapl_mpio(access.get(), MPI_Comm(comm), MPI_INFO_NULL), "H5Pset_fapl_mpio", place);
  c_api::check(H5Pset_all_coll_metadata_ops(access.get(), true), "H5Pset_all_coll_metadata_ops", place);
  c_api::check(H5Pset_coll_metadata_write(access.get(), true), "H5Pset_coll_metadata_write", place);
  // The 1.8 format at least: it stores attributes larger than 64 KiB (a long config text), and
  // every HDF5 reader of the last fifteen years opens it.
  c_api::check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST), "H5Pset_libver_bounds", place);
  Handle file(c_api::check_id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, c_api::kDefault, access.get()), "H5Fcreate", place),
              H5Fclose);

  auto context = std::make_shared<FileContext>();
  context->comm = comm;
  context->path = path;
  context->transfer = Handle(c_api::check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", place), H5Pclose);
  c_api::check(H5Pset_dxpl_mpio(context->transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio", place);
  return File(std::move(context), std::move(file));
}

void File::close() {
  c_api::quiet_errors();
  if (!handle_.valid()) return;
  c_api::check(handle_.close(), "H5Fclose", where());
}

}  // namespace rackscale::io::hdf5

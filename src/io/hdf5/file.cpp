#include "io/hdf5/file.hpp"

#include <fmt/format.h>

#include "io/hdf5/c_api.hpp"
#include "io/hdf5/collective_call.hpp"
#include "io/hdf5/error.hpp"
#include "io/hdf5/file_diversion.hpp"
#include "io/hdf5/file_space.hpp"

namespace rackscale::io::hdf5 {

namespace {
// Parallel HDF5 writes metadata at "sync points", run whenever the metadata dirtied since the last one
// exceeds a threshold (256 KiB by default), inside whichever call crossed it. A write failing there
// on one rank is a failure no agreement after the call can reach: the other ranks wait inside HDF5.
// With the highest threshold HDF5 allows, a results file's metadata (a few hundred objects) is
// written only by the explicit flush before closing, after its space has been reserved.
constexpr std::size_t kDirtyBytesThreshold = std::size_t{32} << 20;

void defer_metadata_writes(hid_t access, const std::string& place) {
  H5AC_cache_config_t config{};
  config.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  c_api::check(H5Pget_mdc_config(access, &config), "H5Pget_mdc_config", place);
  config.dirty_bytes_threshold = kDirtyBytesThreshold;
  c_api::check(H5Pset_mdc_config(access, &config), "H5Pset_mdc_config", place);
}
}  // namespace

File File::create(const boost::mpi::communicator& comm, const std::string& path, bool reserve_space) {
  c_api::quiet_errors();
  const std::string place = fmt::format("file '{}'", path);
  const Handle access(c_api::check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate", place), H5Pclose);
  c_api::check(H5Pset_fapl_mpio(access.get(), MPI_Comm(comm), MPI_INFO_NULL), "H5Pset_fapl_mpio", place);
  c_api::check(H5Pset_all_coll_metadata_ops(access.get(), true), "H5Pset_all_coll_metadata_ops", place);
  c_api::check(H5Pset_coll_metadata_write(access.get(), true), "H5Pset_coll_metadata_write", place);
  // The 1.8 format at least: it stores attributes larger than 64 KiB (a long config text), and
  // every HDF5 reader of the last fifteen years opens it.
  c_api::check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST), "H5Pset_libver_bounds", place);
  defer_metadata_writes(access.get(), place);

  auto context = std::make_shared<FileContext>();
  context->comm = comm;
  context->path = path;
  context->transfer = Handle(c_api::check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate", place), H5Pclose);
  c_api::check(H5Pset_dxpl_mpio(context->transfer.get(), H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio", place);
  Handle file = collective_handle(*context, "H5Fcreate", place, H5Fclose, [&] {
    return H5Fcreate(path.c_str(), H5F_ACC_TRUNC, c_api::kDefault, access.get());
  });
  context->file = file.get();
  context->space = std::make_shared<FileSpace>(path, reserve_space && comm.rank() == 0);
  return File(context, std::move(file));
}

void File::flush() {
  c_api::quiet_errors();
  if (!handle_.valid()) return;
  agree(context_->comm, context_->space ? context_->space->reserve_metadata(id()) : std::string());
  (void)collective(*context_, "H5Fflush", where(), [&] { return H5Fflush(id(), H5F_SCOPE_GLOBAL); });
}

void File::close() {
  c_api::quiet_errors();
  if (!handle_.valid()) return;
  // The context outlives the file (objects may still hold it): nothing may use the identifier after.
  own_context_->file = -1;
  (void)collective(*own_context_, "H5Fclose", where(), [&] { return handle_.close(); });
  if (own_context_->space) own_context_->space->trim();
}

void File::abandon() noexcept {
  if (!handle_.valid()) return;
  if (own_context_->space) own_context_->space->release();
  (void)divert_descriptors(own_context_->path);
  try {
    close();
  } catch (const std::exception&) {
    // Every rank got the same Error (the close was agreed), and the file goes anyway.
  }
}

}  // namespace rackscale::io::hdf5

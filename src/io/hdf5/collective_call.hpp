#pragma once
// Internal to src/io/hdf5: collective HDF5 calls whose outcome every rank agrees on. Parallel HDF5
// does not fail collectively: a full disk, a quota or a failing device fails one rank's share of a
// write, and that rank alone returns an error while the others carry on into the next collective
// step, where they wait forever for it. So after every collective call (file creation, groups,
// datasets, attributes, writes, flush, close) the ranks all-reduce whether any of them failed, and
// then either all go on or all throw Error with the message of the lowest failing rank. Costs one
// small all-reduce per call, a few hundred per results file.
#include <cerrno>
#include <string>
#include <string_view>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/c_api.hpp"
#include "io/hdf5/object.hpp"

namespace rackscale::io::hdf5 {

// Every rank passes its own failure ("" if none). Returns when no rank failed; otherwise throws Error,
// on every rank, with the message of the lowest failing rank.
void agree(const boost::mpi::communicator& comm, const std::string& failure);

// This rank's failure after `call` returned `failed` (HDF5's error stack and `error`, the errno the call
// left, make the message; a test may inject one, injected_failure.hpp); "" if all is well.
[[nodiscard]] std::string outcome(const FileContext& context, std::string_view call, std::string_view where,
                                  bool failed, int error);

// Runs `call` (a lambda around the HDF5 call, returning its herr_t or hid_t) on this rank and agrees on
// the outcome with every rank. Returns the call's result when every rank succeeded.
template <class Call>
auto collective(const FileContext& context, std::string_view name, std::string_view where, Call&& call) {
  errno = 0;
  const auto result = call();
  const int error = errno;
  agree(context.comm, outcome(context, name, where, result < 0, error));
  return result;
}

// The same for calls returning an identifier, owned by the Handle returned (and closed by it if another
// rank failed).
template <class Call>
Handle collective_handle(const FileContext& context, std::string_view name, std::string_view where, Closer closer,
                         Call&& call) {
  errno = 0;
  const hid_t id = call();
  const int error = errno;
  Handle handle = id >= 0 ? Handle(id, closer) : Handle();
  agree(context.comm, outcome(context, name, where, id < 0, error));
  return handle;
}

}  // namespace rackscale::io::hdf5

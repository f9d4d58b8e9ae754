#pragma once
// A test hook: makes one rank report a failed collective HDF5 call that in fact succeeded, so that the
// tests can fail a results file on one rank only, at a chosen step, on any file system. Read only by
// the results writer, from the environment variable
//
//   RACKSCALE_TEST_RESULTS_FAILURE=RANK:CALL[:N]
//
// e.g. "1:H5Dwrite" (the first H5Dwrite on rank 1) or "0:H5Fflush" or "2:H5Dwrite:3" (the third). The
// failure reads like an I/O error (EIO) and says it was injected. Documented in docs/reliability.md;
// not meant for users.
#include <string>
#include <string_view>

namespace rackscale::io::hdf5 {

inline constexpr const char* kInjectedFailureVariable = "RACKSCALE_TEST_RESULTS_FAILURE";

// Counts the calls named `call` on `rank` and says whether this one is to fail. An unset or malformed
// variable injects nothing.
[[nodiscard]] bool injected_failure(int rank, std::string_view call);

}  // namespace rackscale::io::hdf5

#pragma once
// Internal to src/io/hdf5: the HDF5 C API as the wrapper's .cpp files use it. HDF5's constants are
// macros with C casts ("(hid_t)0"), which -Wold-style-cast rejects wherever they expand, so they are
// expanded once here, with the warning off, into typed constants.
#include <hdf5.h>

#include <string>
#include <string_view>
#include <type_traits>

#include "io/hdf5/handle.hpp"
#include "io/hdf5/scalar_type.hpp"

namespace rackscale::io::hdf5::c_api {

static_assert(std::is_same_v<hid_t, Id>, "handle.hpp's Id must be hid_t");
static_assert(std::is_same_v<herr_t, Status>, "handle.hpp's Status must be herr_t");

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
inline constexpr hid_t kDefault = H5P_DEFAULT;
inline constexpr hid_t kAll = H5S_ALL;
inline constexpr hid_t kErrorStack = H5E_DEFAULT;
#pragma GCC diagnostic pop

// "<call> failed (<where>): <HDF5's error stack, innermost messages>", and clears the stack. `where`
// names the file and object ("file 'a.h5', dataset '/links/bytes'").
[[nodiscard]] std::string failure_text(std::string_view call, std::string_view where);
// Throws Error with failure_text(call, where).
[[noreturn]] void fail(std::string_view call, std::string_view where);

// For calls returning an identifier: a negative one means failure.
inline hid_t check_id(hid_t id, std::string_view call, std::string_view where) {
  if (id < 0) fail(call, where);
  return id;
}
inline void check(herr_t status, std::string_view call, std::string_view where) {
  if (status < 0) fail(call, where);
}

// The in-memory (native) and the stored (little-endian) type of a scalar.
[[nodiscard]] hid_t memory_type(Scalar type);
[[nodiscard]] hid_t file_type(Scalar type);

// A fixed-length string type of `size` bytes (at least 1), UTF-8, padded with NULs: strings of
// exactly `size` bytes are stored without a terminator, shorter ones are NUL-terminated.
[[nodiscard]] Handle string_type(std::size_t size, std::string_view where);

// Stops HDF5 from printing its error stack on standard error (failures become exceptions instead).
// Idempotent; every entry point of the wrapper calls it.
void quiet_errors() noexcept;

}  // namespace rackscale::io::hdf5::c_api

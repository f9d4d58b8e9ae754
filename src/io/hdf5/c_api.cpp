#include "io/hdf5/c_api.hpp"

#include <fmt/format.h>

#include "io/hdf5/error.hpp"

namespace rackscale::io::hdf5::c_api {

namespace {
// Collects the descriptions on HDF5's error stack, outermost first, skipping repeats.
herr_t collect(unsigned /*n*/, const H5E_error2_t* error, void* client) {
  auto& text = *static_cast<std::string*>(client);
  if (error->desc == nullptr || *error->desc == '\0') return 0;
  const std::string_view desc(error->desc);
  if (text.find(desc) != std::string::npos) return 0;
  if (!text.empty()) text += ": ";
  text += desc;
  return 0;
}
}  // namespace

std::string failure_text(std::string_view call, std::string_view where) {
  std::string detail;
  (void)H5Ewalk2(kErrorStack, H5E_WALK_DOWNWARD, collect, &detail);
  (void)H5Eclear2(kErrorStack);
  if (detail.empty()) detail = "no detail from HDF5";
  return fmt::format("{} failed ({}): {}", call, where, detail);
}

void fail(std::string_view call, std::string_view where) { throw Error(failure_text(call, where)); }

hid_t memory_type(Scalar type) {
  switch (type) {
    case Scalar::u8: return H5T_NATIVE_UINT8;
    case Scalar::i32: return H5T_NATIVE_INT32;
    case Scalar::u32: return H5T_NATIVE_UINT32;
    case Scalar::i64: return H5T_NATIVE_INT64;
    case Scalar::u64: return H5T_NATIVE_UINT64;
    case Scalar::f64: return H5T_NATIVE_DOUBLE;
  }
  return -1;
}

hid_t file_type(Scalar type) {
  switch (type) {
    case Scalar::u8: return H5T_STD_U8LE;
    case Scalar::i32: return H5T_STD_I32LE;
    case Scalar::u32: return H5T_STD_U32LE;
    case Scalar::i64: return H5T_STD_I64LE;
    case Scalar::u64: return H5T_STD_U64LE;
    case Scalar::f64: return H5T_IEEE_F64LE;
  }
  return -1;
}

Handle string_type(std::size_t size, std::string_view where) {
  Handle type(check_id(H5Tcopy(H5T_C_S1), "H5Tcopy", where), H5Tclose);
  check(H5Tset_size(type.get(), size == 0 ? 1 : size), "H5Tset_size", where);
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "H5Tset_strpad", where);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "H5Tset_cset", where);
  return type;
}

void quiet_errors() noexcept { (void)H5Eset_auto2(kErrorStack, nullptr, nullptr); }

}  // namespace rackscale::io::hdf5::c_api

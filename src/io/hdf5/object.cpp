#include "io/hdf5/object.hpp"

#include <algorithm>
#include <cstring>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <fmt/format.h>

#include "io/hdf5/c_api.hpp"
#include "io/hdf5/collective_call.hpp"

namespace rackscale::io::hdf5 {

namespace {
std::size_t scalar_bytes(Scalar type) {
  switch (type) {
    case Scalar::u8: return 1;
    case Scalar::i32:
    case Scalar::u32: return 4;
    case Scalar::i64:
    case Scalar::u64:
    case Scalar::f64: return 8;
  }
  return 0;
}

// Creates attribute `name` of `type` on `object` over `space` and writes `data` (of `memory` type).
void create_and_write(const FileContext& context, hid_t object, const std::string& name, hid_t stored, hid_t memory,
                      hid_t space, const void* data, const std::string& where) {
  Handle attribute = collective_handle(context, "H5Acreate2", where, H5Aclose, [&] {
    return H5Acreate2(object, name.c_str(), stored, space, c_api::kDefault, c_api::kDefault);
  });
  (void)collective(context, "H5Awrite", where, [&] { return H5Awrite(attribute.get(), memory, data); });
  (void)collective(context, "H5Aclose", where, [&] { return attribute.close(); });
}
}  // namespace

Object::Object(std::shared_ptr<const FileContext> context, Handle handle, std::string path, std::string_view kind)
    : context_(std::move(context)), handle_(std::move(handle)), path_(std::move(path)), kind_(kind) {}

std::string Object::where() const {
  if (kind_ == "file") return fmt::format("file '{}'", context_->path);
  return fmt::format("file '{}', {} '{}'", context_->path, kind_, path_);
}

std::string Object::where(std::string_view attribute) const {
  return fmt::format("{}, attribute '{}'", where(), attribute);
}

std::string Object::child_path(std::string_view name) const {
  return path_ == "/" ? fmt::format("/{}", name) : fmt::format("{}/{}", path_, name);
}

void Object::set_attribute(std::string_view name, std::string_view value) {
  c_api::quiet_errors();
  std::string text(value);
  boost::mpi::broadcast(comm(), text, 0);
  const std::string place = where(name);
  const Handle type = c_api::string_type(text.size(), place);
  const Handle space(c_api::check_id(H5Screate(H5S_SCALAR), "H5Screate", place), H5Sclose);
  // A zero-length string is stored as one NUL byte.
  const char nul = '\0';
  create_and_write(*context_, id(), std::string(name), type.get(), type.get(), space.get(), text.empty() ? &nul : text.data(),
                   place);
}

void Object::set_attribute(std::string_view name, std::span<const std::string> values) {
  c_api::quiet_errors();
  std::vector<std::string> strings(values.begin(), values.end());
  boost::mpi::broadcast(comm(), strings, 0);
  const std::string place = where(name);
  std::size_t width = 1;
  for (const auto& s : strings) width = std::max(width, s.size());
  std::vector<char> packed(width * std::max<std::size_t>(strings.size(), 1), '\0');
  for (std::size_t i = 0; i < strings.size(); ++i) std::memcpy(packed.data() + i * width, strings[i].data(), strings[i].size());
  const Handle type = c_api::string_type(width, place);
  const hsize_t dims[1] = {strings.size()};
  const Handle space(c_api::check_id(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", place), H5Sclose);
  create_and_write(*context_, id(), std::string(name), type.get(), type.get(), space.get(), packed.data(), place);
}

void Object::write_attribute(std::string_view name, Scalar type, const void* data, std::size_t count, bool array) {
  c_api::quiet_errors();
  std::uint64_t n = count;
  boost::mpi::broadcast(comm(), n, 0);
  const std::size_t bytes = static_cast<std::size_t>(n) * scalar_bytes(type);
  std::vector<char> buffer(std::max<std::size_t>(bytes, 1), '\0');
  if (comm().rank() == 0 && bytes > 0) std::memcpy(buffer.data(), data, bytes);
  boost::mpi::broadcast(comm(), buffer.data(), static_cast<int>(buffer.size()), 0);
  const std::string place = where(name);
  const hsize_t dims[1] = {n};
  const Handle space(array ? c_api::check_id(H5Screate_simple(1, dims, nullptr), "H5Screate_simple", place)
                           : c_api::check_id(H5Screate(H5S_SCALAR), "H5Screate", place),
                     H5Sclose);
  create_and_write(*context_, id(), std::string(name), c_api::file_type(type), c_api::memory_type(type), space.get(),
                   buffer.data(), place);
}

}  // namespace rackscale::io::hdf5

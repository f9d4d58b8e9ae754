#pragma once
// What groups, datasets and the file have in common: a name in the file and attributes. Attributes
// are metadata, which parallel HDF5 requires every rank to write identically; the wrapper writes rank
// 0's value on every rank (it is broadcast), so a figure that differs between ranks (a wall time, say)
// can never leave the ranks' copies of the metadata inconsistent.
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/handle.hpp"
#include "io/hdf5/scalar_type.hpp"

namespace rackscale::io::hdf5 {

class FileSpace;

// Shared by a file and every object opened in it.
struct FileContext {
  boost::mpi::communicator comm;
  std::string path;
  Handle transfer;  // dataset transfer property list: collective MPI-IO
  Id file = -1;     // the file's identifier, while it is open
  std::shared_ptr<FileSpace> space;  // its reserved disk space (file_space.hpp)
};

class Object {
 public:
  Object(Object&&) noexcept = default;
  Object& operator=(Object&&) noexcept = default;
  virtual ~Object() = default;

  // Collective; every rank passes the same name, and rank 0's value is stored.
  void set_attribute(std::string_view name, std::string_view value);
  void set_attribute(std::string_view name, const char* value) { set_attribute(name, std::string_view(value)); }
  void set_attribute(std::string_view name, const std::string& value) { set_attribute(name, std::string_view(value)); }
  template <StorableScalar T>
  void set_attribute(std::string_view name, T value) {
    write_attribute(name, ScalarOf<T>::value, &value, 1, false);
  }
  // 1-D attributes: a list of names (fixed-length strings as wide as the longest), or of numbers.
  void set_attribute(std::string_view name, std::span<const std::string> values);
  template <StorableScalar T>
  void set_attribute(std::string_view name, std::span<const T> values) {
    write_attribute(name, ScalarOf<T>::value, values.data(), values.size(), true);
  }

  // "/links/bytes"; "/" for the file.
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] const boost::mpi::communicator& comm() const noexcept { return context_->comm; }

 protected:
  Object(std::shared_ptr<const FileContext> context, Handle handle, std::string path, std::string_view kind);
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // "file 'out.h5', dataset '/links/bytes'": what error messages name.
  [[nodiscard]] std::string where() const;
  [[nodiscard]] std::string where(std::string_view attribute) const;
  [[nodiscard]] std::string child_path(std::string_view name) const;
  [[nodiscard]] Id id() const noexcept { return handle_.get(); }

  std::shared_ptr<const FileContext> context_;
  Handle handle_;
  std::string path_;
  std::string kind_;  // "group", "dataset", "file"

 private:
  void write_attribute(std::string_view name, Scalar type, const void* data, std::size_t count, bool array);
};

}  // namespace rackscale::io::hdf5

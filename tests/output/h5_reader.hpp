#pragma once
// Reading results files back in tests, serially, with the plain HDF5 C API (what a user's script
// does), independent of the writer under test. Failures throw std::runtime_error naming the object.
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

namespace rackscale::test {

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
inline const hid_t kH5Default = H5P_DEFAULT;
inline const hid_t kH5All = H5S_ALL;
#pragma GCC diagnostic pop

class H5Reader {
 public:
  explicit H5Reader(const std::string& path) : path_(path) {
    H5Eset_auto2(0, nullptr, nullptr);
    file_ = H5Fopen(path.c_str(), H5F_ACC_RDONLY, kH5Default);
    if (file_ < 0) throw std::runtime_error("cannot open " + path);
  }
  ~H5Reader() { H5Fclose(file_); }
  H5Reader(const H5Reader&) = delete;
  H5Reader& operator=(const H5Reader&) = delete;

  [[nodiscard]] bool exists(const std::string& object) const {
    return H5Lexists(file_, object.c_str(), kH5Default) > 0;
  }
  [[nodiscard]] bool has_attribute(const std::string& object, const std::string& name) const {
    return H5Aexists_by_name(file_, object.c_str(), name.c_str(), kH5Default) > 0;
  }

  // Dimensions of a dataset.
  [[nodiscard]] std::vector<hsize_t> shape(const std::string& dataset) const {
    const hid_t d = open(dataset);
    const hid_t space = H5Dget_space(d);
    std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(d);
    return dims;
  }

  template <class T>
  [[nodiscard]] std::vector<T> read(const std::string& dataset) const {
    const hid_t d = open(dataset);
    const hid_t space = H5Dget_space(d);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<T> values(n);
    const herr_t status = n == 0 ? 0 : H5Dread(d, native<T>(), kH5All, kH5All, kH5Default, values.data());
    H5Sclose(space);
    H5Dclose(d);
    if (status < 0) throw std::runtime_error("cannot read " + dataset + " of " + path_);
    return values;
  }

  // The dataset's bytes exactly as stored (its own file type), for byte-for-byte comparisons.
  [[nodiscard]] std::vector<unsigned char> raw(const std::string& dataset) const {
    const hid_t d = open(dataset);
    const hid_t type = H5Dget_type(d);
    const hid_t space = H5Dget_space(d);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<unsigned char> bytes(n * H5Tget_size(type));
    const herr_t status = n == 0 ? 0 : H5Dread(d, type, kH5All, kH5All, kH5Default, bytes.data());
    H5Sclose(space);
    H5Tclose(type);
    H5Dclose(d);
    if (status < 0) throw std::runtime_error("cannot read " + dataset + " of " + path_);
    return bytes;
  }

  // Fixed-length strings of a 1-D dataset, NULs stripped.
  [[nodiscard]] std::vector<std::string> strings(const std::string& dataset) const {
    const auto bytes = raw(dataset);
    const hid_t d = open(dataset);
    const hid_t type = H5Dget_type(d);
    const std::size_t width = H5Tget_size(type);
    H5Tclose(type);
    H5Dclose(d);
    std::vector<std::string> out;
    for (std::size_t i = 0; i + width <= bytes.size(); i += width) {
      std::string s(reinterpret_cast<const char*>(bytes.data() + i), width);
      s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
      out.push_back(s);
    }
    return out;
  }

  // A scalar numeric attribute.
  template <class T>
  [[nodiscard]] T attribute(const std::string& object, const std::string& name) const {
    const hid_t a = open_attribute(object, name);
    T value{};
    const herr_t status = H5Aread(a, native<T>(), &value);
    H5Aclose(a);
    if (status < 0) throw std::runtime_error("cannot read attribute " + name + " of " + object);
    return value;
  }
  // A numeric attribute's values (scalar or 1-D).
  template <class T>
  [[nodiscard]] std::vector<T> attribute_values(const std::string& object, const std::string& name) const {
    const hid_t a = open_attribute(object, name);
    const hid_t space = H5Aget_space(a);
    std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    const herr_t status = H5Aread(a, native<T>(), values.data());
    H5Sclose(space);
    H5Aclose(a);
    if (status < 0) throw std::runtime_error("cannot read attribute " + name + " of " + object);
    return values;
  }
  // A fixed-length string attribute (scalar: one string; 1-D: one per element), NULs stripped.
  [[nodiscard]] std::vector<std::string> string_attributes(const std::string& object, const std::string& name) const {
    const hid_t a = open_attribute(object, name);
    const hid_t type = H5Aget_type(a);
    const hid_t space = H5Aget_space(a);
    const std::size_t width = H5Tget_size(type);
    const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<char> bytes(width * n);
    const herr_t status = n == 0 ? 0 : H5Aread(a, type, bytes.data());
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(a);
    if (status < 0) throw std::runtime_error("cannot read attribute " + name + " of " + object);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) {
      std::string s(bytes.data() + i * width, width);
      s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
      out.push_back(s);
    }
    return out;
  }
  [[nodiscard]] std::string string_attribute(const std::string& object, const std::string& name) const {
    return string_attributes(object, name).at(0);
  }
  // An attribute's bytes as stored, for byte-for-byte comparisons.
  [[nodiscard]] std::vector<unsigned char> raw_attribute(const std::string& object, const std::string& name) const {
    const hid_t a = open_attribute(object, name);
    const hid_t type = H5Aget_type(a);
    const hid_t space = H5Aget_space(a);
    std::vector<unsigned char> bytes(H5Tget_size(type) * static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    const herr_t status = H5Aread(a, type, bytes.data());
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(a);
    if (status < 0) throw std::runtime_error("cannot read attribute " + name + " of " + object);
    return bytes;
  }
  // The names of the attributes of an object, in name order.
  [[nodiscard]] std::vector<std::string> attribute_names(const std::string& object) const {
    std::vector<std::string> names;
    hsize_t index = 0;
    H5Aiterate_by_name(file_, object.c_str(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &names, kH5Default);
    return names;
  }
  // Every dataset in the file, as absolute paths, in name order.
  [[nodiscard]] std::vector<std::string> datasets() const {
    std::vector<std::string> names;
    H5Lvisit(file_, H5_INDEX_NAME, H5_ITER_INC, collect_dataset, &names);
    return names;
  }

 private:
  template <class T>
  static hid_t native() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return H5T_NATIVE_UINT8;
    else if constexpr (std::is_same_v<T, std::int32_t>) return H5T_NATIVE_INT32;
    else if constexpr (std::is_same_v<T, std::uint32_t>) return H5T_NATIVE_UINT32;
    else if constexpr (std::is_same_v<T, std::int64_t>) return H5T_NATIVE_INT64;
    else if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
    else return H5T_NATIVE_DOUBLE;
  }
  hid_t open(const std::string& dataset) const {
    const hid_t d = H5Dopen2(file_, dataset.c_str(), kH5Default);
    if (d < 0) throw std::runtime_error("no dataset " + dataset + " in " + path_);
    return d;
  }
  hid_t open_attribute(const std::string& object, const std::string& name) const {
    const hid_t a = H5Aopen_by_name(file_, object.c_str(), name.c_str(), kH5Default, kH5Default);
    if (a < 0) throw std::runtime_error("no attribute " + name + " on " + object + " in " + path_);
    return a;
  }
  static herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* out) {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  }
  static herr_t collect_dataset(hid_t group, const char* name, const H5L_info_t*, void* out) {
    const hid_t object = H5Oopen(group, name, kH5Default);
    if (object >= 0 && H5Iget_type(object) == H5I_DATASET)
      static_cast<std::vector<std::string>*>(out)->push_back(std::string("/") + name);
    if (object >= 0) H5Oclose(object);
    return 0;
  }

  std::string path_;
  hid_t file_ = -1;
};

// Two results files of one run, made on different rank counts or partitions: every results dataset (all
// but /partition and /engine, which describe the placement; at least `min_datasets` of them) and every
// attribute of `groups` hold the same bytes.
inline void expect_same_results(const H5Reader& a, const H5Reader& b, std::size_t min_datasets,
                                std::initializer_list<std::string> groups) {
  const auto datasets = a.datasets();
  ASSERT_EQ(datasets, b.datasets());
  ASSERT_GT(datasets.size(), min_datasets);
  for (const auto& dataset : datasets) {
    if (dataset.starts_with("/partition/") || dataset.starts_with("/engine/")) continue;
    EXPECT_EQ(a.raw(dataset), b.raw(dataset)) << dataset;
  }
  for (const std::string& group : groups) {
    const auto names = a.attribute_names(group);
    ASSERT_EQ(names, b.attribute_names(group));
    for (const auto& name : names) EXPECT_EQ(a.raw_attribute(group, name), b.raw_attribute(group, name)) << group << " " << name;
  }
}

}  // namespace rackscale::test

#pragma once
// The element types results datasets and attributes hold, and the C++ types that map to them. Files
// store them little-endian whatever the machine, so a file's bytes do not depend on where it was
// written.
#include <cstdint>

namespace rackscale::io::hdf5 {

enum class Scalar : std::uint8_t { u8, i32, u32, i64, u64, f64 };

template <class T>
struct ScalarOf;
template <>
struct ScalarOf<std::uint8_t> {
  static constexpr Scalar value = Scalar::u8;
};
template <>
struct ScalarOf<std::int32_t> {
  static constexpr Scalar value = Scalar::i32;
};
template <>
struct ScalarOf<std::uint32_t> {
  static constexpr Scalar value = Scalar::u32;
};
template <>
struct ScalarOf<std::int64_t> {
  static constexpr Scalar value = Scalar::i64;
};
template <>
struct ScalarOf<std::uint64_t> {
  static constexpr Scalar value = Scalar::u64;
};
template <>
struct ScalarOf<double> {
  static constexpr Scalar value = Scalar::f64;
};

template <class T>
concept StorableScalar = requires { ScalarOf<T>::value; };

}  // namespace rackscale::io::hdf5

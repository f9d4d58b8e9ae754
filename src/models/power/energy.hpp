#pragma once
// An exact amount of energy. Unit: the femtojoule, because an integer milliwatt held for an integer
// picosecond (simulated time) is exactly one femtojoule: every interval's energy is an exact integer,
// and sums of integers do not depend on their order, so totals are identical for any number of ranks.
//
// Stored as two limbs, whole millijoules and the femtojoules below a millijoule (< 1e12), so that:
//   - the range is large: 2^64 mJ = 1.8e16 J = 5 TWh, far beyond any simulated run of a 100k-device cluster;
//   - ranks can reduce it with a plain element-wise MPI_SUM of the two uint64 limbs (the remainder limb
//     holds up to 1.8e19 fJ, so up to 18 million ranks) followed by Energy::from_limbs, which carries.
#include <compare>
#include <cstdint>

#include "pdes/time.hpp"

namespace rackscale::models::power {

class Energy {
 public:
  static constexpr std::uint64_t kFemtojoulesPerMillijoule = 1'000'000'000'000;

  constexpr Energy() noexcept = default;

  // `milliwatts` held for `duration` ps: exactly milliwatts x duration fJ. Throws std::overflow_error
  // past 2^64 mJ.
  [[nodiscard]] static Energy from_power(std::uint64_t milliwatts, pdes::SimTime duration);
  // From limbs that may be unnormalized (the femtojoule limb >= 1e12, as after an MPI_SUM of limbs).
  [[nodiscard]] static Energy from_limbs(std::uint64_t millijoules, std::uint64_t femtojoules);

  [[nodiscard]] std::uint64_t millijoules() const noexcept { return millijoules_; }
  // The femtojoules below the last whole millijoule, < 1e12.
  [[nodiscard]] std::uint64_t femtojoule_remainder() const noexcept { return femtojoules_; }

  // For reporting only: the one rounding happens here, after all exact sums.
  [[nodiscard]] double joules() const noexcept;
  [[nodiscard]] double kilowatt_hours() const noexcept { return joules() / 3.6e6; }

  Energy& operator+=(const Energy& other);  // throws std::overflow_error past 2^64 mJ
  [[nodiscard]] friend Energy operator+(Energy a, const Energy& b) { return a += b; }
  // n identical copies (n devices with the same activity): exact, and equal to adding n times.
  [[nodiscard]] Energy times(std::uint64_t n) const;

  friend constexpr auto operator<=>(const Energy&, const Energy&) noexcept = default;

 private:
  std::uint64_t millijoules_ = 0;
  std::uint64_t femtojoules_ = 0;  // < kFemtojoulesPerMillijoule
};

}  // namespace rackscale::models::power

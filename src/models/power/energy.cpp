#include "models/power/energy.hpp"

#include <limits>
#include <stdexcept>

namespace rackscale::models::power {
namespace {

// 128-bit products keep milliwatts x picoseconds exact before the split into limbs; __extension__
// keeps -Wpedantic quiet about the GCC/Clang type. It never appears in the header.
__extension__ using Wide = unsigned __int128;

constexpr Wide kPerMj = Energy::kFemtojoulesPerMillijoule;

Energy from_wide(Wide femtojoules) {
  const Wide mj = femtojoules / kPerMj;
  if (mj > std::numeric_limits<std::uint64_t>::max()) {
    throw std::overflow_error("energy exceeds 2^64 millijoules");
  }
  return Energy::from_limbs(static_cast<std::uint64_t>(mj), static_cast<std::uint64_t>(femtojoules % kPerMj));
}

Wide to_wide(const Energy& e) noexcept {
  return static_cast<Wide>(e.millijoules()) * kPerMj + e.femtojoule_remainder();
}

}  // namespace

Energy Energy::from_power(std::uint64_t milliwatts, pdes::SimTime duration) {
  return from_wide(static_cast<Wide>(milliwatts) * duration);
}

Energy Energy::from_limbs(std::uint64_t millijoules, std::uint64_t femtojoules) {
  const std::uint64_t carry = femtojoules / kFemtojoulesPerMillijoule;
  if (carry > std::numeric_limits<std::uint64_t>::max() - millijoules) {
    throw std::overflow_error("energy exceeds 2^64 millijoules");
  }
  Energy e;
  e.millijoules_ = millijoules + carry;
  e.femtojoules_ = femtojoules % kFemtojoulesPerMillijoule;
  return e;
}

double Energy::joules() const noexcept {
  return static_cast<double>(millijoules_) * 1e-3 + static_cast<double>(femtojoules_) * 1e-15;
}

Energy& Energy::operator+=(const Energy& other) {
  // Remainders are each < 1e12, so their sum cannot overflow; from_limbs carries and checks.
  if (other.millijoules_ > std::numeric_limits<std::uint64_t>::max() - millijoules_) {
    throw std::overflow_error("energy exceeds 2^64 millijoules");
  }
  *this = from_limbs(millijoules_ + other.millijoules_, femtojoules_ + other.femtojoules_);
  return *this;
}

Energy Energy::times(std::uint64_t n) const {
  const Wide total = to_wide(*this);
  if (n != 0 && total > std::numeric_limits<Wide>::max() / n) {
    throw std::overflow_error("energy exceeds 2^64 millijoules");
  }
  return from_wide(total * n);
}

}  // namespace rackscale::models::power

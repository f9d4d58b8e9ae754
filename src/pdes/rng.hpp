#pragma once
// Per-LP, counter-based random numbers. Draw n of LP `id` in a run seeded with `seed` is
// Philox2x64-10(counter = {n / 2, id}, key = seed) (Salmon et al., SC'11, via Random123): a pure
// function of (seed, LP id, n). There is no shared generator, so an LP draws the same numbers
// whichever rank owns it and whatever other LPs do.
#include <cmath>
#include <cstdint>

#include <Random123/philox.h>

#include "pdes/event.hpp"

namespace rackscale::pdes {

__extension__ using Uint128 = unsigned __int128;  // GCC/Clang built-in; 64x64->128 multiply

class CounterRng {
 public:
  CounterRng() noexcept : CounterRng(0, 0) {}
  CounterRng(std::uint64_t seed, LpId id) noexcept : key_{{seed}}, id_{id} {}

  // The next 64 random bits. Each Philox call yields two words; the second is kept for the next draw.
  std::uint64_t next_u64() noexcept {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const Philox::ctr_type block = generator_(Philox::ctr_type{{counter_++, id_}}, key_);
    spare_ = block.v[1];
    has_spare_ = true;
    return block.v[0];
  }

  // Uniform on (0, 1]: never 0, so log() of it is finite.
  double uniform_open0() noexcept {
    return static_cast<double>((next_u64() >> 11) + 1) * 0x1.0p-53;
  }

  // Uniform on [0, 1).
  double uniform() noexcept { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Exactly uniform integer in [0, n) for n > 0 (Lemire's multiply-and-reject, JACM 2019 / TOMACS).
  std::uint64_t below(std::uint64_t n) noexcept {
    Uint128 m = static_cast<Uint128>(next_u64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<Uint128>(next_u64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Exponentially distributed with the given mean (> 0), by inversion.
  double exponential(double mean) noexcept { return -mean * std::log(uniform_open0()); }

  // Number of Philox blocks used so far (two draws per block): the stream position.
  [[nodiscard]] std::uint64_t blocks_used() const noexcept { return counter_; }

 private:
  using Philox = r123::Philox2x64;
  Philox generator_{};
  Philox::key_type key_;
  std::uint64_t id_;
  std::uint64_t counter_ = 0;
  std::uint64_t spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace rackscale::pdes

#pragma once
// Per-LP, counter-based random numbers. Draw n of LP `id` in a run seeded with `seed` is
// Philox2x64-10(counter = {n / 2, id}, key = seed) (Salmon et al., SC'11, via Random123): a pure
// function of (seed, LP id, n). There is no shared generator, so an LP draws the same numbers
// whichever rank owns it and whatever other LPs do.
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include <Random123/philox.h>

#include "pdes/event.hpp"

namespace rackscale::pdes {

__extension__ using Uint128 = unsigned __int128;  // GCC/Clang built-in; 64x64->128 multiply

// The exponential ziggurat's tables (rng.cpp): layer i's width as a multiple of 2^-56, the abscissas
// below which a draw in it is accepted at once, and the density at its outer edge.
struct ExponentialZiggurat {
  std::array<double, 256> width;
  std::array<std::uint64_t, 256> inside;
  std::array<double, 256> density;
};
extern const ExponentialZiggurat kExponentialZiggurat;

class CounterRng {
 public:
  CounterRng() noexcept : CounterRng(0, 0) {}
  CounterRng(std::uint64_t seed, LpId id) noexcept : key_{{seed}}, id_{id} {}

  // The next 64 random bits. Blocks are computed four at a time, ahead of use: the four are independent,
  // so the processor overlaps them, and a draw costs a load instead of a chain of ten multiplications
  // on the event's critical path. Which words come out, and in what order, is unchanged.
  std::uint64_t next_u64() noexcept {
    if (next_word_ == kBufferedWords) refill();
    return buffer_[next_word_++];
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

  // Exponentially distributed with the given mean (> 0): Marsaglia and Tsang's ziggurat (J. Stat.
  // Softw. 5(8), 2000) with 256 layers, taking the layer and the abscissa from separate bits of one
  // draw (Doornik's remark, 2005: sharing them skews the result). 99 % of draws are one multiply and
  // one comparison; the rest fall in a wedge or in the tail and use exp or log.
  double exponential(double mean) noexcept {
    const std::uint64_t bits = next_u64();
    const std::size_t layer = bits & 0xFF;
    const std::uint64_t abscissa = bits >> 8;
    if (abscissa < kExponentialZiggurat.inside[layer]) return mean * static_cast<double>(abscissa) * kExponentialZiggurat.width[layer];
    return mean * exponential_slow(layer, abscissa);
  }

  // Number of Philox blocks used so far (two draws per block): the stream position.
  [[nodiscard]] std::uint64_t blocks_used() const noexcept {
    const std::uint64_t words_drawn = 2 * counter_ - (kBufferedWords - next_word_);
    return (words_drawn + 1) / 2;
  }

  // The stream's position, for checkpoints; the key and LP id are set again when the LP is made.
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & counter_ & next_word_;
    for (std::uint64_t& word : buffer_) ar & word;
  }

 private:
  using Philox = r123::Philox2x64;
  static constexpr std::uint64_t kBufferedBlocks = 4;
  static constexpr std::uint64_t kBufferedWords = 2 * kBufferedBlocks;

  double exponential_slow(std::size_t layer, std::uint64_t abscissa) noexcept;  // rng.cpp

  void refill() noexcept {
    for (std::uint64_t b = 0; b < kBufferedBlocks; ++b) {
      const Philox::ctr_type block = generator_(Philox::ctr_type{{counter_ + b, id_}}, key_);
      buffer_[2 * b] = block.v[0];
      buffer_[2 * b + 1] = block.v[1];
    }
    counter_ += kBufferedBlocks;
    next_word_ = 0;
  }

  Philox generator_{};
  Philox::key_type key_;
  std::uint64_t id_;
  std::uint64_t counter_ = 0;                   // blocks computed so far
  std::uint64_t next_word_ = kBufferedWords;    // index into buffer_; kBufferedWords: empty
  std::array<std::uint64_t, kBufferedWords> buffer_{};
};

}  // namespace rackscale::pdes

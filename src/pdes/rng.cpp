#include "pdes/rng.hpp"

namespace rackscale::pdes {
namespace {
// 256 layers of equal area: the base layer (a rectangle out to kTailStart and the tail beyond it)
// and 255 rectangles stacked on it, the top one reaching the density's peak at 0. kTailStart solves
// (r + 1) e^-r = kLayerArea (Marsaglia & Tsang 2000, table for the exponential with 256 layers).
constexpr double kTailStart = 7.69711747013104972;
constexpr double kLayerArea = 3.949659822581572e-3;
constexpr double kAbscissaScale = 0x1.0p56;  // draws give 56-bit abscissas

ExponentialZiggurat make_exponential_ziggurat() {
  ExponentialZiggurat z{};
  // edge[i]: right edge of layer i (layer 0's is that of its rectangle part widened to hold the tail).
  std::array<double, 256> edge{};
  edge[255] = kTailStart;
  for (int i = 254; i >= 1; --i) {
    // Layer i + 1 spans density f(edge[i+1]) to f(edge[i]) over width edge[i+1], area kLayerArea.
    edge[static_cast<std::size_t>(i)] =
        -std::log(kLayerArea / edge[static_cast<std::size_t>(i) + 1] + std::exp(-edge[static_cast<std::size_t>(i) + 1]));
  }
  const double base_width = kLayerArea / std::exp(-kTailStart);
  for (std::size_t i = 1; i < 256; ++i) {
    z.width[i] = edge[i] / kAbscissaScale;
    z.density[i] = std::exp(-edge[i]);
    // The part of layer i left of the layer above it lies wholly under the density.
    const double inner = i == 1 ? 0.0 : edge[i - 1];
    z.inside[i] = static_cast<std::uint64_t>(inner / edge[i] * kAbscissaScale);
  }
  z.width[0] = base_width / kAbscissaScale;
  z.density[0] = 1.0;  // the density at 0, the top layer's upper bound
  z.inside[0] = static_cast<std::uint64_t>(kTailStart / base_width * kAbscissaScale);
  return z;
}
}  // namespace

const ExponentialZiggurat kExponentialZiggurat = make_exponential_ziggurat();

double CounterRng::exponential_slow(std::size_t layer, std::uint64_t abscissa) noexcept {
  const ExponentialZiggurat& z = kExponentialZiggurat;
  for (;;) {
    // The base layer's far part stands for the tail, which beyond kTailStart is again exponential.
    if (layer == 0) return kTailStart - std::log(uniform_open0());
    const double x = static_cast<double>(abscissa) * z.width[layer];
    // A wedge: layer i spans densities density[i] (at its right edge) to density[i - 1] (density[0]
    // is 1, the top layer's bound); accept a uniform height there if it falls under the density.
    const double low = z.density[layer];
    const double high = z.density[layer - 1];
    if (low + uniform() * (high - low) < std::exp(-x)) return x;
    const std::uint64_t bits = next_u64();
    layer = bits & 0xFF;
    abscissa = bits >> 8;
    if (abscissa < z.inside[layer]) return static_cast<double>(abscissa) * z.width[layer];
  }
}

}  // namespace rackscale::pdes

#include "models/goodput/failure_draws.hpp"

#include <algorithm>
#include <cmath>

#include <Random123/philox.h>

namespace rackscale::models::goodput {

double failure_uniform(std::uint64_t seed, std::uint32_t replica, std::uint32_t cls, std::uint64_t index) {
  using Philox = r123::Philox2x64;
  const Philox::ctr_type counter{{index, (static_cast<std::uint64_t>(replica) << 32) | cls}};
  const Philox::key_type key{{seed}};
  const Philox::ctr_type block = Philox{}(counter, key);
  return static_cast<double>((block.v[0] >> 11) + 1) * 0x1.0p-53;
}

pdes::SimTime interarrival(const ClassProcess& process, std::uint64_t seed, std::uint32_t replica, std::uint32_t cls,
                           std::uint64_t index) {
  if (!std::isfinite(process.mean_ps)) return pdes::kNever;
  const double e = -std::log(failure_uniform(seed, replica, cls, index));  // exponential of mean 1
  double ps = 0;
  if (process.weibull_shape == 1.0) {
    ps = process.mean_ps * e;
  } else {
    const double scale = process.mean_ps / std::tgamma(1.0 + 1.0 / process.weibull_shape);
    ps = scale * std::pow(e, 1.0 / process.weibull_shape);
  }
  if (!(ps < static_cast<double>(pdes::kNever) / 2)) return pdes::kNever;
  return std::max<pdes::SimTime>(1, static_cast<pdes::SimTime>(std::round(ps)));
}

}  // namespace rackscale::models::goodput

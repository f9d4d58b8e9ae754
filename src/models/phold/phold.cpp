#include "models/phold/phold.hpp"

#include <cmath>
#include <stdexcept>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <fmt/format.h>

namespace rackscale::models::phold {

void validate(const Params& p) {
  const auto fail = [](const std::string& message) { throw std::invalid_argument(message); };
  if (p.lps < 1) fail(fmt::format("--lps must be at least 1; got {}", p.lps));
  if (!(p.remote >= 0.0 && p.remote <= 1.0)) fail(fmt::format("--remote must be in [0, 1]; got {}", p.remote));
  if (p.lookahead < 1) fail("--lookahead must be positive (events between LPs need a delay)");
  if (p.mean < p.lookahead)
    fail(fmt::format("--mean ({}) must be at least --lookahead ({}): the increment is lookahead + Exp(mean - "
                     "lookahead)",
                     pdes::format_time(p.mean), pdes::format_time(p.lookahead)));
}

PholdLp::PholdLp(pdes::LpId id, const Params& params)
    : LogicalProcess(id),
      lps_(params.lps),
      remote_(params.remote),
      lookahead_(params.lookahead),
      exponential_mean_ps_(static_cast<double>(params.mean - params.lookahead)),
      start_events_(params.start_events) {}

void PholdLp::init() {
  for (std::uint32_t i = 0; i < start_events_; ++i) send(id(), increment(), 0);
}

void PholdLp::handle(const pdes::Event& event) {
  ++handled_;
  digest_ = mix64(digest_ ^ event.time) + mix64(event.src ^ (event.seq << 32));
  schedule_next();
}

pdes::SimTime PholdLp::increment() {
  // Rounded to the nearest picosecond (the draw is never negative, so adding one half and truncating
  // rounds; std::llround would be a library call per event).
  return lookahead_ + static_cast<pdes::SimTime>(rng().exponential(exponential_mean_ps_) + 0.5);
}

void PholdLp::schedule_next() {
  // Draw order as in ROSS: the remote decision, then (if remote) the destination, then the delay.
  pdes::LpId dst = id();
  if (rng().uniform() < remote_) dst = static_cast<pdes::LpId>(rng().below(lps_));
  send(dst, increment(), 0);
}

// The parameters are the run's and are set again by the constructor; only the history changes.
void PholdLp::save(boost::archive::binary_oarchive& out) const { out & handled_ & digest_; }

void PholdLp::load(boost::archive::binary_iarchive& in) { in & handled_ & digest_; }

}  // namespace rackscale::models::phold

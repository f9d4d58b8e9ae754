#pragma once
// PHOLD (Fujimoto 1990), the standard benchmark of PDES engines, with the semantics of ROSS's
// models/phold so that figures compare: N LPs, each starting with K events to itself; handling an
// event schedules exactly one new event, to a uniformly random LP with probability `remote` and to
// itself otherwise, at now + lookahead + Exp(mean - lookahead). Unlike ROSS, `mean` is the mean of the
// whole increment, so it must be at least the lookahead.
#include <cstdint>

#include "pdes/event.hpp"
#include "pdes/logical_process.hpp"
#include "pdes/time.hpp"

namespace rackscale::models::phold {

struct Params {
  pdes::LpId lps = 1024;               // total LPs over all ranks
  double remote = 0.1;                 // probability that an event goes to a random LP
  pdes::SimTime lookahead = 100'000;   // ps; minimum increment and the engine's lookahead
  pdes::SimTime mean = 900'000;        // ps; mean increment
  std::uint32_t start_events = 1;      // events per LP at the start
};

// SplitMix64's finalizer (Steele, Lea & Flood, OOPSLA 2014): a bijective 64-bit mix, so digests of
// different event histories collide only by chance.
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Throws std::invalid_argument naming the parameter (as its command-line option) that is wrong.
void validate(const Params& params);

class PholdLp final : public pdes::LogicalProcess {
 public:
  PholdLp(pdes::LpId id, const Params& params);
  void init() override;
  void handle(const pdes::Event& event) override;
  [[nodiscard]] bool checkpointable() const override { return true; }
  void save(boost::archive::binary_oarchive& out) const override;
  void load(boost::archive::binary_iarchive& in) override;

  [[nodiscard]] std::uint64_t events_handled() const noexcept { return handled_; }
  // A function of every event this LP handled, in the order it handled them.
  [[nodiscard]] std::uint64_t digest() const noexcept { return digest_; }

 private:
  void schedule_next();
  pdes::SimTime increment();  // lookahead + Exp(mean - lookahead), rounded to 1 ps

  pdes::LpId lps_;
  double remote_;
  pdes::SimTime lookahead_;
  double exponential_mean_ps_;
  std::uint32_t start_events_;
  std::uint64_t handled_ = 0;
  std::uint64_t digest_ = 0;
};

}  // namespace rackscale::models::phold

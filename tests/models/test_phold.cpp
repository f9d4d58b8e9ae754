// PHOLD's event count against what can be worked out independently of the engine.
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <boost/mpi/communicator.hpp>
#include <gtest/gtest.h>

#include "app/phold_run.hpp"

namespace pdes = rackscale::pdes;
using rackscale::app::PholdRun;
using rackscale::app::run_phold;

namespace {
boost::mpi::communicator world() { return {}; }

PholdRun base() {
  PholdRun run;
  run.model.lps = 16;
  run.model.start_events = 2;
  run.model.lookahead = 100 * pdes::kNanosecond;
  run.model.mean = 100 * pdes::kNanosecond;
  run.end = 1000 * pdes::kNanosecond;
  return run;
}
}  // namespace

// mean == lookahead makes every increment exactly the lookahead L, so each of the N*K event chains
// holds the events at L, 2L, ... below the end E: N*K*(ceil(E/L) - 1) events, wherever they go.
TEST(Phold, DeterministicIncrementsGiveTheWorkedOutCount) {
  for (const double remote : {0.0, 0.3, 1.0}) {
    auto run = base();
    run.model.remote = remote;
    const auto result = run_phold(world(), run);
    EXPECT_EQ(result.events, 16u * 2u * 9u) << "remote " << remote;  // events at 100..900 ns
  }
  auto run = base();
  run.end = 1001 * pdes::kNanosecond;  // now 1000 ns is inside: 10 per chain
  EXPECT_EQ(run_phold(world(), run).events, 16u * 2u * 10u);
}

// With exponential increments each chain is a renewal process with inter-event time X = L + Exp(m - L):
// E[X] = m, Var[X] = (m - L)^2. Over a horizon T, E[N(T)] = T/m + (Var - m^2) / (2 m^2) + o(1) and
// Var[N(T)] ~ T Var / m^3 (renewal theory, e.g. Cox 1962). The total over N*K independent chains must
// fall within 5 standard deviations.
TEST(Phold, ExponentialIncrementsGiveTheRenewalTheoryCount) {
  PholdRun run;
  run.model.lps = 1024;
  run.model.start_events = 1;
  run.model.remote = 0.25;
  run.model.lookahead = 100 * pdes::kNanosecond;
  run.model.mean = 900 * pdes::kNanosecond;
  run.end = 100 * pdes::kMicrosecond;
  const double chains = 1024.0, m = 900.0, s = 800.0, horizon = 100'000.0;
  const double expected = chains * (horizon / m + (s * s - m * m) / (2 * m * m));
  const double sd = std::sqrt(chains * horizon * s * s / (m * m * m));
  const auto result = run_phold(world(), run);
  EXPECT_NEAR(static_cast<double>(result.events), expected, 5 * sd);
}

TEST(Phold, DifferentSeedsAndRemoteFractionsChangeTheChecksum) {
  auto run = base();
  run.model.mean = 300 * pdes::kNanosecond;
  run.end = 50 * pdes::kMicrosecond;
  run.model.remote = 0.5;
  const auto a = run_phold(world(), run);
  run.seed = 2;
  const auto b = run_phold(world(), run);
  run.seed = 1;
  run.model.remote = 0.25;
  const auto c = run_phold(world(), run);
  EXPECT_NE(a.checksum, b.checksum);
  EXPECT_NE(a.checksum, c.checksum);
}

TEST(Phold, RejectsParametersItCannotRun) {
  auto run = base();
  run.model.mean = 50 * pdes::kNanosecond;
  try {
    (void)run_phold(world(), run);
    ADD_FAILURE() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--mean (50 ns) must be at least --lookahead (100 ns)"), std::string::npos)
        << e.what();
  }
  run = base();
  run.model.remote = 1.5;
  EXPECT_THROW((void)run_phold(world(), run), std::invalid_argument);
  run = base();
  run.model.lps = 0;
  EXPECT_THROW((void)run_phold(world(), run), std::invalid_argument);
  run = base();
  run.queue = "splay";
  EXPECT_THROW((void)run_phold(world(), run), std::invalid_argument);
}

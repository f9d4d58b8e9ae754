#pragma once
// How a run that threw ends: one table from the exception to the exit code and message, shared by every
// workload's run (training, traffic, collective sweeps) so that the same failure always exits the same
// way (docs/cli.md, "Exit codes").
#include <string>

#include "models/scenario.hpp"

namespace rackscale::app {

struct RunFailure {
  int exit_code;
  std::string message;
};

// Call inside a catch block: the exit code and message for the exception in flight. An exception that is
// none of a run's known failures is rethrown, as if it had not been caught.
[[nodiscard]] RunFailure run_failure(const models::Scenario& scenario);

}  // namespace rackscale::app

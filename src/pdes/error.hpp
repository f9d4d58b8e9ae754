#pragma once
// Errors that stop a simulation. Engines raise them on every rank together (the failing rank's
// message is broadcast at the end of the window), so a model bug on one rank never leaves the
// others waiting forever in a collective.
#include <stdexcept>
#include <string>

namespace rackscale::pdes {

class SimulationError : public std::runtime_error {
 public:
  SimulationError(int failing_rank, const std::string& message)
      : std::runtime_error(message), failing_rank_(failing_rank) {}
  [[nodiscard]] int failing_rank() const noexcept { return failing_rank_; }

 private:
  int failing_rank_;
};

}  // namespace rackscale::pdes

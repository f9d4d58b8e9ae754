#pragma once
// The described job cannot run as configured (for example it does not fit in the accelerators'
// memory). The command maps it to exit code 3; the message says why and what would make it run.
#include <stdexcept>
#include <string>

namespace rackscale::models::memory {

class InfeasibleJob : public std::runtime_error {
 public:
  explicit InfeasibleJob(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace rackscale::models::memory

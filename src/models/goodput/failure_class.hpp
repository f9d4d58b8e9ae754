#pragma once
// A class of interruptions of a training run (docs/goodput.md): how often it strikes, per what, and
// whether recovering from it needs a node replaced.
#include <string>

namespace rackscale::models::goodput {

// What a class's rate is counted per: each accelerator, each node (host), or the job as a whole.
enum class Component { device, node, job };

struct FailureClass {
  std::string name;
  Component per = Component::device;
  double rate_per_hour = 0;    // interruptions per component-hour (>= 0)
  // Inter-arrival times of the class's interruptions in the whole job: exponential (shape 1, a Poisson
  // process) or Weibull of this shape with the same mean (a renewal process; < 1: clustered, > 1: regular).
  double weibull_shape = 1.0;
  bool replaces_node = false;  // recovery swaps the failed node for a spare (hot swap), else only restarts
};

[[nodiscard]] const char* component_name(Component c) noexcept;

}  // namespace rackscale::models::goodput

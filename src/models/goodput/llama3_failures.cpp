#include "models/goodput/llama3_failures.hpp"

namespace rackscale::models::goodput {

const char* component_name(Component c) noexcept {
  switch (c) {
    case Component::device: return "device";
    case Component::node: return "node";
    case Component::job: return "job";
  }
  return "?";
}

namespace {

struct Row {
  const char* name;
  double count;  // interruptions in the 54 days (Table 5)
  Component per;
  bool replaces_node;
};

// Which component a root cause is counted per, and whether it takes a node out, are this model's
// reading of the cause (ASSUMPTIONS, docs/goodput.md): GPU parts, NICs (one per GPU) and silent data
// corruption per GPU and the node swapped; host parts per node and swapped; software, NCCL timeouts and
// the fabric (switches and cables, whose count grows with the endpoints) per GPU and only a restart;
// external dependencies and planned interruptions per job.
constexpr Row kRows[] = {
    {"faulty_gpu", 148, Component::device, true},
    {"gpu_hbm3", 72, Component::device, true},
    {"software_bug", 54, Component::device, false},
    {"network_switch_cable", 35, Component::device, false},
    {"host_maintenance", 32, Component::node, true},
    {"gpu_sram", 19, Component::device, true},
    {"gpu_system_processor", 17, Component::device, true},
    {"nic", 7, Component::device, true},
    {"nccl_watchdog_timeout", 7, Component::device, false},
    {"silent_data_corruption", 6, Component::device, true},
    {"gpu_thermal", 6, Component::device, true},
    {"ssd", 3, Component::node, true},
    {"power_supply", 3, Component::node, true},
    {"server_chassis", 2, Component::node, true},
    {"io_expansion_board", 2, Component::node, true},
    {"dependency", 2, Component::job, false},
    {"cpu", 2, Component::node, true},
    {"system_memory", 2, Component::node, true},
    {"planned", 47, Component::job, false},
};

double components(Component c) {
  switch (c) {
    case Component::device: return kLlama3Gpus;
    case Component::node: return kLlama3Nodes;
    case Component::job: return 1.0;
  }
  return 1.0;
}

}  // namespace

std::vector<FailureClass> llama3_failure_classes() {
  std::vector<FailureClass> classes;
  for (const Row& row : kRows) {
    FailureClass c;
    c.name = row.name;
    c.per = row.per;
    c.rate_per_hour = row.count / (components(row.per) * kLlama3Hours);
    c.replaces_node = row.replaces_node;
    classes.push_back(c);
  }
  return classes;
}

}  // namespace rackscale::models::goodput

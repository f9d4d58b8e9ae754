#pragma once
// Hardware presets as the models see them: figures in SI base units (bytes, bytes/s, FLOP/s, watts,
// picoseconds), each with the source it came from. The YAML presets in configs/presets/ fill these.
#include <cstdint>
#include <string>

#include "pdes/time.hpp"

namespace rackscale::models {

struct AcceleratorSpec {
  std::string name;
  double peak_bf16_flops = 0;     // dense, FLOP/s
  double peak_fp8_flops = 0;      // dense, FLOP/s (0: not supported)
  std::uint64_t memory_bytes = 0; // HBM capacity
  double memory_bandwidth = 0;    // HBM, bytes/s
  double tdp_watts = 0;
  double idle_watts = 0;
  double process_nm = 0;          // for embodied carbon
  double die_area_mm2 = 0;
  // Achievable performance (models/accelerator/compute_model.hpp, docs/models.md):
  double matmul_efficiency = 0.75;      // fraction of peak a large matrix product reaches
  double matmul_half_dimension = 128;   // a matrix dimension d contributes d / (d + this) to efficiency
  double vector_efficiency = 0.10;      // non-matrix FLOPs (norms, softmax, activations) vs. the matrix peak
  double memory_efficiency = 0.85;      // fraction of HBM bandwidth a streaming kernel reaches
  pdes::SimTime kernel_overhead = 1'000'000;  // per kernel launch: 1 us
  // NVLink multicast objects (multimem loads and stores through the NVSwitch): what NVLink SHARP
  // collectives need on the GPU side. Hopper and later; NCCL enables its NVLS algorithm only then.
  bool nvlink_multicast = false;
  std::string source;             // where the figures come from
};

struct NicSpec {
  std::string name;
  double bandwidth = 0;           // per direction, bytes/s
  pdes::SimTime latency = 0;      // host-side injection latency added to the first hop
  // Fraction of `bandwidth` that collective traffic achieves (protocol, framing and copy overheads);
  // the network carries NIC links at bandwidth x efficiency.
  double efficiency = 1.0;
  double active_watts = 0;
  double idle_watts = 0;
  // Bill of materials: purchase price (0: unknown, the TCO's default is used) and the NIC chip, for its
  // embodied carbon (0: not counted).
  double price_usd = 0;
  double die_area_mm2 = 0;
  double process_nm = 0;
  std::string source;
};

struct SwitchSpec {
  std::string name;
  std::uint32_t radix = 0;        // ports
  double port_bandwidth = 0;      // per port per direction, bytes/s
  pdes::SimTime latency = 0;      // port-to-port forwarding latency
  // NVLink SHARP (scale-up switches only): operand bytes per second the switch reduces per device port
  // for multimem load-reduce; 0 when the switch has no in-switch reduction. docs/models.md, "NVLS".
  double nvls_reduce_bandwidth = 0;
  // Power: idle_watts with every port linked and no traffic, plus port_watts per port at its
  // utilization (a port at full line rate both ways adds port_watts); active_watts = idle_watts +
  // radix x port_watts, the most it draws (docs/tco.md, "Switch power by load").
  double active_watts = 0;
  double idle_watts = 0;
  double port_watts = 0;
  // Bill of materials: purchase price (0: unknown, the TCO's default is used) and the switch ASIC, for
  // its embodied carbon (0: not counted).
  double price_usd = 0;
  double die_area_mm2 = 0;
  double process_nm = 0;
  std::string source;
};

// The cables of one port speed (docs/tco.md, "Bill of materials"): a passive copper cable (DAC)
// between two ports of one rack; between racks an optical link, a transceiver at each end (an active
// optical cable is the same with its transceivers built in) and the fibre between them.
struct OpticsSpec {
  std::string name;
  double port_bandwidth = 0;     // the port speed it serves, bytes/s per direction
  double transceiver_watts = 0;  // per end
  double transceiver_usd = 0;    // per end
  double fiber_usd = 0;          // per optical link
  double dac_usd = 0;            // per copper cable
  // The transceiver's DSP chip, for its embodied carbon (0: not counted).
  double die_area_mm2 = 0;
  double process_nm = 0;
  std::string source;
};

}  // namespace rackscale::models

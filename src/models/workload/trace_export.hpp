#pragma once
// A generated device program (accelerator/program.hpp) as an execution trace (docs/traces.md,
// "Exporting"): the inverse of trace_program.hpp, so that replaying the exported traces runs what the
// generator's devices run.
//
// Each op becomes one node, numbered from 1 in program order: a compute op a COMP node with the compute
// model's time (duration_micros rounded, and rackscale's exact duration_ps) and its FLOPs and bytes; a
// collective a COMM_COLL node over a process group named after its kind and first member ("data.16")
// whose ranks the trace's metadata lists; a send or receive a COMM_SEND / COMM_RECV node to or from the
// peer device, tagged with the transfer's match id. The op's dependencies become data dependencies; the
// op before it on its stream, a control dependency. Traced rank r is device r.
//
// By role (docs/traces.md, "One trace per role"), the trace of a device is also the trace of every
// device that runs the same program: its process groups are named by kind alone ("data") and declared
// relative to the rank as strided groups, its peers relative to the pipeline or context group
// (role_trace.hpp), beside the device's own absolute fields.
#include "models/accelerator/device_role.hpp"
#include "models/vocabulary/program.hpp"
#include "models/hardware.hpp"
#include "models/workload/trace_graph.hpp"

namespace rackscale::models::workload {

enum class TraceExportForm : std::uint8_t { per_device, by_role };

// Throws std::invalid_argument for an op a Chakra trace cannot hold (a sendrecv collective), and by
// role for a group that is not strided.
[[nodiscard]] TraceGraph export_program(const accelerator::DeviceRole& role, const AcceleratorSpec& accelerator,
                                        TraceExportForm form = TraceExportForm::per_device);

}  // namespace rackscale::models::workload

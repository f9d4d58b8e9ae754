#pragma once
// `rackscale export-trace CONFIG --format chakra -o DIR [--set k=v ...]`: the built-in training
// generator's per-device programs written as Chakra execution traces, DIR/NAME.D.et for device D
// (models/workload/trace_export.hpp; docs/traces.md, "Exporting"). A trace workload with
// `files: DIR/NAME.%d.et` on the same cluster replays them.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/mpi/communicator.hpp>

#include "app/command.hpp"
#include "models/scenario.hpp"

namespace rackscale::app {

// What export_traces wrote: the files pattern (%d the traced rank, or by role the role), the rank map
// (by role; else empty), and how many traces.
struct ExportedTraces {
  std::string files;
  std::string rank_map;
  std::uint32_t traces = 0;
};

// Collective: the ranks write the devices' traces in turn (device d by rank d mod ranks) into `dir`
// (created if missing), and return what they wrote on every rank. `by_role`: one trace per role (the
// devices of one pipeline stage run the same program) as NAME.role.R.et, written from the role's first
// device, and the rank map NAME.ranks (docs/traces.md, "One trace per role"). Throws
// std::invalid_argument for a scenario that is not a training job, std::runtime_error for a file that
// cannot be written.
[[nodiscard]] ExportedTraces export_traces(const boost::mpi::communicator& comm, const models::Scenario& scenario,
                                           const std::filesystem::path& dir, bool by_role = false);

class ExportTraceCommand final : public Command {
 public:
  explicit ExportTraceCommand(CLI::App& parent);
  [[nodiscard]] bool chosen() const override { return command_->parsed(); }
  [[nodiscard]] int execute(const boost::mpi::communicator& comm) override;

 private:
  CLI::App* command_;
  std::string config_;
  std::vector<std::string> overrides_;
  std::string format_ = "chakra";
  std::string output_;
  bool by_role_ = false;
};

}  // namespace rackscale::app

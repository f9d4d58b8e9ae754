#pragma once
// The root attributes every results file carries, whatever the workload (docs/output.md, "Root
// attributes"): what was run (the resolved config, the program), how it was spread over ranks and how
// long it took. Scripts that collect many runs' files rely on these names.
#include <cstdint>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "io/hdf5/file.hpp"
#include "models/scenario.hpp"
#include "pdes/engine.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::io {

// Which program wrote a file (the app layer knows: it is generated at build time).
struct ProgramInfo {
  std::string version;
  std::string git_revision;
};

// The format_version root attribute; raise it when a change would break readers.
// 2: one name per figure in JSON and HDF5 (docs/output.md, "Conventions"); 1 before.
inline constexpr std::int64_t kResultsFormatVersion = 2;

// How the run went, as the root attributes state it; the same on every rank.
struct RunMetadata {
  std::string workload;          // "traffic", "training", "collective"
  std::string topology;          // one-line description of the built network
  std::string partition_method;
  double setup_s = 0;            // slowest rank
  double wall_s = 0;             // slowest rank
  std::uint64_t events = 0;      // all ranks
  std::uint64_t windows = 0;
  pdes::SimTime lookahead_ps = pdes::kNever;
  pdes::SimTime final_time_ps = 0;
};

// Collective: the metadata of one engine run, reduced over ranks from this rank's statistics.
[[nodiscard]] RunMetadata engine_run_metadata(const boost::mpi::communicator& comm, std::string workload,
                                              std::string topology, std::string partition_method, double setup_s,
                                              const pdes::Engine& engine, const pdes::EngineStats& stats);

// Collective: writes the root attributes. Throws hdf5::Error.
void write_root_attributes(hdf5::File& file, const models::Scenario& scenario, const ProgramInfo& program,
                           const RunMetadata& run);

}  // namespace rackscale::io

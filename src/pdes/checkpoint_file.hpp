#pragma once
// The checkpoint file: every rank's state (Engine::save_state) in one file, with what it was made
// from, so that a restart refuses a file that is not whole or not for this run.
//
// Layout (native byte order, docs/cli.md): the magic "RSCKPT01"; the format version, rank count,
// config hash, partition hash, windows run, simulated time and workload name; each rank's state size
// and FNV-1a 64 checksum; a checksum of all that header; then the ranks' states in rank order.
//
// Rank 0 gathers the states and writes them to a temporary file in the same directory that it renames
// over `path` once it is complete and flushed, so a run killed while writing leaves the previous
// checkpoint whole.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <boost/mpi/communicator.hpp>

#include "pdes/rank_map.hpp"
#include "pdes/time.hpp"

namespace rackscale::pdes {

// What a checkpoint must match to be restored into a run.
struct CheckpointIdentity {
  std::string workload;            // "phold", "traffic", ...
  std::uint64_t config_hash = 0;   // of what the run simulates (config_hash())
  std::uint64_t partition_hash = 0;  // of the LP -> rank map (partition_hash())
};

// A checkpoint that cannot be restored here: unreadable, truncated, corrupt, or for another run.
// Thrown on every rank; the message names the file and what is wrong (exit 2).
class CheckpointRefused : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Writing a checkpoint failed (thrown on every rank; the message names the file and the cause).
class CheckpointWriteFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// FNV-1a 64 of `bytes`, continuing from `hash`.
[[nodiscard]] std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = 0xcbf29ce484222325ULL) noexcept;
[[nodiscard]] std::uint64_t partition_hash(const RankMap& map);

// Collective. Throws CheckpointWriteFailed on every rank if rank 0 could not write the file.
void write_checkpoint_file(const boost::mpi::communicator& comm, const std::string& path,
                           const CheckpointIdentity& identity, SimTime now, std::uint64_t windows,
                           const std::string& rank_state);

// Collective: rank 0 reads and checks `path` against `identity` and the rank count, and every rank
// gets its own state. Throws CheckpointRefused on every rank.
[[nodiscard]] std::string read_checkpoint_file(const boost::mpi::communicator& comm, const std::string& path,
                                               const CheckpointIdentity& identity);

}  // namespace rackscale::pdes

#pragma once
// Where an output file goes, whatever its format (HDF5 results, timeline traces): the checks made
// before simulating, the temporary name it is written under, and the rename that publishes it. A run
// that fails or is killed never leaves a file under the final name that looks finished, and an
// existing file is replaced only when the user allows it (`--force`), and then only by a complete one.
#include <string>

#include <boost/mpi/communicator.hpp>

namespace rackscale::io {

struct DestinationCheck {
  bool exists = false;  // the refusal is because a file is there (and overwriting was not allowed)
  std::string problem;  // empty: the file may be written; otherwise why not, naming the file
};

// Collective, and cheap: meant to run before a long simulation, so that a run whose results could not
// be kept fails before it starts. Rank 0 looks and every rank gets its answer: `path` may be written
// if its directory exists (or was just created) and is writable, and no file is there or `overwrite`.
// Refusals read "results/a.h5: the file exists".
[[nodiscard]] DestinationCheck check_destination(const boost::mpi::communicator& comm, const std::string& path,
                                                 bool overwrite);

// Collective: "<path>.partial-<rank 0's process id>", the same on every rank.
[[nodiscard]] std::string partial_path(const boost::mpi::communicator& comm, const std::string& path);

// Moves the complete file `partial` to `path` atomically. Without `overwrite` it refuses to replace a
// file that appeared at `path` since the check. Returns "" or why it failed (naming the files).
[[nodiscard]] std::string publish(const std::string& partial, const std::string& path, bool overwrite);

namespace detail {
// How publish() moves a file without replacing one where Linux's renameat2(RENAME_NOREPLACE) is
// missing (macOS, other systems) or refused (file systems without it): link() then unlink(), and on a
// file system without hard links a check then a rename. Returns 0, or -1 with errno (EEXIST: a file
// is at `to`). Declared here so that the tests run it on Linux too.
[[nodiscard]] int move_without_replacing(const std::string& from, const std::string& to);
}  // namespace detail

}  // namespace rackscale::io

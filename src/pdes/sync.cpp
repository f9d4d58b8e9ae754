#include "pdes/sync.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pdes/dense_window_sync.hpp"
#include "pdes/sequential_sync.hpp"
#include "pdes/shared_memory_sync.hpp"
#include "pdes/sparse_window_sync.hpp"

namespace rackscale::pdes {
namespace {
// Across nodes, up to this many ranks one message per peer per window is cheaper than two collectives
// (docs/performance.md); beyond it the dense exchange's O(ranks) messages per rank dominate.
constexpr int kDenseMaxRanks = 8;
}  // namespace

const std::vector<std::string>& synchronizer_names() {
  static const std::vector<std::string> names{"auto", "sequential", "shared_memory", "dense", "sparse"};
  return names;
}

std::unique_ptr<Synchronizer> make_synchronizer(std::string_view name, const boost::mpi::communicator& comm) {
  if (name == "auto") {
    if (comm.size() == 1) return std::make_unique<SequentialSync>();
    // Ranks that share one node's memory need no messages at all.
    if (SharedMemorySync::available(comm)) return std::make_unique<SharedMemorySync>(comm);
    if (comm.size() <= kDenseMaxRanks) return std::make_unique<DenseWindowSync>(comm);
    return std::make_unique<SparseWindowSync>(comm);
  }
  if (name == "sequential") {
    if (comm.size() != 1)
      throw std::invalid_argument(
          fmt::format("synchronizer 'sequential' runs on 1 rank; this run has {} ranks", comm.size()));
    return std::make_unique<SequentialSync>();
  }
  if (name == "shared_memory") return std::make_unique<SharedMemorySync>(comm);
  if (name == "dense") return std::make_unique<DenseWindowSync>(comm);
  if (name == "sparse") return std::make_unique<SparseWindowSync>(comm);
  throw std::invalid_argument(fmt::format("unknown synchronizer '{}': expected one of {}", name,
                                          fmt::join(synchronizer_names(), ", ")));
}

}  // namespace rackscale::pdes

#pragma once
// Sparse exchange: at each window's end a rank sends messages only to the ranks it has events for;
// a reduce-scatter tells each rank how many messages to expect, and an all-reduce gives the global
// next event time and any failure. Two collectives of O(log ranks) latency per window plus only the
// messages that carry events: the choice for many ranks.
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/sync.hpp"

namespace rackscale::pdes {

class SparseWindowSync final : public Synchronizer {
 public:
  explicit SparseWindowSync(boost::mpi::communicator comm);
  WindowEnd end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                       SimTime prepare_until, bool progress_wanted, const std::string& failure,
                       EventQueue& queue, EngineStats& stats) override;
  [[nodiscard]] std::string_view name() const override { return "sparse"; }

 private:
  boost::mpi::communicator comm_;
  std::vector<int> sends_to_;  // per peer: 1 if this rank sends it a message in this window
  std::vector<Event> receive_buffer_;
  std::uint64_t window_ = 0;   // parity picks the message tag (see end_window)
};

}  // namespace rackscale::pdes

#pragma once
// Sparse exchange: at each window's end a rank sends messages only to the ranks it has events for;
// a reduce-scatter tells each rank how many messages to expect, and an all-reduce gives the global
// next event time and any failure. Two collectives of O(log ranks) latency per window plus only the
// messages that carry events: the choice for many ranks.
#include <span>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <mpi.h>

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
  std::vector<MPI_Request> sends_;  // this window's messages
  std::vector<int> send_peers_;     // and their receivers

  std::uint64_t note_ = 0;          // what ranks_not_here() sends

  // Completes `request`, waiting at most the watchdog's timeout for `waiting_for` (empty: the ranks of
  // a collective, found by ranks_not_here()).
  void wait(MPI_Request& request, std::span<const int> waiting_for = {});
  // After a timeout: the ranks that have not reached this exchange (collective among the ranks that time
  // out; see the definition).
  [[nodiscard]] std::vector<int> ranks_not_here();
};

}  // namespace rackscale::pdes

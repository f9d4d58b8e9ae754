#pragma once
// Dense exchange: at each window's end every rank sends every other rank exactly one message, a header
// (its next event time, its event count, whether it failed) followed by its events for that rank.
// Every rank then knows the global next event time without a separate reduction, so a window costs
// one message round. O(ranks) messages per rank per window: best for a few ranks (a node or a laptop).
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <mpi.h>

#include "pdes/sync.hpp"

namespace rackscale::pdes {

class DenseWindowSync final : public Synchronizer {
 public:
  explicit DenseWindowSync(boost::mpi::communicator comm);
  WindowEnd end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                       SimTime prepare_until, bool progress_wanted, const std::string& failure,
                       EventQueue& queue, EngineStats& stats) override;
  [[nodiscard]] std::string_view name() const override { return "dense"; }

 private:
  boost::mpi::communicator comm_;
  std::vector<std::vector<Event>> send_buffers_;  // per peer: header record + events
  std::vector<Event> receive_buffer_;
  std::vector<MPI_Request> requests_;
  std::uint64_t windows_ = 0;  // exchanges so far, for the watchdog's messages

  void wait_for_sends();
};

}  // namespace rackscale::pdes

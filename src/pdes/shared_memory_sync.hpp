#pragma once
// Shared-memory windows: the ranks of one node exchange events and agree on each window's end through
// memory they all map (MPI_Win_allocate_shared), not through messages. Each rank has a board the
// others read: a window counter with its report for that window (earliest pending or sent event time,
// failure, progress wish). Events cross in one single-producer ring per ordered pair of ranks. The
// windows are those of the other synchronizers; only the exchange is cheaper (a store and a few loads
// instead of a message round, docs/performance.md).
#include <cstdint>
#include <vector>

#include <boost/mpi/communicator.hpp>
#include <mpi.h>

#include "pdes/shared_event_ring.hpp"
#include "pdes/sync.hpp"

namespace rackscale::pdes {

class SharedMemorySync final : public Synchronizer {
 public:
  // Collective over comm. Throws std::invalid_argument unless every rank of comm is on this node.
  explicit SharedMemorySync(boost::mpi::communicator comm);
  ~SharedMemorySync() override;
  SharedMemorySync(const SharedMemorySync&) = delete;
  SharedMemorySync& operator=(const SharedMemorySync&) = delete;

  WindowEnd end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                       SimTime prepare_until, bool progress_wanted, const std::string& failure,
                       EventQueue& queue, EngineStats& stats) override;
  [[nodiscard]] std::string_view name() const override { return "shared_memory"; }

  // Collective over comm: whether every rank of comm shares memory with every other (one node).
  [[nodiscard]] static bool available(const boost::mpi::communicator& comm);

  // What a rank tells the others; one per rank, at the start of its part of the shared segment.
  struct Board;

 private:
  bool flush(std::vector<std::vector<Event>>& outboxes);  // false: a ring was full, something is left
  void drain(EventQueue& queue, EngineStats& stats);
  void relax(std::uint64_t& spins) const;
  // For the watchdog: the ranks that have not reported `window` yet; the ranks whose rings stay full.
  [[nodiscard]] std::vector<int> ranks_behind(std::uint64_t window) const;
  [[nodiscard]] static std::vector<int> ranks_with_events_left(const std::vector<std::vector<Event>>& outboxes);

  boost::mpi::communicator comm_;
  int me_;
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  std::vector<Board*> boards_;                   // per rank
  std::vector<SharedEventRing*> to_;             // per peer: the ring this rank fills (nullptr for itself)
  std::vector<SharedEventRing*> from_;           // per peer: the ring this rank empties
  std::vector<std::size_t> handed_;              // per peer: outbox events already in its ring
  std::vector<std::uint64_t> known_heads_;       // per peer: the last reading of its ring's head
  std::vector<Event> arrivals_;
  std::uint64_t windows_ = 0;
  bool oversubscribed_ = false;                  // more ranks than processors: yield instead of spinning
};

}  // namespace rackscale::pdes

#include "pdes/sparse_window_sync.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>

#include <boost/mpi/exception.hpp>

#include "pdes/window_exchange.hpp"

namespace rackscale::pdes {
namespace {
// Messages are received from any source, so a fast rank's next-window message must not be taken for
// this window's: windows alternate between two tags. A rank cannot be two windows ahead, because
// finishing a window's all-reduce needs every rank to have finished receiving the window before.
constexpr std::array<int, 2> kTags{7302, 7303};
// The watchdog's notes between ranks that time out (ranks_not_here).
constexpr int kWatchdogTag = 7304;

}  // namespace

SparseWindowSync::SparseWindowSync(boost::mpi::communicator comm)
    : comm_(std::move(comm)), sends_to_(static_cast<std::size_t>(comm_.size()), 0) {}

WindowEnd SparseWindowSync::end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                                       SimTime /*prepare_until: it waits in collectives*/,
                                       bool progress_wanted, const std::string& failure, EventQueue& queue,
                                       EngineStats& stats) {
  const int ranks = comm_.size();
  const MPI_Comm comm(comm_);
  watchdog_.start(window_ + 1);
  const int tag = kTags[window_++ % 2];
  sends_.clear();
  send_peers_.clear();
  for (int peer = 0; peer < ranks; ++peer) {
    const auto& out = outboxes[static_cast<std::size_t>(peer)];
    sends_to_[static_cast<std::size_t>(peer)] = out.empty() ? 0 : 1;
    if (out.empty()) continue;
    sends_.emplace_back();
    send_peers_.push_back(peer);
    BOOST_MPI_CHECK_RESULT(MPI_Isend, (event_bytes(out), byte_count(out.size()), MPI_BYTE, peer, tag, comm,
                                       &sends_.back()));
  }

  // Non-blocking collectives, so that the watchdog can be asked while they are under way.
  int expected_messages = 0;
  MPI_Request collective = MPI_REQUEST_NULL;
  BOOST_MPI_CHECK_RESULT(MPI_Ireduce_scatter_block,
                         (sends_to_.data(), &expected_messages, 1, MPI_INT, MPI_SUM, comm, &collective));
  wait(collective);
  // Element 0: earliest next event time; element 1: lowest failing rank (ranks if none); element 2: 0 if
  // rank 0 wants a progress report after this window (every other rank gives 1).
  const bool wanted = comm_.rank() == 0 && progress_wanted;
  const std::array<std::uint64_t, 3> mine{
      local_next,
      failure.empty() ? static_cast<std::uint64_t>(ranks) : static_cast<std::uint64_t>(comm_.rank()),
      wanted ? 0u : 1u};
  std::array<std::uint64_t, 3> global{};
  BOOST_MPI_CHECK_RESULT(MPI_Iallreduce, (mine.data(), global.data(), 3, MPI_UINT64_T, MPI_MIN, comm, &collective));
  wait(collective);

  for (int i = 0; i < expected_messages; ++i) {
    MPI_Status probed;
    int arrived = 0;
    while (arrived == 0) {
      BOOST_MPI_CHECK_RESULT(MPI_Iprobe, (MPI_ANY_SOURCE, tag, comm, &arrived, &probed));
      if (arrived == 0 && watchdog_.expired()) watchdog_.abort(ranks_not_here(), name());
    }
    int bytes = 0;
    BOOST_MPI_CHECK_RESULT(MPI_Get_count, (&probed, MPI_BYTE, &bytes));
    const std::size_t records = record_count(bytes);
    receive_buffer_.resize(records);
    BOOST_MPI_CHECK_RESULT(MPI_Recv, (event_bytes(receive_buffer_), bytes, MPI_BYTE, probed.MPI_SOURCE, tag, comm,
                                      MPI_STATUS_IGNORE));
    for (const Event& event : receive_buffer_) queue.push(event);
    stats.remote_received += records;
  }
  for (std::size_t i = 0; i < sends_.size(); ++i) {
    // A large message goes only when its receiver takes it.
    const std::array<int, 1> receiver{send_peers_[i]};
    wait(sends_[i], receiver);
  }
  for (auto& out : outboxes) out.clear();

  const auto lowest_failing_rank = static_cast<int>(global[1]);
  if (lowest_failing_rank < ranks) raise_window_failure(comm_, lowest_failing_rank, failure);
  return {global[0], global[2] == 0};
}

void SparseWindowSync::wait(MPI_Request& request, std::span<const int> waiting_for) {
  if (!watchdog_.enabled()) {
    BOOST_MPI_CHECK_RESULT(MPI_Wait, (&request, MPI_STATUS_IGNORE));
    return;
  }
  for (;;) {
    int done = 0;
    BOOST_MPI_CHECK_RESULT(MPI_Test, (&request, &done, MPI_STATUS_IGNORE));
    if (done != 0) return;
    if (!watchdog_.expired()) continue;
    if (!waiting_for.empty()) watchdog_.abort(waiting_for, name());
    watchdog_.abort(ranks_not_here(), name());
  }
}

std::vector<int> SparseWindowSync::ranks_not_here() {
  // MPI does not say which ranks a collective waits for. Every rank that times out at this exchange
  // tells every other one which window it is at, and listens for a while for theirs: the ranks still
  // waiting time out within about the same time (they started waiting within one window's work of each
  // other), so those not heard from within the grace period have not reached the exchange. Only the
  // ranks that time out pay for it; the job is aborted right after, and the notes' requests with it.
  const int ranks = comm_.size();
  const MPI_Comm comm(comm_);
  note_ = window_;
  for (int peer = 0; peer < ranks; ++peer) {
    if (peer == comm_.rank()) continue;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Isend(&note_, 1, MPI_UINT64_T, peer, kWatchdogTag, comm, &request);
    MPI_Request_free(&request);
  }
  std::vector<bool> heard(static_cast<std::size_t>(ranks), false);
  heard[static_cast<std::size_t>(comm_.rank())] = true;
  const double grace = std::clamp(watchdog_.timeout_seconds() / 2.0, 1.0, 10.0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                                 std::chrono::duration<double>(grace));
  int silent = ranks - 1;
  while (silent > 0 && std::chrono::steady_clock::now() < deadline) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kWatchdogTag, comm, &arrived, &status);
    if (arrived == 0) continue;
    std::uint64_t window = 0;
    MPI_Recv(&window, 1, MPI_UINT64_T, status.MPI_SOURCE, kWatchdogTag, comm, MPI_STATUS_IGNORE);
    if (window == note_ && !heard[static_cast<std::size_t>(status.MPI_SOURCE)]) {
      heard[static_cast<std::size_t>(status.MPI_SOURCE)] = true;
      --silent;
    }
  }
  std::vector<int> missing;
  for (int rank = 0; rank < ranks; ++rank)
    if (!heard[static_cast<std::size_t>(rank)]) missing.push_back(rank);
  return missing;
}

}  // namespace rackscale::pdes

#include "pdes/dense_window_sync.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include <boost/mpi/exception.hpp>

#include "pdes/window_exchange.hpp"

namespace rackscale::pdes {
namespace {
// One tag suffices: MPI keeps messages between a pair of ranks in order, and every rank receives
// exactly one message from each peer per window.
constexpr int kTag = 7301;

// The header travels as the first 64-byte record of each message: time = sender's next event time,
// seq = number of events that follow, aux = 1 if the sender failed, kind = 1 if the sender is rank 0
// and wants a progress report after this window.
Event make_header(SimTime local_next, std::size_t count, bool failed, bool progress_wanted) {
  Event header;
  header.time = local_next;
  header.seq = count;
  header.aux = failed ? 1u : 0u;
  header.kind = progress_wanted ? 1u : 0u;
  return header;
}
}  // namespace

DenseWindowSync::DenseWindowSync(boost::mpi::communicator comm)
    : comm_(std::move(comm)), send_buffers_(static_cast<std::size_t>(comm_.size())) {
  requests_.reserve(static_cast<std::size_t>(comm_.size()));
}

// This runs once per window, often every few microseconds, so it calls MPI directly: Boost.MPI's
// request objects allocate per message and its wait_all polls request by request.
WindowEnd DenseWindowSync::end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                                      SimTime prepare_until, bool progress_wanted, const std::string& failure,
                                      EventQueue& queue, EngineStats& stats) {
  const int ranks = comm_.size();
  const int me = comm_.rank();
  const MPI_Comm comm(comm_);
  watchdog_.start(++windows_);
  requests_.clear();
  for (int peer = 0; peer < ranks; ++peer) {
    if (peer == me) continue;
    auto& out = outboxes[static_cast<std::size_t>(peer)];
    auto& buffer = send_buffers_[static_cast<std::size_t>(peer)];
    buffer.clear();
    buffer.push_back(make_header(local_next, out.size(), !failure.empty(), me == 0 && progress_wanted));
    buffer.insert(buffer.end(), out.begin(), out.end());
    out.clear();
    requests_.emplace_back();
    BOOST_MPI_CHECK_RESULT(MPI_Isend, (event_bytes(buffer), byte_count(buffer.size()), MPI_BYTE, peer, kTag, comm,
                                       &requests_.back()));
  }

  SimTime global_next = local_next;
  bool report_progress = me == 0 && progress_wanted;
  int lowest_failing_rank = failure.empty() ? ranks : me;
  for (int peer = 0; peer < ranks; ++peer) {
    if (peer == me) continue;
    MPI_Message message;
    MPI_Status status;
    int bytes = 0;
    // While the peer's message is not here, the queue sorts ahead; when it has nothing left to sort,
    // this rank blocks in MPI as before, or, with a watchdog, polls (as a blocking probe does inside
    // MPI) until its timeout.
    int arrived = 0;
    while (arrived == 0) {
      BOOST_MPI_CHECK_RESULT(MPI_Improbe, (peer, kTag, comm, &arrived, &message, &status));
      if (arrived != 0 || queue.prepare(prepare_until)) continue;
      if (!watchdog_.enabled()) {
        BOOST_MPI_CHECK_RESULT(MPI_Mprobe, (peer, kTag, comm, &message, &status));
        arrived = 1;
      } else if (watchdog_.expired()) {
        watchdog_.abort(std::array{peer}, name());
      }
    }
    BOOST_MPI_CHECK_RESULT(MPI_Get_count, (&status, MPI_BYTE, &bytes));
    const std::size_t records = record_count(bytes);
    receive_buffer_.resize(records);
    BOOST_MPI_CHECK_RESULT(MPI_Mrecv, (event_bytes(receive_buffer_), bytes, MPI_BYTE, &message, MPI_STATUS_IGNORE));
    const Event& header = receive_buffer_.front();
    global_next = std::min(global_next, header.time);
    if (header.aux != 0) lowest_failing_rank = std::min(lowest_failing_rank, peer);
    if (peer == 0) report_progress = header.kind != 0;
    for (std::size_t i = 1; i < records; ++i) queue.push(receive_buffer_[i]);
    stats.remote_received += records - 1;
  }
  wait_for_sends();

  if (lowest_failing_rank < ranks) raise_window_failure(comm_, lowest_failing_rank, failure);
  return {global_next, report_progress};
}

void DenseWindowSync::wait_for_sends() {
  // A large message goes only when its receiver takes it: a stalled peer holds its sends up too.
  if (!watchdog_.enabled()) {
    BOOST_MPI_CHECK_RESULT(MPI_Waitall, (static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE));
    return;
  }
  for (;;) {
    int done = 0;
    BOOST_MPI_CHECK_RESULT(MPI_Testall, (static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE));
    if (done != 0) return;
    if (!watchdog_.expired()) continue;
    // Requests were made for the peers in rank order, skipping this rank.
    std::vector<int> pending;
    for (std::size_t i = 0; i < requests_.size(); ++i) {
      int finished = 0;
      MPI_Request_get_status(requests_[i], &finished, MPI_STATUS_IGNORE);
      const int peer = static_cast<int>(i) < comm_.rank() ? static_cast<int>(i) : static_cast<int>(i) + 1;
      if (finished == 0) pending.push_back(peer);
    }
    watchdog_.abort(pending, name());
  }
}

}  // namespace rackscale::pdes

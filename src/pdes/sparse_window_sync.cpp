#include "pdes/sparse_window_sync.hpp"

#include <array>
#include <cstddef>

#include <boost/mpi/exception.hpp>
#include <boost/mpi/nonblocking.hpp>
#include <boost/mpi/request.hpp>
#include <boost/mpi/status.hpp>

#include "pdes/rank_reduce.hpp"
#include "pdes/window_exchange.hpp"

namespace rackscale::pdes {
namespace {
// Messages are received from any source, so a fast rank's next-window message must not be taken for
// this window's: windows alternate between two tags. A rank cannot be two windows ahead, because
// finishing a window's all-reduce needs every rank to have finished receiving the window before.
constexpr std::array<int, 2> kTags{7302, 7303};

}  // namespace

SparseWindowSync::SparseWindowSync(boost::mpi::communicator comm)
    : comm_(std::move(comm)), sends_to_(static_cast<std::size_t>(comm_.size()), 0) {}

WindowEnd SparseWindowSync::end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                                       SimTime /*prepare_until: it waits in blocking collectives*/,
                                       bool progress_wanted, const std::string& failure, EventQueue& queue,
                                       EngineStats& stats) {
  const int ranks = comm_.size();
  const int tag = kTags[window_++ % 2];
  std::vector<boost::mpi::request> sends;
  for (int peer = 0; peer < ranks; ++peer) {
    const auto& out = outboxes[static_cast<std::size_t>(peer)];
    sends_to_[static_cast<std::size_t>(peer)] = out.empty() ? 0 : 1;
    if (!out.empty()) sends.push_back(comm_.isend(peer, tag, event_bytes(out), byte_count(out.size())));
  }

  int expected_messages = 0;
  BOOST_MPI_CHECK_RESULT(MPI_Reduce_scatter_block,
                         (sends_to_.data(), &expected_messages, 1, MPI_INT, MPI_SUM, MPI_Comm(comm_)));
  // Element 0: earliest next event time; element 1: lowest failing rank (ranks if none); element 2: 0 if
  // rank 0 wants a progress report after this window (every other rank gives 1).
  const bool wanted = comm_.rank() == 0 && progress_wanted;
  const std::array<std::uint64_t, 3> mine{
      local_next,
      failure.empty() ? static_cast<std::uint64_t>(ranks) : static_cast<std::uint64_t>(comm_.rank()),
      wanted ? 0u : 1u};
  std::array<std::uint64_t, 3> global{};
  min_over_ranks(comm_, mine, global);

  for (int i = 0; i < expected_messages; ++i) {
    const boost::mpi::status probed = comm_.probe(boost::mpi::any_source, tag);
    const std::size_t records = record_count(probed.count<char>().value());
    receive_buffer_.resize(records);
    comm_.recv(probed.source(), tag, event_bytes(receive_buffer_), byte_count(records));
    for (const Event& event : receive_buffer_) queue.push(event);
    stats.remote_received += records;
  }
  boost::mpi::wait_all(sends.begin(), sends.end());
  for (auto& out : outboxes) out.clear();

  const auto lowest_failing_rank = static_cast<int>(global[1]);
  if (lowest_failing_rank < ranks) raise_window_failure(comm_, lowest_failing_rank, failure);
  return {global[0], global[2] == 0};
}

}  // namespace rackscale::pdes

#include "pdes/shared_memory_sync.hpp"

#include <sched.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>
#include <thread>

#include <boost/mpi/exception.hpp>
#include <fmt/format.h>

#include "pdes/window_exchange.hpp"

namespace rackscale::pdes {

// Placed on a 64-byte boundary. It is followed by one ring position per rank: how many events this
// rank has put in its ring to that rank. Up to 3 ranks the whole board is one cache line, so a rank
// waiting on it sees the window number and its new events in one transfer (docs/engine.md).
struct SharedMemorySync::Board {
  std::atomic<std::uint64_t> window{0};      // the last window this rank finished
  std::array<std::atomic<std::uint64_t>, 2> next{};   // its report for window w is in slot w % 2:
  std::array<std::atomic<std::uint64_t>, 2> flags{};  //   earliest event time; bit 0 failed, bit 1 progress

  [[nodiscard]] static std::size_t bytes_for(int ranks) {
    return sizeof(Board) + static_cast<std::size_t>(ranks) * sizeof(SharedEventRing::Position);
  }
  static Board* create(void* memory, int ranks) {
    auto* board = new (memory) Board;
    for (int rank = 0; rank < ranks; ++rank) new (&board->sent_to(rank)) SharedEventRing::Position(0);
    return board;
  }
  // The tail of this rank's ring to `rank`.
  SharedEventRing::Position& sent_to(int rank) {
    return reinterpret_cast<SharedEventRing::Position*>(this + 1)[rank];
  }
};
static_assert(sizeof(SharedMemorySync::Board) % alignof(SharedEventRing::Position) == 0);

namespace {
// Spins on a board before a waiting rank starts yielding its processor.
constexpr std::uint64_t kSpinsBeforeYield = 4096;
constexpr std::uint64_t kFailed = 1;
constexpr std::uint64_t kProgressWanted = 2;
// Ring slots a rank claims for writing at the start of a window, per peer (SharedEventRing::claim_next):
// a little more than PHOLD at remote 0.1 sends a peer per window on 2 ranks (2.9 events). A larger
// burst waits for its further lines at the window's end, as every burst did before.
constexpr std::uint64_t kSlotsClaimed = 4;

// Ring capacity per ordered pair: 4,096 events (256 KiB) up to 9 ranks, then less, keeping a rank's
// inbound rings near 2 MiB. A full ring only makes the sender hand its events over later.
std::size_t ring_capacity(int ranks) {
  const auto peers = static_cast<std::size_t>(std::max(ranks - 1, 1));
  if (peers <= 8) return 4096;
  return std::max<std::size_t>(256, std::bit_floor(std::size_t{32768} / peers));
}

std::size_t align_up(std::size_t n) { return (n + 63) / 64 * 64; }

void* aligned(void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<void*>((address + 63) / 64 * 64);
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// The processors the node's ranks may run on, counted once over all of them (their affinity masks
// OR-ed together): more ranks than that means they take turns, and a spinning rank would hold up the
// one it waits for. Affinity masks are Linux's; elsewhere (macOS) every online processor counts.
#if !defined(__linux__)
int processors_for(MPI_Comm /*node*/) { return static_cast<int>(std::thread::hardware_concurrency()); }
#else
int processors_for(MPI_Comm node) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return 0;
  std::array<unsigned char, sizeof(cpu_set_t)> bytes{};
  std::memcpy(bytes.data(), &mask, sizeof mask);
  BOOST_MPI_CHECK_RESULT(MPI_Allreduce,
                         (MPI_IN_PLACE, bytes.data(), static_cast<int>(bytes.size()), MPI_UNSIGNED_CHAR, MPI_BOR, node));
  std::memcpy(&mask, bytes.data(), sizeof mask);
  return CPU_COUNT(&mask);
}
#endif

// Collective over comm: the node communicator, or MPI_COMM_NULL (on every rank) when the ranks of comm
// do not all share this node, or do not keep their order on it.
MPI_Comm node_of(const boost::mpi::communicator& comm) {
  MPI_Comm node = MPI_COMM_NULL;
  BOOST_MPI_CHECK_RESULT(MPI_Comm_split_type, (MPI_Comm(comm), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
  int size = 0;
  int rank = 0;
  MPI_Comm_size(node, &size);
  MPI_Comm_rank(node, &rank);
  int one_node = size == comm.size() && rank == comm.rank() ? 1 : 0;
  BOOST_MPI_CHECK_RESULT(MPI_Allreduce, (MPI_IN_PLACE, &one_node, 1, MPI_INT, MPI_MIN, MPI_Comm(comm)));
  if (one_node == 0) MPI_Comm_free(&node);
  return node;
}
}  // namespace

bool SharedMemorySync::available(const boost::mpi::communicator& comm) {
  MPI_Comm node = node_of(comm);
  if (node == MPI_COMM_NULL) return false;
  MPI_Comm_free(&node);
  return true;
}

SharedMemorySync::SharedMemorySync(boost::mpi::communicator comm)
    : comm_(std::move(comm)),
      me_(comm_.rank()),
      node_(node_of(comm_)),
      boards_(static_cast<std::size_t>(comm_.size()), nullptr),
      to_(static_cast<std::size_t>(comm_.size()), nullptr),
      from_(static_cast<std::size_t>(comm_.size()), nullptr),
      handed_(static_cast<std::size_t>(comm_.size()), 0),
      known_heads_(static_cast<std::size_t>(comm_.size()), 0) {
  if (node_ == MPI_COMM_NULL)
    throw std::invalid_argument(fmt::format(
        "synchronizer 'shared_memory' needs every rank on one node; this run's {} ranks do not all share "
        "memory (use 'dense' or 'sparse', or 'auto' to choose)",
        comm_.size()));
  const int ranks = comm_.size();
  const std::size_t capacity = ring_capacity(ranks);
  const std::size_t ring_bytes = SharedEventRing::bytes_for(capacity);
  const std::size_t board_bytes = align_up(Board::bytes_for(ranks));
  // One extra cache line, so each part can start on a 64-byte boundary whatever MPI returns.
  const std::size_t part_bytes = 64 + board_bytes + static_cast<std::size_t>(ranks - 1) * ring_bytes;

  MPI_Info info = MPI_INFO_NULL;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* base = nullptr;
  BOOST_MPI_CHECK_RESULT(MPI_Win_allocate_shared,
                         (static_cast<MPI_Aint>(part_bytes), 1, info, node_, &base, &window_));
  MPI_Info_free(&info);

  // A rank's part: its board, then the rings it empties, one per other rank in rank order.
  const auto ring_in = [&](void* part, int source, int owner) {
    const int index = source < owner ? source : source - 1;
    return static_cast<char*>(aligned(part)) + board_bytes + static_cast<std::size_t>(index) * ring_bytes;
  };
  Board::create(aligned(base), ranks);
  for (int source = 0; source < ranks; ++source)
    if (source != me_) from_[static_cast<std::size_t>(source)] = SharedEventRing::create(ring_in(base, source, me_), capacity);
  BOOST_MPI_CHECK_RESULT(MPI_Barrier, (node_));

  for (int rank = 0; rank < ranks; ++rank) {
    MPI_Aint size = 0;
    int unit = 0;
    void* part = nullptr;
    BOOST_MPI_CHECK_RESULT(MPI_Win_shared_query, (window_, rank, &size, &unit, &part));
    boards_[static_cast<std::size_t>(rank)] = static_cast<Board*>(aligned(part));
    if (rank != me_) to_[static_cast<std::size_t>(rank)] = SharedEventRing::at(ring_in(part, me_, rank));
  }
  oversubscribed_ = ranks > processors_for(node_);
}

SharedMemorySync::~SharedMemorySync() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized != 0) return;
  if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

bool SharedMemorySync::flush(std::vector<std::vector<Event>>& outboxes) {
  bool all = true;
  for (std::size_t peer = 0; peer < outboxes.size(); ++peer) {
    auto& out = outboxes[peer];
    if (out.empty()) continue;
    std::size_t& handed = handed_[peer];
    handed += to_[peer]->push(out.data() + handed, out.data() + out.size(),
                              boards_[static_cast<std::size_t>(me_)]->sent_to(static_cast<int>(peer)),
                              known_heads_[peer]);
    if (handed == out.size()) {
      out.clear();
      handed = 0;
    } else {
      all = false;
    }
  }
  return all;
}

void SharedMemorySync::drain(EventQueue& queue, EngineStats& stats) {
  for (std::size_t peer = 0; peer < from_.size(); ++peer) {
    if (from_[peer] == nullptr) continue;
    arrivals_.clear();
    stats.remote_received += from_[peer]->pop_all(boards_[peer]->sent_to(me_), arrivals_);
    for (const Event& event : arrivals_) queue.push(event);
  }
}

std::vector<int> SharedMemorySync::ranks_behind(std::uint64_t window) const {
  std::vector<int> behind;
  for (int rank = 0; rank < comm_.size(); ++rank)
    if (rank != me_ && boards_[static_cast<std::size_t>(rank)]->window.load(std::memory_order_acquire) < window)
      behind.push_back(rank);
  return behind;
}

std::vector<int> SharedMemorySync::ranks_with_events_left(const std::vector<std::vector<Event>>& outboxes) {
  std::vector<int> readers;
  for (std::size_t peer = 0; peer < outboxes.size(); ++peer)
    if (!outboxes[peer].empty()) readers.push_back(static_cast<int>(peer));
  return readers;
}

void SharedMemorySync::relax(std::uint64_t& spins) const {
  if (oversubscribed_ || ++spins > kSpinsBeforeYield) {
    sched_yield();
  } else {
    cpu_relax();
  }
}

WindowEnd SharedMemorySync::end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                                       SimTime prepare_until, bool progress_wanted, const std::string& failure,
                                       EventQueue& queue, EngineStats& stats) {
  const int ranks = comm_.size();
  const std::uint64_t window = ++windows_;
  const std::size_t slot = window % 2;
  std::uint64_t spins = 0;
  watchdog_.start(window);
  // Everything this window sent must be in the rings before the report; a full ring drains as its
  // reader waits, and this rank keeps emptying its own meanwhile.
  while (!flush(outboxes)) {
    drain(queue, stats);
    relax(spins);
    if (watchdog_.expired()) watchdog_.abort(ranks_with_events_left(outboxes), name());
  }
  Board& mine = *boards_[static_cast<std::size_t>(me_)];
  mine.next[slot].store(local_next, std::memory_order_relaxed);
  mine.flags[slot].store((failure.empty() ? 0 : kFailed) | (me_ == 0 && progress_wanted ? kProgressWanted : 0),
                         std::memory_order_relaxed);
  mine.window.store(window, std::memory_order_release);
  SharedEventRing::hand_over(&mine);

  spins = 0;
  for (;;) {
    bool everyone = true;
    for (int rank = 0; rank < ranks && everyone; ++rank)
      everyone = rank == me_ || boards_[static_cast<std::size_t>(rank)]->window.load(std::memory_order_acquire) >= window;
    // After reading the boards: whatever a rank sent before its report is in its ring.
    drain(queue, stats);
    if (everyone) break;
    // Waiting is the time to do work of the next window that needs no other rank: the queue sorts
    // what is certain to be handled then, and the spinning starts when it has nothing left.
    if (!queue.prepare(prepare_until)) relax(spins);
    if (watchdog_.expired()) watchdog_.abort(ranks_behind(window), name());
  }

  // A rank's report for this window stays until it finishes the window after next, which it cannot
  // before this rank has finished the next one.
  SimTime global_next = kNever;
  int lowest_failing_rank = ranks;
  bool report_progress = false;
  for (int rank = 0; rank < ranks; ++rank) {
    const Board& board = *boards_[static_cast<std::size_t>(rank)];
    global_next = std::min(global_next, board.next[slot].load(std::memory_order_relaxed));
    const std::uint64_t flags = board.flags[slot].load(std::memory_order_relaxed);
    if ((flags & kFailed) != 0) lowest_failing_rank = std::min(lowest_failing_rank, rank);
    if (rank == 0) report_progress = (flags & kProgressWanted) != 0;
  }
  if (lowest_failing_rank < ranks) raise_window_failure(comm_, lowest_failing_rank, failure);
  // The next window's events to each peer will go to the slots after its ring's tail.
  for (int rank = 0; rank < ranks; ++rank)
    if (rank != me_) to_[static_cast<std::size_t>(rank)]->claim_next(mine.sent_to(rank), kSlotsClaimed);
  return {global_next, report_progress};
}

}  // namespace rackscale::pdes

#pragma once
// The Ladder Queue of Tang, Goh and Thng (ACM TOMACS 15(3), 2005): O(1) amortized push and pop for
// the time distributions a simulator produces, where a heap pays O(log n) cache misses at large n.
//
//   Top     unsorted entries at or after top_start_, with their min and max time.
//   Rungs   rung 0 splits an emptied Top into buckets of equal width; a bucket too large to sort
//           becomes the next rung, with narrower buckets. Buckets are unsorted.
//   Bottom  the earliest entries: a bucket sorted once, from which pop_before() takes.
//
// Departures from the paper, all for exactness with integer times and arbitrary push orders:
//   - A push earlier than the current rung position (it belongs in Bottom) goes to a heap beside
//     the sorted Bottom, so it costs O(log n) instead of a linear insertion into a sorted list, and
//     Bottom never has to be turned back into a rung.
//   - Bucket widths are powers of two: a bucket index is a shift, not a division, and the width is
//     never rounded to 0.
//   - A bucket of equal times, or at the deepest rung, goes to Bottom whatever its size, so equal
//     times cannot make rungs spawn forever.
//   - The last bucket of a rung also takes times past its nominal edge (up to the parent bucket's
//     edge), so a rung needs only as many buckets as its events' spread calls for.
//   - prepare() hands buckets down before Bottom is empty (in front of its entries, which are all
//     earlier), so a rank waiting at a window's end does the sorting its next window would do.
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pdes/event_pool.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/quaternary_heap_queue.hpp"

namespace rackscale::pdes {

class LadderQueue final : public EventQueue {
 public:
  void push(const Event& event) override;
  bool pop_before(SimTime limit, Event& out) override;
  [[nodiscard]] SimTime next_time() override;
  [[nodiscard]] std::size_t size() const override { return size_; }
  [[nodiscard]] std::string_view name() const override { return "ladder"; }
  bool prepare(SimTime until) override;

  // A bucket (or Top) with more entries than this is spread over a new, finer rung rather than
  // sorted into Bottom. Tang et al. chose 50 where sorting a bucket starts to cost more than
  // spreading it out; here it also bounds the insertion sort that a typical Bottom gets.
  static constexpr std::size_t kSpawnThreshold = 50;
  // The paper's bound: deeper rungs rarely pay off, and a bound keeps the rung array fixed.
  static constexpr std::size_t kMaxRungs = 8;
  // A new rung gets about (entries / kEntriesPerBucket) buckets, fewer after rounding the width up
  // to a power of two. 1 sorts slightly smaller Bottoms; 4 saves bucket memory; neither is faster
  // in the hold benchmark.
  static constexpr std::size_t kEntriesPerBucket = 2;
  // prepare() stops once Bottom holds this many entries: each bucket it adds is copied in front of
  // them, and a wait longer than their sorting gains nothing more from sorting further.
  static constexpr std::size_t kPreparedBottomLimit = 256;

 private:
  // Rung buckets are chains of one-cache-line chunks from a pool shared by all rungs, so a bucket
  // costs 8 bytes until it holds something, buckets never reallocate, and memory follows the number
  // of entries rather than every bucket's high-water mark.
  using ChunkIndex = std::uint32_t;
  static constexpr ChunkIndex kNoChunk = 0xFFFF'FFFFu;
  static constexpr std::size_t kChunkEntries = 4;
  struct Chunk {
    std::array<QueueEntry, kChunkEntries> entries;
  };
  struct Bucket {
    ChunkIndex head = kNoChunk;  // the newest chunk, the only one that may be partly full
    std::uint32_t count = 0;
  };

  struct Rung {
    // Buckets [0, nbuckets) are in use; any beyond are empty leftovers of an earlier, wider rung.
    std::vector<Bucket> buckets;
    std::size_t nbuckets = 0;
    std::size_t cur = 0;    // first bucket not yet handed down; buckets before it are empty
    std::size_t count = 0;  // entries in the rung
    SimTime start = 0;      // lower edge of bucket 0
    SimTime cur_start = 0;  // lower edge of bucket `cur`; earlier times belong below this rung
    SimTime end = 0;     // upper edge (exclusive) of the last bucket: where the rung above begins
    unsigned shift = 0;  // bucket width is 2^shift
  };

  void append(Bucket& bucket, const QueueEntry& entry);
  // Appends a bucket's entries to `out` and frees its chunks.
  void take(Bucket& bucket, std::vector<QueueEntry>& out);
  void insert(const QueueEntry& entry);
  // Makes Bottom hold the earliest entries; false when the queue is empty.
  bool fill_bottom();
  // Moves the earliest bucket of the rungs (or Top) to `out` (empty), sorted latest first, if its
  // lower edge is at or before `until`; false otherwise (and always when the queue is empty).
  bool take_bucket(std::vector<QueueEntry>& out, SimTime until);
  void sort_latest_first(std::vector<QueueEntry>& entries) const;
  [[nodiscard]] bool bottom_empty() const { return sorted_.empty() && late_.empty(); }
  // Whether Bottom's first entry is in late_ rather than sorted_. Precondition: !bottom_empty().
  [[nodiscard]] bool first_is_late() const {
    return sorted_.empty() || (!late_.empty() && entry_before(late_.top(), sorted_.back(), pool_));
  }
  // Spreads `source` (times in [min, max], all before `end`) over a new rung below the others.
  void spawn_rung(const std::vector<QueueEntry>& source, SimTime min, SimTime max, SimTime end);

  EventPool pool_;
  std::size_t size_ = 0;

  std::vector<QueueEntry> top_;
  SimTime top_start_ = 0;  // entries at or after it go to Top
  SimTime top_min_ = kNever;
  SimTime top_max_ = 0;

  std::array<Rung, kMaxRungs> rungs_{};
  std::size_t nrungs_ = 0;

  // Bottom. A bucket handed down is sorted once, latest first, so each pop is a pop_back(); pushes
  // that arrive afterwards but belong in Bottom go to late_, usually empty.
  std::vector<QueueEntry> sorted_;
  QuaternaryEntryHeap late_;
  std::vector<QueueEntry> scratch_;  // prepare()'s next bucket, on its way to the front of sorted_

  // Chunk storage. The links live apart from the chunks: walking a chain then reads a dense array
  // that stays in cache, and the chunk loads themselves can all be in flight at once.
  std::vector<Chunk, QueueAllocator<Chunk>> chunks_;
  std::vector<ChunkIndex> next_chunk_;
  ChunkIndex free_chunks_ = kNoChunk;
};

}  // namespace rackscale::pdes

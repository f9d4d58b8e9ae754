#include "pdes/ladder_queue.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <stdexcept>

namespace rackscale::pdes {

void LadderQueue::push(const Event& event) {
  if (size_ == 0) {
    // Start over from an empty Top: otherwise, after a drain, a burst of pushes earlier than the
    // old top_start_ would all land in Bottom and the queue would degrade to a heap.
    nrungs_ = 0;
    top_start_ = 0;
  }
  insert(make_entry(event, pool_.acquire(event)));
  ++size_;
}

bool LadderQueue::pop_before(SimTime limit, Event& out) {
  if (bottom_empty() && !fill_bottom()) return false;
  EventSlot slot = 0;
  if (first_is_late()) {
    if (late_.top().time >= limit) return false;
    slot = late_.pop(pool_).slot;
  } else {
    if (sorted_.back().time >= limit) return false;
    slot = sorted_.back().slot;
    sorted_.pop_back();
  }
  out = pool_[slot];
  pool_.release(slot);
  --size_;
  // The records of the next two events were fetched during the last two handlings (below), so their
  // destinations can be read now without a stall; the one after them starts loading for later pops.
  // With late entries the next event may be the earliest of them, and the one after is not known.
  const std::size_t n = sorted_.size();
  if (late_.empty()) {
    upcoming_ = {n > 0 ? pool_[sorted_[n - 1].slot].dst : kNoLp, n > 1 ? pool_[sorted_[n - 2].slot].dst : kNoLp};
  } else {
    upcoming_ = {pool_[(first_is_late() ? late_.top() : sorted_.back()).slot].dst, kNoLp};
  }
  if (n > 2) pool_.prefetch(sorted_[n - 3].slot);
  return true;
}

SimTime LadderQueue::next_time() {
  if (bottom_empty() && !fill_bottom()) return kNever;
  return first_is_late() ? late_.top().time : sorted_.back().time;
}

void LadderQueue::insert(const QueueEntry& entry) {
  if (entry.time >= top_start_) {
    top_.push_back(entry);
    top_min_ = std::min(top_min_, entry.time);
    top_max_ = std::max(top_max_, entry.time);
    return;
  }
  // Rungs nest: each one's range lies before the cur_start of the rung above, so the first rung
  // whose cur_start the time reaches is the one whose bucket range holds it.
  for (std::size_t r = 0; r < nrungs_; ++r) {
    Rung& rung = rungs_[r];
    if (entry.time >= rung.cur_start) {
      const auto index = static_cast<std::size_t>((entry.time - rung.start) >> rung.shift);
      append(rung.buckets[std::min(index, rung.nbuckets - 1)], entry);
      ++rung.count;
      return;
    }
  }
  // Earlier than every rung's current bucket: only Bottom still sorts such times.
  late_.push(entry, pool_);
}

void LadderQueue::append(Bucket& bucket, const QueueEntry& entry) {
  const std::size_t used = bucket.count % kChunkEntries;
  if (used == 0) {
    ChunkIndex chunk = free_chunks_;
    if (chunk != kNoChunk) {
      free_chunks_ = next_chunk_[chunk];
    } else {
      if (chunks_.size() >= kNoChunk) throw std::length_error("LadderQueue: too many events");
      chunk = static_cast<ChunkIndex>(chunks_.size());
      chunks_.emplace_back();
      next_chunk_.push_back(kNoChunk);
    }
    next_chunk_[chunk] = bucket.head;
    bucket.head = chunk;
  }
  chunks_[bucket.head].entries[used] = entry;
  ++bucket.count;
}

void LadderQueue::take(Bucket& bucket, std::vector<QueueEntry>& out) {
  // The head chunk holds the remainder; every older chunk is full.
  std::size_t in_chunk = (bucket.count - 1) % kChunkEntries + 1;
  ChunkIndex chunk = bucket.head;
  ChunkIndex last = chunk;
  while (chunk != kNoChunk) {
    const auto& entries = chunks_[chunk].entries;
    out.insert(out.end(), entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(in_chunk));
    in_chunk = kChunkEntries;
    last = chunk;
    chunk = next_chunk_[chunk];
  }
  // The whole chain goes onto the free list at once.
  next_chunk_[last] = free_chunks_;
  free_chunks_ = bucket.head;
  bucket = Bucket{};
}

bool LadderQueue::prepare(SimTime until) {
  if (sorted_.size() >= kPreparedBottomLimit) return false;
  if (sorted_.empty()) return take_bucket(sorted_, until);
  scratch_.clear();
  if (!take_bucket(scratch_, until)) return false;
  // The bucket is later than all of Bottom, so it goes in front (Bottom is sorted latest first).
  sorted_.insert(sorted_.begin(), scratch_.begin(), scratch_.end());
  return true;
}

bool LadderQueue::fill_bottom() { return take_bucket(sorted_, kNever); }

bool LadderQueue::take_bucket(std::vector<QueueEntry>& out, SimTime until) {
  for (;;) {
    if (nrungs_ == 0) {
      if (top_.empty() || top_min_ > until) return false;
      const SimTime min = top_min_;
      const SimTime max = top_max_;
      // Saturating: an event at kNever can never be popped (limit <= kNever), so its order
      // relative to later kNever events does not matter.
      top_start_ = saturating_add(max, 1);
      top_min_ = kNever;
      top_max_ = 0;
      if (top_.size() <= kSpawnThreshold || min == max) {
        out.swap(top_);
        sort_latest_first(out);
        return true;
      }
      spawn_rung(top_, min, max, top_start_);
      top_.clear();
      continue;
    }

    Rung& rung = rungs_[nrungs_ - 1];
    if (rung.count == 0) {
      // Its buckets are all empty again, ready for the next rung at this depth.
      --nrungs_;
      continue;
    }
    std::size_t index = rung.cur;
    while (rung.buckets[index].count == 0) ++index;
    if (rung.start + (SimTime{index} << rung.shift) > until) return false;
    Bucket& bucket = rung.buckets[index];
    rung.cur = index + 1;
    // The last bucket's range runs to `end`, and start + nbuckets * width could overflow.
    rung.cur_start =
        rung.cur < rung.nbuckets ? rung.start + (SimTime{rung.cur} << rung.shift) : rung.end;
    rung.count -= bucket.count;
    const bool large = bucket.count > kSpawnThreshold;
    take(bucket, out);

    if (large && nrungs_ < kMaxRungs) {
      SimTime min = kNever;
      SimTime max = 0;
      for (const QueueEntry& entry : out) {
        min = std::min(min, entry.time);
        max = std::max(max, entry.time);
      }
      if (min != max) {
        spawn_rung(out, min, max, rung.cur_start);
        out.clear();
        continue;
      }
    }
    sort_latest_first(out);
    return true;
  }
}

void LadderQueue::sort_latest_first(std::vector<QueueEntry>& entries) const {
  const std::size_t n = entries.size();
  if (n > kSpawnThreshold) {  // all one time, or from the deepest rung
    std::sort(entries.begin(), entries.end(), [this](const QueueEntry& a, const QueueEntry& b) {
      return entry_before(b, a, pool_);
    });
    return;
  }
  // Insertion sort with a hole: a typical Bottom holds a couple of dozen entries, where this beats
  // std::sort (measured) and writes each moved entry once.
  QueueEntry* const v = entries.data();
  for (std::size_t i = 1; i < n; ++i) {
    const QueueEntry entry = v[i];
    std::size_t hole = i;
    while (hole > 0 && entry_before(v[hole - 1], entry, pool_)) {
      v[hole] = v[hole - 1];
      --hole;
    }
    v[hole] = entry;
  }
}

void LadderQueue::spawn_rung(const std::vector<QueueEntry>& source, SimTime min, SimTime max,
                             SimTime end) {
  Rung& rung = rungs_[nrungs_++];
  const SimTime spread = max - min;
  const SimTime target_buckets = std::max<SimTime>(2, source.size() / kEntriesPerBucket);
  // The smallest power-of-two width that spreads [min, max] over at most target_buckets buckets;
  // target_buckets >= 2 keeps the shift below 64 even for a spread of 2^64-1.
  rung.shift = static_cast<unsigned>(std::bit_width(spread / target_buckets));
  const auto nbuckets = static_cast<std::size_t>(spread >> rung.shift) + 1;
  if (rung.buckets.size() < nbuckets) rung.buckets.resize(nbuckets);
  rung.nbuckets = nbuckets;
  rung.cur = 0;
  rung.count = source.size();
  rung.start = min;
  rung.cur_start = min;
  rung.end = end;
  for (const QueueEntry& entry : source) {
    append(rung.buckets[static_cast<std::size_t>((entry.time - min) >> rung.shift)], entry);
  }
}

}  // namespace rackscale::pdes

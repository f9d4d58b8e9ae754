#pragma once
// A node's records of the messages crossing it in train fidelity (train_state.hpp), by message id.
//
// Every run, cut and forget looks a record up, so this is on every train event's path: a
// std::unordered_map (one heap node per message, a division by the bucket count and a dependent load per
// look-up) took 15 % of the 1,024-device Llama 3 cut's samples (docs/performance.md, "Train fidelity").
// Here the ids sit in an open-addressed table (linear probing, Fibonacci hashing: no division; at most half
// full; backward-shift deletion, so no tombstones) that points into a pool of records. Records never move
// (a std::deque, freed ones reused): a reference to one stays valid while others come and go, which the
// fabric relies on (it holds one message's record while it cuts or forgets another's).
#include <bit>
#include <cstdint>
#include <deque>
#include <vector>

#include "models/network/message.hpp"

namespace rackscale::models::network {

template <class Record>
class TrainMessages {
 public:
  // The record of `id`, or nullptr.
  [[nodiscard]] Record* find(MessageId id) noexcept {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = home(id);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.record == kEmpty) return nullptr;
      if (slot.id == id) return &records_[slot.record];
    }
  }

  // The record of `id`, made (value-initialised) if there is none.
  [[nodiscard]] Record& operator[](MessageId id) {
    if (Record* found = find(id)) return *found;
    if (2 * (used_ + 1) > slots_.size()) grow();
    std::uint32_t record = 0;
    if (free_.empty()) {
      record = static_cast<std::uint32_t>(records_.size());
      records_.emplace_back();
    } else {
      record = free_.back();
      free_.pop_back();
      records_[record] = Record{};
    }
    place(Slot{id, record});
    ++used_;
    return records_[record];
  }

  // Forgets `id`'s record (nothing if there is none); other records stay where they are.
  void erase(MessageId id) noexcept {
    if (slots_.empty()) return;
    std::size_t i = home(id);
    while (slots_[i].record != kEmpty && slots_[i].id != id) i = (i + 1) & mask();
    if (slots_[i].record == kEmpty) return;
    free_.push_back(slots_[i].record);
    --used_;
    // Backward shift: move later entries of the cluster into the gap when their home is not between the
    // gap and them, so that every entry stays reachable from its home without tombstones.
    for (std::size_t j = (i + 1) & mask(); slots_[j].record != kEmpty; j = (j + 1) & mask()) {
      const std::size_t h = home(slots_[j].id);
      const bool home_after_gap = ((j - h) & mask()) < ((j - i) & mask());
      if (home_after_gap) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i].record = kEmpty;
  }

  [[nodiscard]] std::size_t size() const noexcept { return used_; }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFF'FFFFu;
  struct Slot {
    MessageId id = 0;
    std::uint32_t record = kEmpty;
  };

  [[nodiscard]] std::size_t mask() const noexcept { return slots_.size() - 1; }
  // Fibonacci hashing: the top bits of id times 2^64/phi. Ids of one sender differ in their low bits.
  [[nodiscard]] std::size_t home(MessageId id) const noexcept {
    return static_cast<std::size_t>((id * 0x9E37'79B9'7F4A'7C15ull) >> shift_);
  }
  void place(const Slot& slot) noexcept {
    std::size_t i = home(slot.id);
    while (slots_[i].record != kEmpty) i = (i + 1) & mask();
    slots_[i] = slot;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(slots_.size()));
    for (const Slot& slot : old)
      if (slot.record != kEmpty) place(slot);
  }

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  unsigned shift_ = 64;
  std::size_t used_ = 0;
  std::deque<Record> records_;
  std::vector<std::uint32_t> free_;  // records no id points to
};

}  // namespace rackscale::models::network

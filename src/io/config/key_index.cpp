#include "io/config/key_index.hpp"

#include <functional>
#include <stdexcept>

namespace rackscale::io {

std::optional<std::size_t> KeyIndex::find_or_add(std::string_view key, const std::vector<ConfigEntry>& entries) {
  if (2 * (used_ + 1) > slots_.size()) grow();
  const std::size_t hash = std::hash<std::string_view>{}(key);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.entry_plus_one == 0) {
      if (entries.size() >= UINT32_MAX) throw std::length_error("a mapping of 2^32 keys");
      slot = Slot{hash, static_cast<std::uint32_t>(entries.size() + 1)};
      ++used_;
      return std::nullopt;
    }
    const std::size_t entry = slot.entry_plus_one - 1;
    if (slot.hash == hash && entries[entry].key == key) return entry;
  }
}

void KeyIndex::grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 16 : 2 * old.size(), Slot{});
  const std::size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.entry_plus_one == 0) continue;
    std::size_t i = s.hash & mask;
    while (slots_[i].entry_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace rackscale::io

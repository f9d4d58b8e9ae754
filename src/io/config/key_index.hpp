#pragma once
// The keys of one mapping while it is parsed, to find a repeated key in O(1) per key: an open-addressing
// table of entry indices and hashes. It copies no key and allocates nothing per key: a std::unordered_map
// of the keys took a second of a 1-million-key mapping's 4 (the old linear search, hours).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "io/config/config_node.hpp"

namespace rackscale::io {

class KeyIndex {
 public:
  // `entries` holds the mapping's entries so far; `key` will be entries[entries.size()]. Returns the
  // index of the entry that already has `key`, or records the new one and returns nothing.
  [[nodiscard]] std::optional<std::size_t> find_or_add(std::string_view key, const std::vector<ConfigEntry>& entries);

 private:
  struct Slot {
    std::size_t hash = 0;
    std::uint32_t entry_plus_one = 0;  // 0: empty
  };
  void grow();

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  std::size_t used_ = 0;
};

}  // namespace rackscale::io

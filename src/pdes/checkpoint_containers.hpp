#pragma once
// Hash containers in checkpoints (pdes/checkpoint.hpp): saved in key order, so that a model's
// checkpoint bytes do not depend on its hash tables' history, and restored into empty tables.
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>

namespace rackscale::pdes {

// Each entry as its key, then what `save_value` writes of its value.
template <class Key, class Value, class SaveValue>
void save_sorted(boost::archive::binary_oarchive& out, const std::unordered_map<Key, Value>& map, SaveValue save_value) {
  std::vector<Key> keys;
  keys.reserve(map.size());
  for (const auto& entry : map) keys.push_back(entry.first);
  std::sort(keys.begin(), keys.end());
  std::uint64_t count = keys.size();
  out & count;
  for (const Key& key : keys) {
    out & key;
    save_value(map.at(key));
  }
}

template <class Key, class Value, class LoadValue>
void load_sorted(boost::archive::binary_iarchive& in, std::unordered_map<Key, Value>& map, LoadValue load_value) {
  std::uint64_t count = 0;
  in & count;
  map.clear();
  for (std::uint64_t i = 0; i < count; ++i) {
    Key key{};
    in & key;
    load_value(map[key]);
  }
}

// A map whose values the archive writes as they are.
template <class Key, class Value>
void save_sorted(boost::archive::binary_oarchive& out, const std::unordered_map<Key, Value>& map) {
  save_sorted(out, map, [&](const Value& value) { out & value; });
}
template <class Key, class Value>
void load_sorted(boost::archive::binary_iarchive& in, std::unordered_map<Key, Value>& map) {
  load_sorted(in, map, [&](Value& value) { in & value; });
}

template <class Key>
void save_sorted(boost::archive::binary_oarchive& out, const std::unordered_set<Key>& set) {
  std::vector<Key> keys(set.begin(), set.end());
  std::sort(keys.begin(), keys.end());
  std::uint64_t count = keys.size();
  out & count;
  for (const Key& key : keys) out & key;
}

template <class Key>
void load_sorted(boost::archive::binary_iarchive& in, std::unordered_set<Key>& set) {
  std::uint64_t count = 0;
  in & count;
  set.clear();
  for (std::uint64_t i = 0; i < count; ++i) {
    Key key{};
    in & key;
    set.insert(key);
  }
}

}  // namespace rackscale::pdes

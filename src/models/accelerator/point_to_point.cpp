#include "models/accelerator/point_to_point.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"

namespace rackscale::models::accelerator {

void PointToPoint::TagTable::insert(std::uint64_t tag, OpIndex op) {
  if (hashed_.empty()) {
    for (const auto& entry : scanned_)
      if (entry.first == tag) return;
    if (scanned_.size() < kScanned) {
      scanned_.emplace_back(tag, op);
      return;
    }
    hashed_.insert(scanned_.begin(), scanned_.end());
    scanned_.clear();
  }
  hashed_.emplace(tag, op);
}

std::optional<OpIndex> PointToPoint::TagTable::take(std::uint64_t tag) {
  if (!hashed_.empty()) {
    const auto it = hashed_.find(tag);
    if (it == hashed_.end()) return std::nullopt;
    const OpIndex op = it->second;
    hashed_.erase(it);
    return op;
  }
  for (auto& entry : scanned_) {
    if (entry.first != tag) continue;
    const OpIndex op = entry.second;
    entry = scanned_.back();
    scanned_.pop_back();
    return op;
  }
  return std::nullopt;
}

std::vector<std::pair<std::uint64_t, OpIndex>> PointToPoint::TagTable::sorted() const {
  std::vector<std::pair<std::uint64_t, OpIndex>> entries(scanned_.begin(), scanned_.end());
  entries.insert(entries.end(), hashed_.begin(), hashed_.end());
  std::sort(entries.begin(), entries.end());
  return entries;
}

void PointToPoint::TagTable::clear() noexcept {
  scanned_.clear();
  hashed_.clear();
}

void PointToPoint::send(network::DeviceLp& device, std::uint32_t peer, std::uint64_t bytes, std::uint32_t label,
                        std::uint64_t tag, OpIndex op) {
  waiting_ack_.insert(tag | kAckBit, op);
  device.send_own_message(peer, bytes, label, tag);
}

bool PointToPoint::receive(std::uint64_t tag, OpIndex op) {
  if (arrived_.take(tag)) return true;
  waiting_recv_.insert(tag, op);
  return false;
}

std::optional<OpIndex> PointToPoint::on_delivery(network::DeviceLp& device, const network::Delivery& delivery,
                                                 collectives::CollectiveEngine& collectives) {
  switch (tag_class(delivery.tag)) {
    case TagClass::collective:
      collectives.on_delivery(device, delivery);
      return std::nullopt;
    case TagClass::pipeline:
      break;
    case TagClass::other:
      throw std::logic_error(fmt::format("device {} got message {:#x} from device {} that no op expects",
                                         device.device(), delivery.tag, delivery.src_device));
  }
  if ((delivery.tag & kAckBit) != 0) {
    const std::optional<OpIndex> op = waiting_ack_.take(delivery.tag);
    if (!op)
      throw std::logic_error(fmt::format("device {} got an acknowledgement {:#x} it did not ask for", device.device(),
                                         delivery.tag));
    return op;
  }
  // A transfer's data: acknowledge it (the sender's send completes), then hand it to its receive.
  device.send_message(delivery.src_device, 0, delivery.tag, delivery.tag | kAckBit);
  if (std::optional<OpIndex> op = waiting_recv_.take(delivery.tag)) return op;
  arrived_.insert(delivery.tag, 0);
  return std::nullopt;
}

// The same bytes as the hash containers' key-ordered form (pdes/checkpoint_containers.hpp): a count,
// then each tag (the received-early set) or each tag and its op.
void PointToPoint::save(boost::archive::binary_oarchive& out) const {
  const auto save = [&out](const TagTable& table, bool with_ops) {
    const auto entries = table.sorted();
    std::uint64_t count = entries.size();
    out & count;
    for (const auto& [tag, op] : entries) {
      out & tag;
      if (with_ops) out & op;
    }
  };
  save(arrived_, false);
  save(waiting_recv_, true);
  save(waiting_ack_, true);
}

void PointToPoint::load(boost::archive::binary_iarchive& in) {
  const auto load = [&in](TagTable& table, bool with_ops) {
    table.clear();
    std::uint64_t count = 0;
    in & count;
    for (std::uint64_t i = 0; i < count; ++i) {
      std::uint64_t tag = 0;
      OpIndex op = 0;
      in & tag;
      if (with_ops) in & op;
      table.insert(tag, op);
    }
  };
  load(arrived_, false);
  load(waiting_recv_, true);
  load(waiting_ack_, true);
}

}  // namespace rackscale::models::accelerator

#include "models/collectives/collective_bench_device.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/vocabulary/message_tags.hpp"

namespace rackscale::models::collectives {

bool CollectiveBenchDevice::take_rank(std::uint32_t d) {
  // The benchmark's members are the first devices, so device d is usually member d.
  std::uint32_t rank = d;
  if (d >= call_.members.size() || call_.members[d] != d) {
    const auto it = std::find(call_.members.begin(), call_.members.end(), d);
    if (it == call_.members.end()) return false;
    rank = static_cast<std::uint32_t>(it - call_.members.begin());
  }
  call_.rank = rank;
  return true;
}

CollectiveEngine::Completion CollectiveBenchDevice::completion() {
  return [this](const CallRecord& record) {
    stats_.first_start = std::min(stats_.first_start, record.start);
    stats_.last_end = std::max(stats_.last_end, record.end);
    ++stats_.completed;
    stats_.algorithm = record.algorithm;
  };
}

void CollectiveBenchDevice::start(network::DeviceLp& device) {
  if (take_rank(device.device())) engine_->start(device, call_, completion());
}

void CollectiveBenchDevice::save(boost::archive::binary_oarchive& out) const { engine_->save(out); }

void CollectiveBenchDevice::load(network::DeviceLp& device, boost::archive::binary_iarchive& in) {
  engine_->load(device, in, [this, &device](std::uint32_t /*key*/) {
    if (!take_rank(device.device()))
      throw std::invalid_argument(fmt::format("device {} was saved in a call it is no member of", device.device()));
    return CollectiveEngine::Resumed{&call_, completion()};
  });
}

void CollectiveBenchDevice::on_event(network::DeviceLp& device, const pdes::Event& event) {
  if (event.kind != kCollectiveTimerKind)
    throw std::logic_error(fmt::format("collective bench: device {} got event kind {}", device.device(), event.kind));
  engine_->on_timer(device, event);
}

void CollectiveBenchDevice::on_delivery(network::DeviceLp& device, const network::Delivery& delivery) {
  if (accelerator::tag_class(delivery.tag) != accelerator::TagClass::collective)
    throw std::logic_error(fmt::format("collective bench: device {} got a message of tag {:#x}, not a collective's",
                                       device.device(), delivery.tag));
  engine_->on_delivery(device, delivery);
}

}  // namespace rackscale::models::collectives

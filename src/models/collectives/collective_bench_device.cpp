#include "models/collectives/collective_bench_device.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/accelerator/message_tags.hpp"

namespace rackscale::models::collectives {

void CollectiveBenchDevice::start(network::DeviceLp& device) {
  const std::uint32_t d = device.device();
  // The benchmark's members are the first devices, so device d is usually member d.
  std::uint32_t rank = d;
  if (d >= call_.members.size() || call_.members[d] != d) {
    const auto it = std::find(call_.members.begin(), call_.members.end(), d);
    if (it == call_.members.end()) return;
    rank = static_cast<std::uint32_t>(it - call_.members.begin());
  }
  call_.rank = rank;
  engine_->start(device, call_, [this](const CallRecord& record) {
    stats_.first_start = std::min(stats_.first_start, record.start);
    stats_.last_end = std::max(stats_.last_end, record.end);
    ++stats_.completed;
    stats_.algorithm = record.algorithm;
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

#include "models/collectives/send_pacer.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <fmt/format.h>

#include "models/collectives/collective_engine.hpp"
#include "models/network/output_port.hpp"
#include "models/network/path.hpp"

namespace rackscale::models::collectives {

const SendPacer::Route& SendPacer::route(network::DeviceLp& device, std::uint32_t dst_device) {
  if (recent_[0].dst == dst_device) return recent_[0];
  if (recent_[1].dst != dst_device) {
    Route& slot = routes_[(dst_device * 0x9E37'79B9u >> 16) % routes_.size()];
    if (slot.dst != dst_device) slot = walk(device, dst_device);
    recent_[1] = slot;
  }
  std::swap(recent_[0], recent_[1]);
  return recent_[0];
}

SendPacer::Route SendPacer::walk(network::DeviceLp& device, std::uint32_t dst_device) const {
  const network::NodeId src = device.node();
  const network::NodeId dst = topology_.devices[dst_device];
  Route route{dst_device, 0, std::numeric_limits<double>::infinity()};
  const std::uint32_t first_port = topology_.nodes[src].first_port;
  bool first = true;
  network::walk_route(topology_, src, dst, topology_.router->start(src, dst, 0, 0),
                      [&](std::uint32_t id, const network::Port& port) {
                        if (first) route.port = static_cast<network::PortIndex>(id - first_port);
                        first = false;
                        route.bandwidth = std::min(route.bandwidth, port.bandwidth);
                      });
  return route;
}

void SendPacer::send(network::DeviceLp& device, std::uint32_t dst_device, std::uint64_t bytes, std::uint64_t flow,
                     std::uint64_t tag) {
  if (dst_device == device.device() || bytes == 0) {  // a message to oneself, or of no bytes, uses no port time
    device.send_message(dst_device, bytes, flow, tag);
    return;
  }
  const Route& r = route(device, dst_device);
  if (ports_.empty()) ports_.resize(topology_.nodes[device.node()].port_count);
  Port& port = ports_[r.port];
  const pdes::SimTime now = device.time();
  const pdes::SimTime depart = std::max(now, port.free_at);
  port.free_at = depart + network::serialization_time(bytes, r.bandwidth);
  device.send_message(dst_device, bytes, flow, tag, depart - now);
}

void SendPacer::save(boost::archive::binary_oarchive& out) const {
  std::uint64_t count = ports_.size();
  out & count;
  for (const Port& port : ports_) out & port.free_at;
}

void SendPacer::load(boost::archive::binary_iarchive& in) {
  std::uint64_t count = 0;
  in & count;
  if (count > topology_.ports.size())
    throw std::invalid_argument(fmt::format("a send pacer was saved with {} ports", count));
  ports_.resize(count);
  for (Port& port : ports_) in & port.free_at;
}

}  // namespace rackscale::models::collectives

// Checkpoints of the network's LPs (pdes/checkpoint.hpp): what a node, a device and a switch hold
// that changes during a run.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <fmt/format.h>

#include "models/network/device_lp.hpp"
#include "models/network/network_node_lp.hpp"
#include "models/network/switch_lp.hpp"
#include "pdes/checkpoint_containers.hpp"

namespace rackscale::models::network {
using pdes::load_sorted;
using pdes::save_sorted;

void NetworkNodeLp::save_node(boost::archive::binary_oarchive& out) const {
  if (train_)
    throw std::logic_error(fmt::format("node {} holds train fidelity's state, which checkpoints do not cover", node()));
  std::uint64_t ports = ports_.size();
  out & ports;
  for (const OutputPort& port : ports_) out & port.free_at;
  save_sorted(out, last_hop_, [&](const LastHop& h) { out & h.chunks & h.bytes & h.last_tail; });
}

void NetworkNodeLp::load_node(boost::archive::binary_iarchive& in) {
  std::uint64_t ports = 0;
  in & ports;
  if (ports != ports_.size())
    throw std::invalid_argument(fmt::format("node {} was saved with {} ports and has {}", node(), ports, ports_.size()));
  for (OutputPort& port : ports_) in & port.free_at;
  load_sorted(in, last_hop_, [&](LastHop& h) { in & h.chunks & h.bytes & h.last_tail; });
}

void DeviceLp::save(boost::archive::binary_oarchive& out) const {
  save_node(out);
  save_sorted(out, reassembly_, [&](const Reassembly& r) { out & r.chunks & r.bytes & r.last_tail; });
  behaviour_->save(out);
}

void DeviceLp::load(boost::archive::binary_iarchive& in) {
  load_node(in);
  load_sorted(in, reassembly_, [&](Reassembly& r) { in & r.chunks & r.bytes & r.last_tail; });
  behaviour_->load(*this, in);
}

void SwitchLp::save(boost::archive::binary_oarchive& out) const {
  // NVLink SHARP reductions in progress are not covered; no workload that checkpoints uses them (only
  // training's collectives do), so this is a guard rather than a limit users meet.
  if (multimem_ != nullptr)
    throw std::logic_error(fmt::format("switch {} holds NVLink SHARP state, which checkpoints do not cover", node()));
  save_node(out);
}

void SwitchLp::load(boost::archive::binary_iarchive& in) { load_node(in); }

}  // namespace rackscale::models::network

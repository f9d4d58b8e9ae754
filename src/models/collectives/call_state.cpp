#include "models/collectives/call_state.hpp"

namespace rackscale::models::collectives {

void append_parts(std::vector<SentMessages>& out, std::uint32_t dst_device, std::uint32_t channel, std::uint64_t total,
                  std::uint64_t parts, Leg leg) {
  // split(): the first total % parts parts are one byte larger. Empty parts load no port.
  const std::uint64_t small = total / parts;
  const std::uint64_t large = total % parts;
  if (large > 0) out.push_back({dst_device, channel, small + 1, large, leg});
  if (small > 0) out.push_back({dst_device, channel, small, parts - large, leg});
}

}  // namespace rackscale::models::collectives

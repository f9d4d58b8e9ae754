#include "partition/partitioner.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "partition/block_partitioner.hpp"
#include "partition/metis_partitioner.hpp"
#include "partition/round_robin_partitioner.hpp"

namespace rackscale::partition {

const std::vector<std::string>& partitioner_names() {
  static const std::vector<std::string> names{"block", "round_robin", "metis"};
  return names;
}

std::unique_ptr<Partitioner> make_partitioner(std::string_view name) {
  if (name == "block") return std::make_unique<BlockPartitioner>();
  if (name == "round_robin") return std::make_unique<RoundRobinPartitioner>();
  if (name == "metis") return std::make_unique<MetisPartitioner>();
  throw std::invalid_argument(
      fmt::format("unknown partition method '{}': expected one of {}", name, fmt::join(partitioner_names(), ", ")));
}

}  // namespace rackscale::partition

#include "models/workload/trace_spec.hpp"

namespace rackscale::models::workload {

std::string TraceWorkloadSpec::numbered(std::uint32_t rank) const {
  std::string file = files;
  if (const auto marker = file.find("%d"); marker != std::string::npos) file.replace(marker, 2, std::to_string(rank));
  return file;
}

}  // namespace rackscale::models::workload

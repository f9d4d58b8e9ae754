#include "models/vocabulary/program.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::accelerator {

OpIndex Program::add(Op op, const std::vector<OpIndex>& deps) {
  const auto index = static_cast<OpIndex>(ops.size());
  for (const OpIndex d : deps)
    if (d >= index)
      throw std::logic_error(fmt::format("{}: op {} depends on op {}, which does not come before it", role, index, d));
  op.first_dependency = static_cast<std::uint32_t>(dependencies.size());
  op.dependency_count = static_cast<std::uint32_t>(deps.size());
  dependencies.insert(dependencies.end(), deps.begin(), deps.end());
  ops.push_back(op);
  return index;
}

OpIndex Program::add(Op op, std::initializer_list<OpIndex> deps) { return add(op, std::vector<OpIndex>(deps)); }

}  // namespace rackscale::models::accelerator

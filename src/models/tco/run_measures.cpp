#include "models/tco/run_measures.hpp"

#include <stdexcept>

namespace rackscale::models::tco {

std::uint64_t iterations_for_tokens(std::uint64_t token_budget, std::uint64_t tokens_per_iteration) {
  if (tokens_per_iteration == 0) throw std::invalid_argument("tokens per iteration must be positive");
  // The last iteration runs in full even when the budget ends inside it.
  return token_budget / tokens_per_iteration + (token_budget % tokens_per_iteration != 0 ? 1 : 0);
}

}  // namespace rackscale::models::tco

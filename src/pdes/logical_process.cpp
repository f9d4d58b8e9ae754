#include "pdes/logical_process.hpp"

#include "pdes/engine.hpp"

namespace rackscale::pdes {

SimTime LogicalProcess::now() const noexcept { return engine_->now(); }

void LogicalProcess::send(LpId dst, SimTime delay, EventKind kind, const Payload& payload, std::uint32_t aux) {
  engine_->schedule(*this, dst, delay, kind, payload, aux);
}

}  // namespace rackscale::pdes

#include "models/network/fidelity.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "models/network/analytical_fabric.hpp"
#include "models/network/chunk_fabric.hpp"
#include "models/network/train_fabric.hpp"

namespace rackscale::models::network {
namespace {
template <class F>
std::unique_ptr<Fabric> make(NetworkContext& context) {
  return std::make_unique<F>(context);
}

constexpr FidelityInfo kFidelities[] = {
    {Fidelity::analytical, "analytical", false, &make<AnalyticalFabric>},
    {Fidelity::chunk, "chunk", true, &make<ChunkFabric>},
    {Fidelity::train, "train", true, &make<TrainFabric>},
};
}  // namespace

std::span<const FidelityInfo> fidelities() noexcept { return kFidelities; }

const FidelityInfo& fidelity_info(Fidelity fidelity) {
  for (const FidelityInfo& info : kFidelities)
    if (info.fidelity == fidelity) return info;
  throw std::logic_error(fmt::format("network fidelity {} has no entry in the table", static_cast<int>(fidelity)));
}

}  // namespace rackscale::models::network

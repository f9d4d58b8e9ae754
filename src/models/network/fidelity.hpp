#pragma once
// The network fidelities, one table: the name a config spells, whether ports queue (contention), and
// the fabric that carries messages. Everything that depends on the fidelity asks this table instead of
// comparing with one enumerator, so a new fidelity is one row here (and its fabric).
#include <memory>
#include <span>
#include <string_view>

#include "models/network/cluster_spec.hpp"

namespace rackscale::models::network {

class Fabric;
struct NetworkContext;

struct FidelityInfo {
  Fidelity fidelity;
  std::string_view name;  // network.fidelity's spelling
  // Ports queue: messages share links in time (chunk, train). Without it (analytical) a collective's
  // closed form loses nothing, and NVLS units may be whole messages.
  bool contention;
  std::unique_ptr<Fabric> (*make)(NetworkContext&);
};

[[nodiscard]] std::span<const FidelityInfo> fidelities() noexcept;
[[nodiscard]] const FidelityInfo& fidelity_info(Fidelity fidelity);
[[nodiscard]] inline std::string_view fidelity_name(Fidelity fidelity) { return fidelity_info(fidelity).name; }
[[nodiscard]] inline bool models_contention(Fidelity fidelity) { return fidelity_info(fidelity).contention; }

}  // namespace rackscale::models::network

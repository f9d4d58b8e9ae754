#pragma once
// Synchronization for one rank: there is nobody to wait for, so the first window runs to the end.
#include "pdes/sync.hpp"

namespace rackscale::pdes {

class SequentialSync final : public Synchronizer {
 public:
  WindowEnd end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                       SimTime prepare_until, bool progress_wanted, const std::string& failure,
                       EventQueue& queue, EngineStats& stats) override;
  [[nodiscard]] std::string_view name() const override { return "sequential"; }
};

}  // namespace rackscale::pdes

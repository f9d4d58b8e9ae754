#pragma once
// A logical process (LP): the unit of simulated state. An LP changes only in handle(), only from its
// own events, and talks to other LPs only by sending events. That is what lets the engine place LPs
// on any rank without changing the results.
#include <cstdint>
#include <string>

#include "pdes/event.hpp"
#include "pdes/rng.hpp"
#include "pdes/time.hpp"

namespace boost::archive {
class binary_oarchive;
class binary_iarchive;
}  // namespace boost::archive

namespace rackscale::pdes {

class Engine;

class LogicalProcess {
 public:
  explicit LogicalProcess(LpId id) noexcept : id_(id) {}
  virtual ~LogicalProcess() = default;
  LogicalProcess(const LogicalProcess&) = delete;
  LogicalProcess& operator=(const LogicalProcess&) = delete;

  [[nodiscard]] LpId id() const noexcept { return id_; }

  // At time 0, before the first window: schedule the LP's first events.
  virtual void init() {}
  // One event, in (time, source LP, sequence) order among this LP's pending events.
  virtual void handle(const Event& event) = 0;
  // After the last window; now() is the run's end time (or, for a run to exhaustion, the time of the
  // last event handled anywhere).
  virtual void finish() {}

  // Checkpoints (pdes/checkpoint.hpp). An LP type that can be checkpointed says so and saves, and loads
  // in the same order, every member that can change after its constructor; the engine saves the LP's
  // sequence number and random stream itself. A run whose LPs are not all checkpointable refuses
  // --checkpoint and --restart before it starts, so a restart is never silently wrong.
  [[nodiscard]] virtual bool checkpointable() const { return false; }
  virtual void save(boost::archive::binary_oarchive& /*out*/) const {}
  virtual void load(boost::archive::binary_iarchive& /*in*/) {}

 protected:
  [[nodiscard]] SimTime now() const noexcept;

  // Sends an event that `dst` handles at now() + delay. A delay of 0 is allowed only to oneself (it is
  // handled at the same time, after the current event); events at or after the run's end are dropped.
  // Across ranks the delay must be at least the engine's lookahead, or the run stops with an error.
  void send(LpId dst, SimTime delay, EventKind kind, const Payload& payload = {}, std::uint32_t aux = 0);

  // This LP's own random stream, a function of (run seed, LP id) only.
  [[nodiscard]] CounterRng& rng() noexcept { return rng_; }

 private:
  friend class Engine;
  Engine* engine_ = nullptr;
  LpId id_;
  std::uint64_t next_seq_ = 0;
  CounterRng rng_;
};

}  // namespace rackscale::pdes

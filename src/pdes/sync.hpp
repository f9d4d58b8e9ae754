#pragma once
// Window synchronization: the policy that ends one conservative window and decides where the next
// one starts. The engine handles every event earlier than (global next event time + lookahead), then
// calls end_window(); implementations differ only in how the ranks exchange their cross-rank events
// and agree on the global next event time.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/event.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/statistics.hpp"
#include "pdes/window_watchdog.hpp"

namespace rackscale::pdes {

// What the ranks agreed at a window's end.
struct WindowEnd {
  SimTime global_next = kNever;  // the earliest pending event time on any rank (kNever: none)
  bool report_progress = false;  // rank 0 asked for a progress report after this window
};

class Synchronizer {
 public:
  virtual ~Synchronizer() = default;
  Synchronizer() = default;
  Synchronizer(const Synchronizer&) = delete;
  Synchronizer& operator=(const Synchronizer&) = delete;

  // Collective over the engine's communicator. Sends outboxes[r] to rank r and empties it, pushes the
  // events sent to this rank into `queue`, and returns the earliest event time on any rank (kNever if
  // none). `local_next` is the earliest of this rank's pending events and of the events it sent in
  // this window. While it waits for other ranks, a synchronizer may call queue.prepare(prepare_until)
  // so the queue sorts ahead what is certain to be handled in the next window (the engine passes the
  // earliest end that window can have, less 1 ps). Rank 0's `progress_wanted` rides along with the
  // exchange (other ranks' is ignored), so every rank returns the same report_progress. If `failure`
  // is non-empty this rank failed; when any rank failed, every rank throws SimulationError carrying
  // the message of the lowest failing rank.
  virtual WindowEnd end_window(std::vector<std::vector<Event>>& outboxes, SimTime local_next,
                               SimTime prepare_until, bool progress_wanted, const std::string& failure,
                               EventQueue& queue, EngineStats& stats) = 0;

  [[nodiscard]] virtual std::string_view name() const = 0;

  // How long end_window may wait for the other ranks before aborting the job (the default: forever).
  void set_watchdog(const WindowWatchdog& watchdog) { watchdog_ = watchdog; }

 protected:
  WindowWatchdog watchdog_;  // consulted wherever end_window waits for another rank
};

// Names accepted by make_synchronizer(); "auto" picks by rank count.
[[nodiscard]] const std::vector<std::string>& synchronizer_names();

// Throws std::invalid_argument for an unknown name or one that cannot run on comm's size.
[[nodiscard]] std::unique_ptr<Synchronizer> make_synchronizer(std::string_view name,
                                                              const boost::mpi::communicator& comm);

}  // namespace rackscale::pdes

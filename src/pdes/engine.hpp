#pragma once
// The engine: owns this rank's LPs and pending events and runs conservative windows until the end
// time. With one rank (SequentialSync) the single window is the whole run, which makes it the
// sequential engine; with several ranks the windows are those of YAWNS / SST: a rank handles every
// event earlier than (global next event time + lookahead), then the ranks exchange cross-rank events.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/checkpoint.hpp"
#include "pdes/event.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/link.hpp"
#include "pdes/logical_process.hpp"
#include "pdes/progress.hpp"
#include "pdes/rank_map.hpp"
#include "pdes/statistics.hpp"
#include "pdes/sync.hpp"

namespace rackscale::pdes {

struct EngineOptions {
  std::string queue{default_event_queue()};  // see event_queue_names()
  std::string sync = "auto";                 // see synchronizer_names()
  std::uint64_t seed = 1;                    // run seed for every LP's random stream
  // Shown progress (rank 0's matters; see pdes/progress.hpp). Null: none.
  std::shared_ptr<ProgressMonitor> progress = nullptr;
  // How long a rank may wait for the others at a window's exchange before it aborts the job, naming
  // the rank it waits for (pdes/window_watchdog.hpp); 0 or infinity: forever.
  double window_timeout_seconds = kDefaultWindowTimeoutSeconds;
};

class Engine {
 public:
  // `map` must have comm.size() ranks. Throws std::invalid_argument for bad options.
  Engine(boost::mpi::communicator comm, RankMap map, const EngineOptions& options);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] const RankMap& rank_map() const noexcept { return map_; }
  [[nodiscard]] bool is_local(LpId lp) const noexcept { return map_.owner(lp) == rank_; }

  // Takes an LP owned by this rank (throws std::invalid_argument otherwise, or if added twice).
  void add_lp(std::unique_ptr<LogicalProcess> lp);

  // Declares a link with at least one end on this rank; its latency bounds the lookahead when its
  // ends are on different ranks.
  void add_link(const Link& link);
  // Declares that any LP may send to any other with at least `latency` (models without a fixed link
  // graph, such as PHOLD): the lookahead is at most this whenever there is more than one rank.
  void declare_any_to_any_latency(SimTime latency);

  // The model's measure of how far the run is, for progress reports (pdes/progress.hpp); without one
  // the fraction done comes from simulated time against a finite end.
  void set_work_gauge(WorkGauge gauge);

  // Optional names for LPs in error messages ("device 12 (rack 3)"); default "LP <id>".
  void set_lp_names(std::function<std::string(LpId)> name_of);
  [[nodiscard]] std::string lp_name(LpId lp) const;

  // Checkpoints and early stops (pdes/checkpoint.hpp). Before run().
  void set_checkpoint_hooks(CheckpointHooks hooks);
  // Collective, before run(), with every LP added as in the run that saved `rank_state`: restores this
  // rank's saved state (run() then continues from it instead of calling the LPs' init()). Throws
  // std::invalid_argument on every rank if any rank's state does not fit its LPs.
  void restore_from(const std::string& rank_state);
  // Collective: whether every LP on every rank can be checkpointed.
  [[nodiscard]] bool all_lps_checkpointable() const;

  // Collective: runs every rank's LPs until no event earlier than `end` remains. Throws
  // SimulationError on every rank if any rank's model fails (including a causality violation).
  EngineStats run(SimTime end);

  [[nodiscard]] SimTime now() const noexcept { return now_; }
  // Valid once run() has started: the window length bound agreed by all ranks (kNever: none needed).
  [[nodiscard]] SimTime lookahead() const noexcept { return lookahead_; }
  [[nodiscard]] std::string_view queue_name() const { return queue_->name(); }
  [[nodiscard]] std::string_view sync_name() const { return sync_->name(); }

  // This rank's LPs in increasing id order.
  [[nodiscard]] const std::vector<std::unique_ptr<LogicalProcess>>& local_lps() const noexcept { return owned_; }

 private:
  friend class LogicalProcess;
  void schedule(LogicalProcess& src, LpId dst, SimTime delay, EventKind kind, const Payload& payload,
                std::uint32_t aux);
  [[noreturn]] void causality_error(const LogicalProcess& src, LpId dst, SimTime delay) const;
  void handle_until(SimTime limit);
  SimTime end_window(const std::string& failure, std::chrono::steady_clock::time_point now, SimTime prepare_until);
  void poll_progress();
  void report_progress(SimTime simulated);
  // Checkpoints and stops (engine_checkpoint.cpp).
  [[nodiscard]] bool solo_cut_wanted() const;
  [[nodiscard]] bool stop_at_boundary(SimTime next);
  void write_checkpoint(SimTime resume_at);
  [[nodiscard]] std::string save_state();
  void load_state(const std::string& rank_state);

  boost::mpi::communicator comm_;
  RankMap map_;
  int rank_;
  std::uint64_t seed_;
  std::unique_ptr<EventQueue> queue_;
  std::unique_ptr<Synchronizer> sync_;
  std::vector<std::unique_ptr<LogicalProcess>> owned_;  // sorted by id before the run
  std::vector<LogicalProcess*> local_by_id_;             // global id -> local LP or nullptr
  std::vector<std::vector<Event>> outboxes_;             // per destination rank, this window
  std::vector<Link> links_;
  SimTime any_to_any_latency_ = kNever;
  std::function<std::string(LpId)> name_of_;
  std::shared_ptr<ProgressMonitor> progress_;
  WorkGauge work_gauge_;

  SimTime now_ = 0;
  SimTime end_ = kNever;
  SimTime lookahead_ = kNever;
  SimTime earliest_sent_ = kNever;  // earliest cross-rank event sent in this window
  bool ran_ = false;
  std::chrono::steady_clock::time_point run_start_;
  // With one rank the only window is the whole run, so progress is polled inside it, whenever this
  // many events have been handled (kNever with several ranks: their windows' ends serve).
  std::uint64_t next_progress_poll_ = kNever;
  EngineStats stats_;
  CheckpointHooks hooks_;
  bool restored_ = false;
  double wall_before_ = 0;  // wall time of the runs before a restart
  std::chrono::steady_clock::time_point last_checkpoint_;
};

}  // namespace rackscale::pdes

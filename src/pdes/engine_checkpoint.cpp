// The engine's checkpoints and early stops: where a run may stop, how every rank agrees to, and what
// of the engine a checkpoint holds. Kept apart from engine.cpp's window loop, which only asks
// stop_at_boundary() after each window.
#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <sstream>
#include <stdexcept>

#include <boost/archive/archive_exception.hpp>
#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/operations.hpp>
#include <fmt/format.h>

#include "pdes/engine.hpp"
#include "pdes/window_exchange.hpp"
#include "pdes/stop_signals.hpp"

namespace rackscale::pdes {
namespace {
using Clock = std::chrono::steady_clock;
// With several ranks, the ranks agree on whether to stop once every this many windows: an allreduce of
// a few microseconds against windows of tens of microseconds or more. A signal waits at most this
// many windows.
constexpr std::uint64_t kWindowsBetweenStopPolls = 64;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }
// The format of the engine's part of a rank's state; a restart refuses any other.
constexpr std::uint32_t kEngineStateVersion = 1;
}  // namespace

void Engine::set_checkpoint_hooks(CheckpointHooks hooks) { hooks_ = std::move(hooks); }

bool Engine::all_lps_checkpointable() const {
  const bool mine = std::all_of(owned_.begin(), owned_.end(), [](const auto& lp) { return lp->checkpointable(); });
  return boost::mpi::all_reduce(comm_, mine ? 1 : 0, boost::mpi::minimum<int>()) == 1;
}

bool Engine::solo_cut_wanted() const {
  return stop_signal_received() != 0 || hooks_.stop_after_windows != 0 ||
         (hooks_.write && hooks_.every_seconds > 0 && seconds_since(last_checkpoint_) >= hooks_.every_seconds);
}

bool Engine::stop_at_boundary(SimTime next) {
  if (next >= end_) return false;  // the run ends here anyway (`next` is the same on every rank)
  // Every rank counts the same windows, so they all reach a counted stop or a poll together.
  const bool counted_stop = hooks_.stop_after_windows != 0 && stats_.windows >= hooks_.stop_after_windows;
  if (!counted_stop && stats_.windows % kWindowsBetweenStopPolls != 0 && comm_.size() > 1) return false;
  const bool checkpoint_due =
      rank_ == 0 && hooks_.write && hooks_.every_seconds > 0 && seconds_since(last_checkpoint_) >= hooks_.every_seconds;
  // A signal on any rank stops all (under mpirun or srun each rank usually gets its own copy); the
  // largest signal number is reported, the same on every rank.
  const std::array<int, 2> mine{stop_signal_received(), checkpoint_due ? 1 : 0};
  std::array<int, 2> agreed{};
  boost::mpi::all_reduce(comm_, mine.data(), 2, agreed.data(), boost::mpi::maximum<int>());
  const bool stop = counted_stop || agreed[0] != 0;
  if (hooks_.write && (stop || agreed[1] != 0)) write_checkpoint(next);
  if (stop) {
    stats_.stopped = true;
    stats_.stop_signal = agreed[0];
  }
  return stop;
}

void Engine::write_checkpoint(SimTime resume_at) {
  const auto start = Clock::now();
  // A model that cannot save its state fails on every rank together, like a failing window.
  std::string state, failure;
  try {
    state = save_state();
  } catch (const std::exception& e) {
    failure = fmt::format("rank {}: cannot checkpoint at {}: {}", rank_, format_time(now_), e.what());
  }
  const int failing = boost::mpi::all_reduce(comm_, failure.empty() ? comm_.size() : rank_, boost::mpi::minimum<int>());
  if (failing < comm_.size()) raise_window_failure(comm_, failing, failure);
  hooks_.write(state, resume_at, stats_.windows);
  ++stats_.checkpoints;
  stats_.checkpoint_seconds += seconds_since(start);
  last_checkpoint_ = Clock::now();
}

std::string Engine::save_state() {
  std::ostringstream bytes(std::ios::binary);
  {
    CheckpointWriter out(bytes);
    std::uint32_t version = kEngineStateVersion;
    double wall = wall_before_ + seconds_since(run_start_);
    out & version & now_ & stats_.events_processed & stats_.remote_sent & stats_.remote_received & stats_.windows &
        stats_.process_seconds & stats_.sync_seconds & wall;
    // The pending events, taken out in order and put back: the queues have no other way to list them,
    // and the order they come back in does not matter (pop order is a total order).
    std::vector<Event> pending;
    pending.reserve(queue_->size());
    Event event;
    while (queue_->pop_before(kNever, event)) pending.push_back(event);
    for (const Event& e : pending) queue_->push(e);
    std::uint64_t count = pending.size();
    out & count;
    out.save_binary(pending.data(), pending.size() * sizeof(Event));
    std::uint64_t lps = owned_.size();
    out & lps;
    for (const auto& lp : owned_) {
      LpId id = lp->id();
      out & id & lp->next_seq_ & lp->rng_;
      lp->save(out);
    }
    if (hooks_.save_model) hooks_.save_model(out);
  }
  return std::move(bytes).str();
}

void Engine::restore_from(const std::string& rank_state) {
  std::sort(owned_.begin(), owned_.end(), [](const auto& a, const auto& b) { return a->id() < b->id(); });
  std::string problem;
  try {
    load_state(rank_state);
  } catch (const boost::archive::archive_exception& e) {
    problem = fmt::format("rank {}'s state is unreadable ({})", rank_, e.what());
  } catch (const std::exception& e) {
    problem = fmt::format("rank {}'s state does not fit this run: {}", rank_, e.what());
  }
  // Every rank learns the lowest failing rank's problem, so all refuse together.
  const int failing = boost::mpi::all_reduce(comm_, problem.empty() ? comm_.size() : rank_, boost::mpi::minimum<int>());
  if (failing == comm_.size()) {
    restored_ = true;
    return;
  }
  boost::mpi::broadcast(comm_, problem, failing);
  throw std::invalid_argument(problem);
}

void Engine::load_state(const std::string& rank_state) {
  std::istringstream bytes(rank_state, std::ios::binary);
  CheckpointReader in(bytes);
  std::uint32_t version = 0;
  in & version;
  if (version != kEngineStateVersion)
    throw std::invalid_argument(fmt::format("engine state format {}, this build reads {}", version, kEngineStateVersion));
  in & now_ & stats_.events_processed & stats_.remote_sent & stats_.remote_received & stats_.windows &
      stats_.process_seconds & stats_.sync_seconds & wall_before_;
  std::uint64_t count = 0;
  in & count;
  if (count > rank_state.size() / sizeof(Event))
    throw std::invalid_argument(fmt::format("{} pending events cannot fit in {} bytes", count, rank_state.size()));
  std::vector<Event> pending(count);
  in.load_binary(pending.data(), pending.size() * sizeof(Event));
  for (const Event& e : pending) {
    if (e.dst >= map_.lp_count() || local_by_id_[e.dst] == nullptr)
      throw std::invalid_argument(fmt::format("a pending event is for {}, which is not on rank {}",
                                              e.dst < map_.lp_count() ? lp_name(e.dst) : fmt::format("LP {}", e.dst), rank_));
    queue_->push(e);
  }
  std::uint64_t lps = 0;
  in & lps;
  if (lps != owned_.size()) throw std::invalid_argument(fmt::format("{} LPs saved, {} on this rank", lps, owned_.size()));
  for (const auto& lp : owned_) {
    LpId id = kNoLp;
    in & id;
    if (id != lp->id()) throw std::invalid_argument(fmt::format("LP {} saved where {} is", id, lp_name(lp->id())));
    in & lp->next_seq_ & lp->rng_;
    lp->load(in);
  }
  if (hooks_.load_model) hooks_.load_model(in);
}

}  // namespace rackscale::pdes

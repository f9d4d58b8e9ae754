#include "sim/run_checkpoints.hpp"

#include <cmath>
#include <csignal>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/operations.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace rackscale::sim {

std::uint64_t scenario_hash(const std::string& resolved_yaml) { return pdes::fnv1a64(resolved_yaml); }

double parse_wall_duration(const std::string& text) {
  const auto refuse = [&] {
    return pdes::CheckpointRefused(fmt::format(
        "--checkpoint-every: expected a positive number with a unit of s, min or h (such as 30min); got '{}'", text));
  };
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw refuse();
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit == "s") scale = 1;
  else if (unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  if (scale == 0 || !std::isfinite(value) || value <= 0) throw refuse();
  return value * scale;
}

namespace {
// A rank's state for a run of several engines: the position's size (8 bytes, native order), the
// position, the engine's state.
std::string with_position(const std::function<void(pdes::CheckpointWriter&)>& save_position, const std::string& engine) {
  std::ostringstream bytes(std::ios::binary);
  {
    pdes::CheckpointWriter out(bytes);
    save_position(out);
  }
  const std::string position = std::move(bytes).str();
  const std::uint64_t size = position.size();
  std::string state(sizeof size, '\0');
  std::memcpy(state.data(), &size, sizeof size);
  return state + position + engine;
}
}  // namespace

RestartState read_restart(const boost::mpi::communicator& comm, const CheckpointOptions& options,
                          const pdes::CheckpointIdentity& identity) {
  const std::string state = pdes::read_checkpoint_file(comm, options.restart, identity);
  std::uint64_t size = 0;
  const bool whole = state.size() >= sizeof size &&
                     (std::memcpy(&size, state.data(), sizeof size), size <= state.size() - sizeof size);
  // The file's checksums passed, so a state that does not split is one written by another kind of run.
  const int broken = boost::mpi::all_reduce(comm, whole ? 0 : 1, boost::mpi::maximum<int>());
  if (broken != 0)
    throw pdes::CheckpointRefused(
        fmt::format("checkpoint {}: a rank's state does not start with its place in the {} run's sequence",
                    options.restart, identity.workload));
  return {state.substr(sizeof size, size), state.substr(sizeof size + size)};
}

void prepare_checkpoints(const boost::mpi::communicator& comm, pdes::Engine& engine, const CheckpointOptions& options,
                         const pdes::CheckpointIdentity& identity, ModelState model, const RestartState* restart) {
  pdes::CheckpointHooks hooks;
  hooks.stop_after_windows = options.stop_after_windows;
  if (!options.every.empty()) {
    if (options.checkpoint.empty())
      throw pdes::CheckpointRefused("--checkpoint-every needs --checkpoint FILE to say where to write");
    hooks.every_seconds = parse_wall_duration(options.every);
  }
  if ((!options.checkpoint.empty() || !options.restart.empty()) && !engine.all_lps_checkpointable())
    throw pdes::CheckpointRefused(fmt::format(
        "--checkpoint and --restart: a {} run cannot be checkpointed: one of its models cannot save its state "
        "(docs/reliability.md lists what is covered)",
        identity.workload));
  if (!options.checkpoint.empty()) {
    hooks.write = [&comm, path = options.checkpoint, identity, save_position = model.save_position](
                      const std::string& state, pdes::SimTime resume_at, std::uint64_t windows) {
      const auto start = std::chrono::steady_clock::now();
      pdes::write_checkpoint_file(comm, path, identity, resume_at, windows,
                                  save_position ? with_position(save_position, state) : state);
      std::error_code ec;
      spdlog::info("checkpoint {} written after {} windows: {} bytes in {:.3f} s (this rank's state {} bytes)", path,
                   windows, std::filesystem::file_size(path, ec),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), state.size());
    };
  }
  hooks.save_model = std::move(model.save);
  hooks.load_model = std::move(model.load);
  engine.set_checkpoint_hooks(std::move(hooks));
  if (options.restart.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  const std::string state =
      restart != nullptr ? restart->engine : pdes::read_checkpoint_file(comm, options.restart, identity);
  try {
    engine.restore_from(state);
  } catch (const std::invalid_argument& e) {
    throw pdes::CheckpointRefused(fmt::format("checkpoint {}: {}", options.restart, e.what()));
  }
  spdlog::info("checkpoint {} restored in {:.3f} s", options.restart,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

void throw_if_stopped(const pdes::EngineStats& stats, const CheckpointOptions& options) {
  if (!stats.stopped) return;
  const char* name = stats.stop_signal != 0 ? sigabbrev_np(stats.stop_signal) : nullptr;
  const std::string why =
      stats.stop_signal != 0
          ? fmt::format("stopped by SIG{} (signal {})", name != nullptr ? name : "?", stats.stop_signal)
          : fmt::format("stopped by --stop-after-windows {}", options.stop_after_windows);
  const std::string saved =
      options.checkpoint.empty()
          ? std::string("no checkpoint was written (no --checkpoint FILE was given)")
          : fmt::format("checkpoint written to {}; continue with --restart {}", options.checkpoint, options.checkpoint);
  throw RunStopped(fmt::format("{} after {} window{}, at simulated time {}; {}", why, stats.windows, stats.windows == 1 ? "" : "s",
                               pdes::format_time(stats.final_time), saved));
}

}  // namespace rackscale::sim

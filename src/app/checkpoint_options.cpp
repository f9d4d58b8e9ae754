#include "app/checkpoint_options.hpp"

#include <cmath>
#include <csignal>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace rackscale::app {

void add_checkpoint_options(CLI::App& command, CheckpointOptions& options) {
  command.add_option("--checkpoint", options.checkpoint,
                     "Write a checkpoint to this file when the run is stopped (and every --checkpoint-every)");
  command.add_option("--checkpoint-every", options.every,
                     "Wall time between checkpoints: a number with s, min or h (e.g. 30min)");
  command.add_option("--stop-after-windows", options.stop_after_windows,
                     "Stop (and checkpoint) once this many windows have run in total (a test hook; docs/cli.md)");
  command.add_option("--restart", options.restart, "Continue the run saved in this checkpoint file");
}

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

void prepare_checkpoints(const boost::mpi::communicator& comm, pdes::Engine& engine, const CheckpointOptions& options,
                         const pdes::CheckpointIdentity& identity, ModelState model) {
  pdes::CheckpointHooks hooks;
  hooks.stop_after_windows = options.stop_after_windows;
  if (!options.every.empty()) {
    if (options.checkpoint.empty())
      throw pdes::CheckpointRefused("--checkpoint-every needs --checkpoint FILE to say where to write");
    hooks.every_seconds = parse_wall_duration(options.every);
  }
  if ((!options.checkpoint.empty() || !options.restart.empty()) && !engine.all_lps_checkpointable())
    throw pdes::CheckpointRefused(fmt::format(
        "--checkpoint and --restart: a {} run cannot be checkpointed yet (covered: PHOLD and traffic workloads; "
        "docs/cli.md)",
        identity.workload));
  if (!options.checkpoint.empty()) {
    hooks.write = [&comm, path = options.checkpoint, identity](const std::string& state, pdes::SimTime resume_at,
                                                               std::uint64_t windows) {
      const auto start = std::chrono::steady_clock::now();
      pdes::write_checkpoint_file(comm, path, identity, resume_at, windows, state);
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
  const std::string state = pdes::read_checkpoint_file(comm, options.restart, identity);
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

}  // namespace rackscale::app

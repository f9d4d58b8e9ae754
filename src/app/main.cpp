// The rackscale command: parses the command line on every rank and runs the chosen subcommand.
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <mimalloc.h>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

#include "app/command.hpp"
#include "app/console_options.hpp"
#include "app/exit_codes.hpp"
#include "app/goodput_command.hpp"
#include "app/memory_phase.hpp"
#include "app/phold_command.hpp"
#include "app/validate_command.hpp"
#include "app/partition_command.hpp"
#include "app/presets_command.hpp"
#include "app/search_command.hpp"
#include "app/tco_command.hpp"
#include "app/export_trace_command.hpp"
#include "app/run_command.hpp"
#include "app/version.hpp"
#include "pdes/stop_signals.hpp"

namespace {
// The allocator that serves this process's malloc: mimalloc when the link order made its malloc the one
// every library binds to (src/app/CMakeLists.txt), which is checked rather than assumed.
std::string allocator_in_use() {
  // calloc, not malloc: nothing reads the bytes, but GCC 12 (Debug, the asan preset) warns that passing
  // uninitialized memory as a const void* might.
  void* probe = std::calloc(1, 64);
  const bool ours = mi_is_in_heap_region(probe);
  std::free(probe);
  if (!ours) return "system malloc";
  const int v = mi_version();  // 209 for 2.0.9
  return "mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." + std::to_string(v % 10);
}


int world_rank = 0;  // for the out-of-memory message, which may not allocate

// mimalloc's report of an error. Out of memory, Debian's mimalloc (built as C, so its operator new
// cannot throw std::bad_alloc and does not see a std::new_handler) would abort() with a raw stack dump:
// say what was being built and how to fit instead, and exit 3 (docs/reliability.md, "Memory").
void on_allocator_error(int error, void* /*arg*/) {
  if (error == ENOMEM) rackscale::app::exit_out_of_memory(world_rank, rackscale::app::kExitInfeasible);
}
}  // namespace

int main(int argc, char** argv) {
  using namespace rackscale::app;
  boost::mpi::environment env(argc, argv);
  const boost::mpi::communicator world;
  world_rank = world.rank();
  mi_register_error(on_allocator_error, nullptr);
  // SIGTERM, SIGINT and SIGUSR1 stop a run at its next window boundary, with a checkpoint if asked.
  rackscale::pdes::install_stop_signal_handlers();

  CLI::App cli{"rackscale: a parallel discrete-event simulator of distributed DNN training on large clusters"};
  cli.set_version_flag("--version",
                      std::string(kVersion) + " (" + kGitRevision + "), allocator " + allocator_in_use());
  cli.require_subcommand(1);
  cli.fallthrough();  // the console options may follow the subcommand's name too
  const ConsoleOptions console(cli);
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<RunCommand>(cli, console));
  commands.push_back(std::make_unique<PholdCommand>(cli, console));
  commands.push_back(std::make_unique<ValidateCommand>(cli));
  commands.push_back(std::make_unique<PartitionCommand>(cli));
  commands.push_back(std::make_unique<PresetsCommand>(cli));
  commands.push_back(std::make_unique<TcoCommand>(cli));
  commands.push_back(std::make_unique<GoodputCommand>(cli, console));
  commands.push_back(std::make_unique<SearchCommand>(cli));
  commands.push_back(std::make_unique<ExportTraceCommand>(cli));

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same arguments; only rank 0 speaks. --help and --version exit 0, any other
    // parse error is bad input.
    std::ostringstream out, err;
    const int code = cli.exit(e, out, err);
    if (world.rank() == 0) {
      std::cout << out.str();
      std::cerr << err.str();
    }
    return code == 0 ? kExitOk : kExitBadInput;
  }
  if (const std::string refused = console.apply(world); !refused.empty()) {
    if (world.rank() == 0) std::cerr << "rackscale: " << refused << '\n';
    return kExitBadInput;
  }

  try {
    for (const auto& command : commands)
      if (command->chosen()) return command->execute(world);
  } catch (const std::bad_alloc&) {
    // Any rank may run out; its message is the one that matters. mpirun stops the others.
    std::cerr << "rackscale: " << out_of_memory_message(world.rank()) << '\n';
    return kExitInfeasible;
  } catch (const std::exception& e) {
    std::cerr << "rackscale: internal error on rank " << world.rank() << ": " << e.what() << '\n';
    return kExitInternalError;
  }
  return kExitOk;
}

#pragma once
// What the process is building, for the message when memory runs out: "out of memory on rank 0 while
// building the LPs of 98,304 devices". A run marks its phases with MemoryPhase (one at a time, on the
// main thread); main() reports the innermost when it catches std::bad_alloc (docs/reliability.md,
// "Memory").
#include <functional>
#include <string>

namespace rackscale::app {

class MemoryPhase {
 public:
  // Marks `what` ("building the topology of 98,304 devices") until destroyed, then the phase before.
  explicit MemoryPhase(std::string what);
  ~MemoryPhase();
  MemoryPhase(const MemoryPhase&) = delete;
  MemoryPhase& operator=(const MemoryPhase&) = delete;
  // The next phase of the same scope.
  void set(std::string what);
  // set() as a callable, for a Session's phases (sim/session.hpp); valid while this object lives.
  [[nodiscard]] std::function<void(std::string)> marker();

 private:
  std::string previous_;
};

// The innermost phase marked now, or "setting up" when none is.
[[nodiscard]] std::string current_memory_phase();

// The run's memory estimate ("1.2 GiB per rank on 2 ranks (...)", memory_estimate.hpp), quoted by the
// messages below as how much was being built; none until set.
void set_memory_estimate(const std::string& described);

// The message for an allocation failure on `rank`, naming the phase and how to fit.
[[nodiscard]] std::string out_of_memory_message(int rank);
// The same, written to standard error without allocating (for mimalloc's error callback, main.cpp), then
// ends the process with `exit_code` at once: unwinding through the allocator's C frames is not safe.
[[noreturn]] void exit_out_of_memory(int rank, int exit_code) noexcept;

}  // namespace rackscale::app

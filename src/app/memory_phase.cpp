#include "app/memory_phase.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "pdes/statistics.hpp"

namespace rackscale::app {
namespace {
std::string& phase() {
  static std::string current;
  return current;
}
}  // namespace

MemoryPhase::MemoryPhase(std::string what) : previous_(std::exchange(phase(), std::move(what))) {}

MemoryPhase::~MemoryPhase() { phase() = std::move(previous_); }

void MemoryPhase::set(std::string what) { phase() = std::move(what); }

std::function<void(std::string)> MemoryPhase::marker() {
  return [this](std::string what) { set(std::move(what)); };
}

namespace {
// A fixed buffer, not a std::string: exit_out_of_memory reads it without allocating.
char estimate_text[256] = "";
}  // namespace

void set_memory_estimate(const std::string& described) {
  const std::size_t n = std::min(described.size(), sizeof estimate_text - 1);
  std::memcpy(estimate_text, described.data(), n);
  estimate_text[n] = '\0';
}

std::string current_memory_phase() { return phase().empty() ? std::string("setting up") : phase(); }

namespace {
constexpr const char* kHowToFit =
    "To fit: run on more ranks (mpirun -np N spreads the racks and their state over N processes, on more "
    "nodes), simulate at network.fidelity: analytical (no per-chunk events or queues), simulate fewer "
    "iterations, or give the job more memory (rackscale validate CONFIG --ranks N prints the estimated need on N "
    "ranks)";

void write_text(const char* text) noexcept {
  std::size_t left = std::strlen(text);
  while (left > 0) {
    const ssize_t written = ::write(STDERR_FILENO, text, left);
    if (written <= 0) return;
    text += written;
    left -= static_cast<std::size_t>(written);
  }
}
}  // namespace

void exit_out_of_memory(int rank, int exit_code) noexcept {
  char number[16];
  char* end = number + sizeof number;
  *--end = '\0';
  unsigned value = rank < 0 ? 0u : static_cast<unsigned>(rank);
  do *--end = static_cast<char>('0' + value % 10); while ((value /= 10) != 0 && end > number);
  write_text("rackscale: out of memory on rank ");
  write_text(end);
  write_text(" while ");
  write_text(phase().empty() ? "setting up" : phase().c_str());
  if (estimate_text[0] != '\0') {
    write_text(" (estimated need ");
    write_text(estimate_text);
    write_text(")");
  }
  write_text(". ");
  write_text(kHowToFit);
  write_text("\n");
  ::_exit(exit_code);
}

std::string out_of_memory_message(int rank) {
  // Formatting needs a little memory; whatever was being built has been given back by now.
  return fmt::format("out of memory on rank {} while {} (peak resident memory of this rank {}{}{}). {}", rank,
                     current_memory_phase(), io::format_bytes(static_cast<double>(pdes::peak_memory_bytes())),
                     estimate_text[0] != '\0' ? "; estimated need " : "", estimate_text, kHowToFit);
}

}  // namespace rackscale::app

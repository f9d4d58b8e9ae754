#include "io/progress/terminal_progress.hpp"

namespace rackscale::io {
namespace {
// Carriage return, then ANSI "erase in line" (to its end): every terminal emulator in use knows it.
constexpr const char* kRestartLine = "\r";
constexpr const char* kEraseToEnd = "\x1b[K";
}  // namespace

void TerminalProgress::show(const std::string& line) {
  out_ << kRestartLine << "progress: " << line << kEraseToEnd << std::flush;
  showing_ = true;
}

void TerminalProgress::finish() {
  if (showing_) out_ << kRestartLine << kEraseToEnd << std::flush;
  showing_ = false;
}

}  // namespace rackscale::io

#pragma once
// Progress on a terminal: one line rewritten in place ("\r", the text, erase to the end of the line),
// erased when the run ends so the summary and any error start on a clean line.
#include <ostream>

#include "io/progress/periodic_progress.hpp"

namespace rackscale::io {

class TerminalProgress final : public PeriodicProgress {
 public:
  TerminalProgress(std::ostream& out, double interval_seconds) : PeriodicProgress(interval_seconds), out_(out) {}
  void finish() override;

 private:
  void show(const std::string& line) override;
  std::ostream& out_;
  bool showing_ = false;
};

}  // namespace rackscale::io

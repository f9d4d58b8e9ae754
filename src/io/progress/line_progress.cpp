#include "io/progress/line_progress.hpp"

namespace rackscale::io {

void LineProgress::show(const std::string& line) { out_ << "progress: " << line << std::endl; }

}  // namespace rackscale::io

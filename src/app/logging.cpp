#include "app/logging.hpp"

#include <memory>

#include <fmt/format.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace rackscale::app {

const std::vector<std::string>& log_level_names() {
  static const std::vector<std::string> names{"trace", "debug", "info", "warn", "error", "off"};
  return names;
}

void configure_logging(std::string_view level, bool this_rank_logs, int rank) {
  // The plain (uncoloured) stderr sink: batch logs are files, and it flushes every message.
  auto logger = std::make_shared<spdlog::logger>("rackscale", std::make_shared<spdlog::sinks::stderr_sink_mt>());
  logger->set_pattern(fmt::format("[rank {}] %l: %v", rank));
  logger->set_level(this_rank_logs ? spdlog::level::from_str(std::string(level)) : spdlog::level::off);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace rackscale::app

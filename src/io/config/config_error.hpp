#pragma once
// The one exception a bad config raises: a single line in the style of a compiler diagnostic,
// "file:line:column: key.path: expected ..., found ...", so editors and humans can jump to it.
#include <stdexcept>
#include <string>

namespace rackscale::io {

class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace rackscale::io

#pragma once
// How messages name an operating-system error: its description and its symbolic name, so that a user
// can tell a full disk from a quota or a failing device at a glance, and search for the name:
// errno_text(ENOSPC) is "No space left on device (ENOSPC)".
#include <string>

namespace rackscale::io {

[[nodiscard]] std::string errno_text(int error);

}  // namespace rackscale::io

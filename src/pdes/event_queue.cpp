#include "pdes/event_queue.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pdes/binary_heap_queue.hpp"
#include "pdes/ladder_queue.hpp"
#include "pdes/quaternary_heap_queue.hpp"

namespace rackscale::pdes {

const std::vector<std::string>& event_queue_names() {
  static const std::vector<std::string> names{"ladder", "quaternary_heap", "binary_heap"};
  return names;
}

std::string_view default_event_queue() { return event_queue_names().front(); }

std::unique_ptr<EventQueue> make_event_queue(std::string_view name) {
  if (name == "binary_heap") return std::make_unique<BinaryHeapQueue>();
  if (name == "quaternary_heap") return std::make_unique<QuaternaryHeapQueue>();
  if (name == "ladder") return std::make_unique<LadderQueue>();
  throw std::invalid_argument(fmt::format("unknown event queue '{}': expected one of {}", name,
                                          fmt::join(event_queue_names(), ", ")));
}

}  // namespace rackscale::pdes

#pragma once
// Pieces shared by the MPI window synchronizers.
#include <cstddef>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "pdes/event.hpp"

namespace rackscale::pdes {

// Every rank calls this after a window in which `lowest_failing_rank` (< comm.size()) failed. The
// failing rank's message reaches every rank, and every rank throws SimulationError with it.
// Events cross ranks as raw bytes: they are trivially copyable and every rank runs the same binary.
[[nodiscard]] inline const char* event_bytes(const std::vector<Event>& events) noexcept {
  return reinterpret_cast<const char*>(events.data());
}
[[nodiscard]] inline char* event_bytes(std::vector<Event>& events) noexcept {
  return reinterpret_cast<char*>(events.data());
}
[[nodiscard]] inline int byte_count(std::size_t events) noexcept {
  return static_cast<int>(events * sizeof(Event));
}
// Records in a received message of `bytes` bytes.
[[nodiscard]] inline std::size_t record_count(int bytes) noexcept {
  return static_cast<std::size_t>(bytes) / sizeof(Event);
}

[[noreturn]] void raise_window_failure(const boost::mpi::communicator& comm, int lowest_failing_rank,
                                       const std::string& my_failure);

}  // namespace rackscale::pdes

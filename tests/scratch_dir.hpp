#pragma once
// A directory every rank of a test sees (they share a machine): made by rank 0 under the test's build
// directory (RACKSCALE_TEST_SCRATCH) with rank 0's pid in the name, so the same test at 1, 2 and 4
// ranks can run at once, and broadcast to the other ranks; removed by rank 0 when every rank is done.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/serialization/string.hpp>

namespace rackscale::test {

class ScratchDir {
 public:
  ScratchDir(const boost::mpi::communicator& comm, const std::string& name) : comm_(comm) {
    if (comm.rank() == 0) {
      path_ = std::string(RACKSCALE_TEST_SCRATCH) + "/" + name + "-" + std::to_string(::getpid());
      std::filesystem::remove_all(path_);
      std::filesystem::create_directories(path_);
    }
    boost::mpi::broadcast(comm, path_, 0);
  }
  ~ScratchDir() {
    comm_.barrier();
    if (comm_.rank() == 0) std::filesystem::remove_all(path_);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] std::string operator/(const std::string& file) const { return path_ + "/" + file; }

 private:
  boost::mpi::communicator comm_;
  std::string path_;
};

}  // namespace rackscale::test

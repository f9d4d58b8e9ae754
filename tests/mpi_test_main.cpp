// main() for GoogleTest binaries that run under mpirun. Every rank runs every test (tests are
// collective); rank 0 prints the usual report, other ranks print only their failures, and the
// process fails on every rank if any rank failed.
#include <cstdio>

#include <boost/mpi/collectives/all_reduce.hpp>
#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>
#include <boost/mpi/operations.hpp>
#include <gtest/gtest.h>

namespace {
class RankFailurePrinter final : public testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (result.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                   result.line_number(), result.summary());
  }

 private:
  int rank_;
};
}  // namespace

int main(int argc, char** argv) {
  boost::mpi::environment env(argc, argv);
  const boost::mpi::communicator world;
  testing::InitGoogleTest(&argc, argv);
  if (world.rank() != 0) {
    auto& listeners = testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(world.rank()));
  }
  const int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  return boost::mpi::all_reduce(world, failed, boost::mpi::maximum<int>());
}

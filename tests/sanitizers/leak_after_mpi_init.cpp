// A leak in rackscale's own code after MPI has started, on purpose (tests/sanitizers/CMakeLists.txt): the
// Open MPI suppressions must not hide it.
#include <cstdio>

#include <boost/mpi/environment.hpp>

int main(int argc, char** argv) {
  const boost::mpi::environment env(argc, argv);
  int* lost = new int[100];  // 400 bytes, never freed
  lost[0] = 42;
  std::printf("%d\n", lost[0]);
  return 0;
}

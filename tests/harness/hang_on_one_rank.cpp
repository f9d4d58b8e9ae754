// Deadlocks on purpose, for tests/harness/deadlock_is_stopped.cmake: every rank says it has started
// (with its process id, so that the test can check it is gone afterwards), then rank 1 waits for a
// message nobody sends while the others wait for rank 1 at a barrier.
#include <cstdio>

#include <unistd.h>

#include <boost/mpi/communicator.hpp>
#include <boost/mpi/environment.hpp>

int main(int argc, char** argv) {
  const boost::mpi::environment env(argc, argv);
  const boost::mpi::communicator world;
  std::printf("rank %d pid %ld started\n", world.rank(), static_cast<long>(getpid()));
  std::fflush(stdout);  // a pipe is block-buffered: without this, the line would die with the process
  if (world.rank() == 1) {
    int never = 0;
    world.recv(0, 0, never);
  }
  world.barrier();
  std::printf("rank %d passed the barrier\n", world.rank());
  return 0;
}

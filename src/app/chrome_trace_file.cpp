#include "app/chrome_trace_file.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
#include <stdexcept>

#include <boost/mpi/collectives/broadcast.hpp>
#include <boost/mpi/collectives/gather.hpp>
#include <boost/mpi/exception.hpp>
#include <boost/serialization/string.hpp>
#include <fmt/format.h>

#include "io/output_destination.hpp"
#include "io/text_table.hpp"
#include "pdes/error.hpp"

namespace rackscale::app {

namespace acc = models::accelerator;

namespace {
// JSON bytes of one event, roughly (for the refusal's estimate of the file size).
constexpr std::uint64_t kBytesPerSpan = 220;

// Every rank's spans, concatenated in rank order on rank 0 (empty elsewhere). Sent as raw bytes: the
// records are trivially copyable and every rank runs the same binary.
std::vector<acc::RecordedSpan> gather_on_root(const boost::mpi::communicator& comm,
                                              const std::vector<acc::RecordedSpan>& mine) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts;
  boost::mpi::gather(comm, count, counts, 0);
  MPI_Datatype record;
  BOOST_MPI_CHECK_RESULT(MPI_Type_contiguous, (static_cast<int>(sizeof(acc::RecordedSpan)), MPI_BYTE, &record));
  BOOST_MPI_CHECK_RESULT(MPI_Type_commit, (&record));
  std::vector<int> offsets(counts.size(), 0);
  long long total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<acc::RecordedSpan> all(static_cast<std::size_t>(total));
  BOOST_MPI_CHECK_RESULT(MPI_Gatherv, (mine.data(), count, record, all.data(), counts.data(), offsets.data(), record, 0,
                                       MPI_Comm(comm)));
  BOOST_MPI_CHECK_RESULT(MPI_Type_free, (&record));
  return all;
}
}  // namespace

ChromeTraceFile::ChromeTraceFile(std::string path, bool overwrite, io::DeviceSelection selection, std::uint64_t max_spans,
                                 io::TraceHeader header)
    : path_(std::move(path)),
      overwrite_(overwrite),
      selection_(std::move(selection)),
      max_spans_(max_spans),
      header_(std::move(header)) {}

void ChromeTraceFile::prepare(const models::workload::TrainingPlan& plan) {
  try {
    devices_ = selection_.resolve(plan.layout);
  } catch (const std::invalid_argument& e) {
    throw TraceRefused(e.what());
  }
  const std::uint64_t iterations = plan.layout.spec().iterations;
  std::uint64_t spans = 0;
  for (const std::uint32_t device : devices_)
    spans += io::spans_per_iteration(plan.programs[plan.layout.role_of(device)]) * iterations;
  // The gather counts spans in MPI's int.
  const std::uint64_t limit = std::min<std::uint64_t>(max_spans_, INT_MAX);
  if (spans > limit)
    throw TraceRefused(fmt::format(
        "{} {}: would record up to {} spans ({} devices x {} iteration(s)), more than the limit of {} "
        "(--trace-max-spans): trace viewers open a few million events at most, and the file could take {} MB; "
        "trace fewer devices (first-of-each-stage, stage:S, a range) or iterations, or raise --trace-max-spans "
        "(at most {})",
        io::DeviceSelection::kOption, selection_.text(), io::with_commas(spans), io::with_commas(devices_.size()),
        iterations, io::with_commas(max_spans_), io::with_commas(spans * kBytesPerSpan / 1'000'000),
        io::with_commas(INT_MAX)));
  logs_.clear();
  for (const std::uint32_t device : devices_) logs_.push_back(std::make_unique<acc::SpanLog>(device, spans_));
}

acc::SpanRecorder& ChromeTraceFile::recorder(std::uint32_t device) {
  const auto it = std::lower_bound(devices_.begin(), devices_.end(), device);
  if (it == devices_.end() || *it != device) return acc::ignored_spans();
  return *logs_[static_cast<std::size_t>(it - devices_.begin())];
}

void ChromeTraceFile::finish(const boost::mpi::communicator& comm, const models::workload::TrainingPlan& plan,
                             std::span<const pdes::SimTime> iteration_ends) {
  std::vector<acc::RecordedSpan> spans = gather_on_root(comm, spans_);
  const std::string partial = io::partial_path(comm, path_);
  std::string problem;
  if (comm.rank() == 0) {
    header_.iteration_ends.assign(iteration_ends.begin(), iteration_ends.end());
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      if (out) io::write_chrome_trace(out, header_, plan, devices_, std::move(spans));
      out.close();
      if (!out) problem = fmt::format("writing {} failed", partial);
    }
    if (problem.empty()) problem = io::publish(partial, path_, overwrite_);
    if (!problem.empty()) ::unlink(partial.c_str());
  }
  boost::mpi::broadcast(comm, problem, 0);
  if (!problem.empty())
    throw pdes::SimulationError(0, fmt::format("cannot write the trace file {}: {}", path_, problem));
}

}  // namespace rackscale::app

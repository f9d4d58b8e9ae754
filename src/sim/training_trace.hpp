#pragma once
// What a training run does for its timeline trace. The training workload asks it, before simulating, to check
// the request against the job (prepare), gives each of its devices the recorder it returns, and hands
// it the run's end for the file (finish). Runs without --trace use NoTrainingTrace, which records and
// writes nothing.
#include <cstdint>
#include <span>
#include <stdexcept>

#include <boost/mpi/communicator.hpp>

#include "models/accelerator/span_recorder.hpp"
#include "models/workload/training_plan.hpp"
#include "pdes/time.hpp"

namespace rackscale::sim {

// A trace request that cannot be honoured (a device out of range, too many spans): bad input, found
// before simulating. The message starts with the option at fault.
class TraceRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TrainingTrace {
 public:
  virtual ~TrainingTrace() = default;
  TrainingTrace() = default;
  TrainingTrace(const TrainingTrace&) = delete;
  TrainingTrace& operator=(const TrainingTrace&) = delete;

  // Every rank, before simulating. Throws TraceRefused.
  virtual void prepare(const models::workload::TrainingPlan& plan) = 0;
  // The recorder for one device of this rank (it lives as long as this object).
  [[nodiscard]] virtual models::accelerator::SpanRecorder& recorder(std::uint32_t device) = 0;
  // Collective, after the run: `iteration_ends` as in the report. Throws pdes::SimulationError on every
  // rank if the file cannot be written (and leaves no file).
  virtual void finish(const boost::mpi::communicator& comm, const models::workload::TrainingPlan& plan,
                      std::span<const pdes::SimTime> iteration_ends) = 0;
};

class NoTrainingTrace final : public TrainingTrace {
 public:
  void prepare(const models::workload::TrainingPlan&) override {}
  models::accelerator::SpanRecorder& recorder(std::uint32_t) override { return models::accelerator::ignored_spans(); }
  void finish(const boost::mpi::communicator&, const models::workload::TrainingPlan&,
              std::span<const pdes::SimTime>) override {}
};

}  // namespace rackscale::sim

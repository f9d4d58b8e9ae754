#include "app/run_failure.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "app/checkpoint_options.hpp"
#include "app/exit_codes.hpp"
#include "app/results_output.hpp"
#include "app/scenario_errors.hpp"
#include "app/training_trace.hpp"
#include "models/memory/infeasible_job.hpp"
#include "pdes/checkpoint_file.hpp"
#include "pdes/error.hpp"

namespace rackscale::app {

RunFailure run_failure(const models::Scenario& scenario) {
  try {
    throw;
  } catch (const TraceRefused& e) {
    return {kExitBadInput, e.what()};
  } catch (const RunStopped& e) {
    return {kExitStopped, e.what()};
  } catch (const pdes::CheckpointWriteFailed& e) {
    return {kExitInternalError, e.what()};
  } catch (const pdes::CheckpointRefused& e) {
    return {kExitBadInput, e.what()};
  } catch (const models::memory::InfeasibleJob& e) {
    return {kExitInfeasible, e.what()};
  } catch (const std::invalid_argument& e) {
    return {kExitBadInput, locate_error(scenario, e.what())};
  } catch (const ResultsFileError& e) {
    return {kExitInternalError, e.what()};
  } catch (const pdes::SimulationError& e) {
    return {kExitInternalError, fmt::format("simulation failed: {}", e.what())};
  }
}

}  // namespace rackscale::app

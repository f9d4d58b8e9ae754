#pragma once
// Default interruption classes: Llama 3's 54-day snapshot of pre-training on 16,384 H100 GPUs in 2,048
// servers of 8 (Dubey et al. 2024, "The Llama 3 Herd of Models", arXiv:2407.21783, Table 5: 419
// unexpected interruptions by root cause, plus 47 planned ones). A count c over the snapshot becomes
// a rate per component-hour c / (components x 54 x 24 h): per GPU-hour over 16,384 x 1,296 =
// 21,233,664 GPU-hours, per node-hour over 2,048 x 1,296 = 2,654,208 node-hours, per job-hour over
// 1,296 hours (docs/goodput.md lists every class, its component and its rate).
#include <vector>

#include "models/goodput/failure_class.hpp"

namespace rackscale::models::goodput {

inline constexpr double kLlama3Gpus = 16384;
inline constexpr double kLlama3Nodes = 2048;
inline constexpr double kLlama3Hours = 54.0 * 24.0;

[[nodiscard]] std::vector<FailureClass> llama3_failure_classes();

}  // namespace rackscale::models::goodput

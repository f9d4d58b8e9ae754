#include "models/collectives/bench_sizes.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace rackscale::models::collectives {

using accelerator::CollectiveKind;

std::uint32_t word_bytes(DataType type) noexcept {
  switch (type) {
    case DataType::int8:
    case DataType::uint8:
    case DataType::f8e4m3:
    case DataType::f8e5m2: return 1;
    case DataType::half:
    case DataType::bfloat16: return 2;
    case DataType::int32:
    case DataType::uint32:
    case DataType::float32: return 4;
    case DataType::int64:
    case DataType::uint64:
    case DataType::float64: return 8;
  }
  return 1;
}

std::string_view data_type_name(DataType type) noexcept {
  switch (type) {
    case DataType::int8: return "int8";
    case DataType::uint8: return "uint8";
    case DataType::int32: return "int32";
    case DataType::uint32: return "uint32";
    case DataType::int64: return "int64";
    case DataType::uint64: return "uint64";
    case DataType::half: return "half";
    case DataType::float32: return "float";
    case DataType::float64: return "double";
    case DataType::bfloat16: return "bfloat16";
    case DataType::f8e4m3: return "f8e4m3";
    case DataType::f8e5m2: return "f8e5m2";
  }
  return "?";
}

std::string_view reduce_op_name(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::prod: return "prod";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
    case ReduceOp::avg: return "avg";
  }
  return "?";
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t min_bytes, std::uint64_t max_bytes, std::uint64_t step_factor,
                                       std::uint64_t step_bytes, std::size_t limit) {
  if (min_bytes == 0 || max_bytes < min_bytes)
    throw std::invalid_argument(fmt::format("workload.max_bytes: expected max_bytes ({}) >= min_bytes ({}) > 0",
                                            max_bytes, min_bytes));
  if (step_factor == 0 || (step_factor == 1 && step_bytes == 0))
    throw std::invalid_argument("workload.step_bytes: expected a step of at least 1 byte with step_factor 1");
  std::vector<std::uint64_t> sizes;
  for (std::uint64_t size = min_bytes;;) {
    if (sizes.size() == limit)
      throw std::invalid_argument(fmt::format("workload.{}: the sweep from {} to {} bytes would have more than {} sizes",
                                              step_factor > 1 ? "step_factor" : "step_bytes", min_bytes, max_bytes,
                                              limit));
    sizes.push_back(size);
    // The next size, unless it would pass max_bytes (or overflow).
    if (step_factor > 1) {
      if (size > max_bytes / step_factor) break;
      size *= step_factor;
    } else {
      if (step_bytes > max_bytes - size) break;  // size <= max_bytes here, so this cannot wrap
      size += step_bytes;
    }
  }
  return sizes;
}

bool splits_buffer(CollectiveKind op) noexcept {
  switch (op) {
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all:
    case CollectiveKind::gather:
    case CollectiveKind::scatter: return true;
    case CollectiveKind::all_reduce:
    case CollectiveKind::broadcast:
    case CollectiveKind::reduce:
    case CollectiveKind::sendrecv: return false;
  }
  return false;
}

BenchBuffer bench_buffer(CollectiveKind op, std::uint64_t size, DataType type, std::uint32_t ranks) noexcept {
  const std::uint64_t word = word_bytes(type);
  const std::uint64_t elements = size / word;
  BenchBuffer b;
  if (splits_buffer(op) && ranks > 0) {
    b.count = elements / ranks;
    b.bytes = b.count * ranks * word;
  } else {
    b.count = elements;
    b.bytes = elements * word;
  }
  return b;
}

}  // namespace rackscale::models::collectives

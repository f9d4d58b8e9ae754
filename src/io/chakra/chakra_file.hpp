#pragma once
// Chakra execution-trace files (docs/traces.md): one traced rank's nodes, read into the models'
// TraceGraph and written from one. The protobuf types stay inside chakra_file.cpp.
//
// A file that cannot be a trace raises ConfigError naming the file and the place: the byte offset of a
// truncated or malformed message, or the node id and attribute at fault (an unknown node type or
// collective, an attribute of the wrong type, a send without its peer).
#include <filesystem>

#include "models/workload/trace_graph.hpp"

namespace rackscale::io {

[[nodiscard]] models::workload::TraceGraph read_chakra_trace(const std::filesystem::path& file);

// Writes `graph` as a Chakra file at `file` (replacing it), schema version `graph.version` or, when
// empty, the version rackscale writes (kChakraWrittenVersion). Throws std::runtime_error naming the file
// when it cannot be written.
void write_chakra_trace(const std::filesystem::path& file, const models::workload::TraceGraph& graph);

// The schema version of the files rackscale writes: the attributes it writes are those of ASTRA-sim's
// 0.0.4 microbenchmark traces (data/chakra/README.md).
inline constexpr const char* kChakraWrittenVersion = "0.0.4";

}  // namespace rackscale::io

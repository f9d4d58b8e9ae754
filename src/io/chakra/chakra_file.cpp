#include "io/chakra/chakra_file.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "io/chakra/chakra_et.pb.h"
#include "io/config/config_error.hpp"

namespace rackscale::io {

namespace {

using models::workload::TraceCollective;
using models::workload::TraceGraph;
using models::workload::TraceNode;
using models::workload::TraceNodeKind;

// "FILE: node ID: attribute NAME: " — the prefix of every error about one node's attribute.
std::string at_node(const std::filesystem::path& file, std::uint64_t id) {
  return file.string() + ": node " + std::to_string(id) + ": ";
}

std::string value_case_name(const chakra::Attribute& attribute) {
  switch (attribute.value_case()) {
    case chakra::Attribute::kDoubleVal:
    case chakra::Attribute::kFloatVal: return "a floating-point number";
    case chakra::Attribute::kBoolVal: return "a boolean";
    case chakra::Attribute::kStringVal: return "a string";
    case chakra::Attribute::kBytesVal: return "bytes";
    case chakra::Attribute::VALUE_NOT_SET: return "no value";
    default: return "a list";
  }
}

// An integer attribute of any of protobuf's integer encodings (traces use int32, int64 and uint64 for
// the same attribute, depending on the converter that wrote them).
std::int64_t integer_value(const chakra::Attribute& a, const std::filesystem::path& file, std::uint64_t id) {
  switch (a.value_case()) {
    case chakra::Attribute::kInt32Val: return a.int32_val();
    case chakra::Attribute::kInt64Val: return a.int64_val();
    case chakra::Attribute::kUint32Val: return a.uint32_val();
    case chakra::Attribute::kSint32Val: return a.sint32_val();
    case chakra::Attribute::kSint64Val: return a.sint64_val();
    case chakra::Attribute::kFixed32Val: return a.fixed32_val();
    case chakra::Attribute::kSfixed32Val: return a.sfixed32_val();
    case chakra::Attribute::kSfixed64Val: return a.sfixed64_val();
    case chakra::Attribute::kUint64Val:
    case chakra::Attribute::kFixed64Val: {
      const std::uint64_t value = a.value_case() == chakra::Attribute::kUint64Val ? a.uint64_val() : a.fixed64_val();
      if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        throw ConfigError(at_node(file, id) + "attribute " + a.name() + ": expected an integer below 2^63, found " +
                          std::to_string(value));
      }
      return static_cast<std::int64_t>(value);
    }
    default:
      throw ConfigError(at_node(file, id) + "attribute " + a.name() + ": expected an integer, found " +
                        value_case_name(a));
  }
}

std::uint64_t count_value(const chakra::Attribute& a, const std::filesystem::path& file, std::uint64_t id) {
  const std::int64_t value = integer_value(a, file, id);
  if (value < 0) {
    throw ConfigError(at_node(file, id) + "attribute " + a.name() + ": expected a count of 0 or more, found " +
                      std::to_string(value));
  }
  return static_cast<std::uint64_t>(value);
}

TraceNodeKind node_kind(const chakra::Node& node, const std::filesystem::path& file) {
  switch (node.type()) {
    case chakra::METADATA_NODE: return TraceNodeKind::metadata;
    case chakra::MEM_LOAD_NODE: return TraceNodeKind::memory_load;
    case chakra::MEM_STORE_NODE: return TraceNodeKind::memory_store;
    case chakra::COMP_NODE: return TraceNodeKind::compute;
    case chakra::COMM_SEND_NODE: return TraceNodeKind::send;
    case chakra::COMM_RECV_NODE: return TraceNodeKind::recv;
    case chakra::COMM_COLL_NODE: return TraceNodeKind::collective;
    default:
      throw ConfigError(at_node(file, node.id()) + "type: expected a node type from 1 (METADATA_NODE) to 7 " +
                        "(COMM_COLL_NODE), found " + std::to_string(static_cast<int>(node.type())));
  }
}

chakra::NodeType proto_type(TraceNodeKind kind) {
  switch (kind) {
    case TraceNodeKind::metadata: return chakra::METADATA_NODE;
    case TraceNodeKind::memory_load: return chakra::MEM_LOAD_NODE;
    case TraceNodeKind::memory_store: return chakra::MEM_STORE_NODE;
    case TraceNodeKind::compute: return chakra::COMP_NODE;
    case TraceNodeKind::send: return chakra::COMM_SEND_NODE;
    case TraceNodeKind::recv: return chakra::COMM_RECV_NODE;
    case TraceNodeKind::collective: return chakra::COMM_COLL_NODE;
  }
  return chakra::INVALID_NODE;
}

TraceNode node_from_proto(const chakra::Node& proto, const std::filesystem::path& file) {
  TraceNode node;
  node.id = proto.id();
  node.kind = node_kind(proto, file);
  node.name = proto.name();
  node.duration_micros = proto.duration_micros();
  node.control_dependencies.assign(proto.ctrl_deps().begin(), proto.ctrl_deps().end());
  node.data_dependencies.assign(proto.data_deps().begin(), proto.data_deps().end());
  std::optional<std::int64_t> source, destination;
  for (const chakra::Attribute& a : proto.attr()) {
    const std::string& name = a.name();
    if (name == "is_cpu_op") {
      if (a.value_case() == chakra::Attribute::kBoolVal) {
        node.cpu_op = a.bool_val();
      } else {
        node.cpu_op = integer_value(a, file, node.id) != 0;
      }
    } else if (name == "num_ops") {
      node.flops = a.value_case() == chakra::Attribute::kDoubleVal ? a.double_val()
                                                                    : static_cast<double>(count_value(a, file, node.id));
    } else if (name == "duration_ps") {
      node.duration_ps = count_value(a, file, node.id);
    } else if (name == "tensor_size") {
      node.tensor_bytes = count_value(a, file, node.id);
    } else if (name == "comm_type") {
      const std::int64_t type = integer_value(a, file, node.id);
      if (type < 0 || type >= static_cast<std::int64_t>(models::workload::kTraceCollectiveCount)) {
        throw ConfigError(at_node(file, node.id) + "attribute comm_type: expected a collective from 0 (ALL_REDUCE) " +
                          "to 9 (BARRIER), found " + std::to_string(type));
      }
      node.collective = static_cast<TraceCollective>(type);
    } else if (name == "comm_size") {
      node.comm_bytes = count_value(a, file, node.id);
    } else if (name == "comm_src") {
      source = integer_value(a, file, node.id);
    } else if (name == "comm_dst") {
      destination = integer_value(a, file, node.id);
    } else if (name == "comm_tag") {
      node.tag = integer_value(a, file, node.id);
    } else if (name == "pg_name" || name == "comm_peer_pg") {
      if (a.value_case() != chakra::Attribute::kStringVal) {
        throw ConfigError(at_node(file, node.id) + "attribute " + name + ": expected a string, found " + value_case_name(a));
      }
      (name == "pg_name" ? node.process_group : node.peer_group) = a.string_val();
    } else if (name == "comm_peer_step") {
      node.peer_step = integer_value(a, file, node.id);
    }
    // Other attributes (tid, rf_id, op_schema, involved_dim, ...) do not change what the node costs.
  }
  if (node.kind == TraceNodeKind::send) node.peer = destination;
  if (node.kind == TraceNodeKind::recv) node.peer = source;
  const bool point_to_point = node.kind == TraceNodeKind::send || node.kind == TraceNodeKind::recv;
  if (point_to_point && !node.cpu_op && !node.peer) {
    throw ConfigError(at_node(file, node.id) + (node.kind == TraceNodeKind::send ? "a send needs attribute comm_dst"
                                                                                 : "a receive needs attribute comm_src") +
                      ", found none");
  }
  if (point_to_point && node.peer && *node.peer < 0) {
    throw ConfigError(at_node(file, node.id) + "attribute " + (node.kind == TraceNodeKind::send ? "comm_dst" : "comm_src") +
                      ": expected a rank of 0 or more, found " + std::to_string(*node.peer));
  }
  return node;
}

void add_attribute(chakra::Node& proto, const char* name, std::int64_t value) {
  chakra::Attribute* a = proto.add_attr();
  a->set_name(name);
  a->set_int64_val(value);
}

chakra::Node proto_from_node(const TraceNode& node) {
  chakra::Node proto;
  proto.set_id(node.id);
  proto.set_name(node.name);
  proto.set_type(proto_type(node.kind));
  for (std::uint64_t dep : node.control_dependencies) proto.add_ctrl_deps(dep);
  for (std::uint64_t dep : node.data_dependencies) proto.add_data_deps(dep);
  proto.set_duration_micros(node.duration_micros);
  chakra::Attribute* cpu = proto.add_attr();
  cpu->set_name("is_cpu_op");
  cpu->set_bool_val(node.cpu_op);
  if (node.flops > 0) {
    chakra::Attribute* a = proto.add_attr();
    a->set_name("num_ops");
    a->set_double_val(node.flops);
  }
  if (node.duration_ps > 0) add_attribute(proto, "duration_ps", static_cast<std::int64_t>(node.duration_ps));
  if (node.tensor_bytes > 0) add_attribute(proto, "tensor_size", static_cast<std::int64_t>(node.tensor_bytes));
  if (node.collective) add_attribute(proto, "comm_type", static_cast<std::int64_t>(*node.collective));
  const bool communicates = node.kind == TraceNodeKind::collective || node.kind == TraceNodeKind::send ||
                            node.kind == TraceNodeKind::recv;
  if (communicates) add_attribute(proto, "comm_size", static_cast<std::int64_t>(node.comm_bytes));
  if (node.peer) add_attribute(proto, node.kind == TraceNodeKind::send ? "comm_dst" : "comm_src", *node.peer);
  if (node.kind == TraceNodeKind::send || node.kind == TraceNodeKind::recv) add_attribute(proto, "comm_tag", node.tag);
  if (!node.process_group.empty()) {
    chakra::Attribute* a = proto.add_attr();
    a->set_name("pg_name");
    a->set_string_val(node.process_group);
  }
  if (!node.peer_group.empty()) {
    chakra::Attribute* a = proto.add_attr();
    a->set_name("comm_peer_pg");
    a->set_string_val(node.peer_group);
    add_attribute(proto, "comm_peer_step", node.peer_step);
  }
  return proto;
}

// rackscale's process-group attributes of GlobalMetadata (trace_graph.hpp): "pg_ranks:NAME", ranks;
// in a role trace also "pg_stride:NAME", [stride, size] (role_trace.hpp).
constexpr std::string_view kProcessGroupPrefix = "pg_ranks:";
constexpr std::string_view kStridedGroupPrefix = "pg_stride:";

// "[1, 2, 3]".
std::string list_text(const chakra::Int64List& list) {
  std::string text(1, '[');
  for (int i = 0; i < list.values_size(); ++i) {
    if (i > 0) text.append(", ");
    text.append(std::to_string(list.values(i)));
  }
  text.push_back(']');
  return text;
}

// A strided group's [stride, size]: two integers from 1 to 2^31 - 1.
models::workload::StridedGroup strided_group(const chakra::Attribute& a, const std::filesystem::path& file) {
  const bool pair = a.value_case() == chakra::Attribute::kInt64List && a.int64_list().values_size() == 2;
  const auto positive = [](std::int64_t v) { return v >= 1 && v <= std::numeric_limits<std::int32_t>::max(); };
  if (!pair || !positive(a.int64_list().values(0)) || !positive(a.int64_list().values(1))) {
    const std::string found =
        a.value_case() == chakra::Attribute::kInt64List ? list_text(a.int64_list()) : value_case_name(a);
    throw ConfigError(file.string() + ": GlobalMetadata: attribute " + a.name() +
                      ": expected [stride, size], two integers of 1 or more (int64_list), found " + found);
  }
  return {static_cast<std::uint32_t>(a.int64_list().values(0)), static_cast<std::uint32_t>(a.int64_list().values(1))};
}

void read_process_groups(const chakra::GlobalMetadata& metadata, const std::filesystem::path& file, TraceGraph& graph) {
  for (const chakra::Attribute& a : metadata.attr()) {
    if (a.name().starts_with(kStridedGroupPrefix)) {
      graph.strided_groups[a.name().substr(kStridedGroupPrefix.size())] = strided_group(a, file);
      continue;
    }
    if (!a.name().starts_with(kProcessGroupPrefix)) continue;
    const std::string name = a.name().substr(kProcessGroupPrefix.size());
    std::vector<std::int64_t> values;
    if (a.value_case() == chakra::Attribute::kInt64List) {
      values.assign(a.int64_list().values().begin(), a.int64_list().values().end());
    } else if (a.value_case() == chakra::Attribute::kUint32List) {
      values.assign(a.uint32_list().values().begin(), a.uint32_list().values().end());
    } else if (a.value_case() == chakra::Attribute::kInt32List) {
      values.assign(a.int32_list().values().begin(), a.int32_list().values().end());
    } else {
      throw ConfigError(file.string() + ": GlobalMetadata: attribute " + a.name() +
                        ": expected a list of ranks (int64_list), found " + value_case_name(a));
    }
    std::vector<std::uint32_t>& ranks = graph.process_groups[name];
    for (const std::int64_t rank : values) {
      if (rank < 0 || rank > std::numeric_limits<std::int32_t>::max()) {
        throw ConfigError(file.string() + ": GlobalMetadata: attribute " + a.name() +
                          ": expected ranks of 0 or more, found " + std::to_string(rank));
      }
      ranks.push_back(static_cast<std::uint32_t>(rank));
    }
  }
}

std::string read_whole_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) throw ConfigError(file.string() + ": cannot open the trace: " + std::strerror(errno));
  std::string bytes(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw ConfigError(file.string() + ": cannot read the trace: " + std::strerror(errno));
  }
  return bytes;
}

}  // namespace

TraceGraph read_chakra_trace(const std::filesystem::path& file) {
  const std::string bytes = read_whole_file(file);
  if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw ConfigError(file.string() + ": a trace file of " + std::to_string(bytes.size()) +
                      " bytes is over protobuf's 2 GiB limit; split the rank's trace");
  }
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  TraceGraph graph;
  bool metadata_read = false;
  std::uint64_t message = 0;
  while (true) {
    const auto offset = static_cast<std::size_t>(in.CurrentPosition());
    if (offset == bytes.size()) break;
    std::uint32_t length = 0;
    if (!in.ReadVarint32(&length)) {
      throw ConfigError(file.string() + ": message " + std::to_string(message) + " at byte " + std::to_string(offset) +
                        ": truncated length prefix (the file ends inside it)");
    }
    const std::size_t start = static_cast<std::size_t>(in.CurrentPosition());
    if (length > bytes.size() - start) {
      throw ConfigError(file.string() + ": message " + std::to_string(message) + " at byte " + std::to_string(offset) +
                        ": truncated: it declares " + std::to_string(length) + " bytes, " +
                        std::to_string(bytes.size() - start) + " remain in the file");
    }
    const auto limit = in.PushLimit(static_cast<int>(length));
    const std::string what = metadata_read ? "a Chakra Node" : "Chakra's GlobalMetadata";
    bool parsed = false;
    if (!metadata_read) {
      chakra::GlobalMetadata metadata;
      parsed = metadata.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
      graph.version = metadata.version();
      if (parsed) read_process_groups(metadata, file, graph);
    } else {
      chakra::Node proto;
      parsed = proto.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
      if (parsed) graph.nodes.push_back(node_from_proto(proto, file));
    }
    if (!parsed) {
      throw ConfigError(file.string() + ": message " + std::to_string(message) + " at byte " + std::to_string(offset) +
                        ": expected " + what + " of " + std::to_string(length) + " bytes, found bytes protobuf cannot parse as one");
    }
    in.PopLimit(limit);
    metadata_read = true;
    ++message;
  }
  if (!metadata_read) throw ConfigError(file.string() + ": expected a Chakra trace, found an empty file");
  return graph;
}

void write_chakra_trace(const std::filesystem::path& file, const TraceGraph& graph) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(file.string() + ": cannot create the trace: " + std::strerror(errno));
  chakra::GlobalMetadata metadata;
  metadata.set_version(graph.version.empty() ? kChakraWrittenVersion : graph.version);
  for (const auto& [name, ranks] : graph.process_groups) {
    chakra::Attribute* a = metadata.add_attr();
    a->set_name(std::string(kProcessGroupPrefix) + name);
    for (const std::uint32_t rank : ranks) a->mutable_int64_list()->add_values(rank);
  }
  for (const auto& [name, group] : graph.strided_groups) {
    chakra::Attribute* a = metadata.add_attr();
    a->set_name(std::string(kStridedGroupPrefix) + name);
    a->mutable_int64_list()->add_values(group.stride);
    a->mutable_int64_list()->add_values(group.size);
  }
  bool written = google::protobuf::util::SerializeDelimitedToOstream(metadata, &out);
  for (const TraceNode& node : graph.nodes) {
    if (!written) break;
    written = google::protobuf::util::SerializeDelimitedToOstream(proto_from_node(node), &out);
  }
  out.flush();
  if (!written || !out) throw std::runtime_error(file.string() + ": cannot write the trace: " + std::strerror(errno));
}

}  // namespace rackscale::io

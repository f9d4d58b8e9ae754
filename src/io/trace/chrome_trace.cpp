#include "io/trace/chrome_trace.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/workload/training_report.hpp"

namespace rackscale::io {

namespace acc = models::accelerator;
namespace wl = models::workload;

namespace {
constexpr std::uint64_t kTidsPerDevice = 10;  // tid = pid x 10 + stream; programs have fewer streams
static_assert(wl::kStreams <= kTidsPerDevice);

std::string json_string(std::string_view text) { return nlohmann::json(std::string(text)).dump(); }

const char* phase_name(acc::Phase phase) {
  switch (phase) {
    case acc::Phase::forward: return "forward";
    case acc::Phase::backward: return "backward";
    case acc::Phase::recompute: return "recompute";
    case acc::Phase::optimizer: return "optimizer";
    case acc::Phase::other: return "other";
  }
  return "other";
}

const char* wait_name(acc::WaitCause cause) {
  switch (cause) {
    case acc::WaitCause::exposed_communication: return "exposed communication";
    case acc::WaitCause::pipeline_bubble: return "pipeline bubble";
    case acc::WaitCause::idle: return "idle";
  }
  return "idle";
}

// chrome://tracing's reserved colour names (Perfetto colours by name instead).
const char* wait_colour(acc::WaitCause cause) {
  switch (cause) {
    case acc::WaitCause::exposed_communication: return "bad";
    case acc::WaitCause::pipeline_bubble: return "terrible";
    case acc::WaitCause::idle: return "grey";
  }
  return "grey";
}

// Microseconds, exactly: whole microseconds and six decimal places of picoseconds.
void append_microseconds(fmt::memory_buffer& out, pdes::SimTime ps) {
  fmt::format_to(std::back_inserter(out), "{}.{:06}", ps / 1'000'000, ps % 1'000'000);
}

// Where an op's context goes in its args: layer and micro-batch where they mean something.
void append_position(fmt::memory_buffer& out, const acc::Op& op) {
  if (op.layer != wl::kNoLayer) fmt::format_to(std::back_inserter(out), ",\"layer\":{}", op.layer);
  if (op.phase != acc::Phase::optimizer) fmt::format_to(std::back_inserter(out), ",\"micro_batch\":{}", op.micro_batch);
}

// The parts of an op's events that do not change between iterations: name, category and the args
// before "iteration"; and the args a wait for the op adds.
struct OpText {
  std::string event;
  std::string waited_for;
};

std::vector<OpText> op_texts(const acc::Program& program) {
  std::vector<OpText> texts;
  texts.reserve(program.ops.size());
  for (const acc::Op& op : program.ops) {
    fmt::memory_buffer event, waited;
    std::string name(op.label);
    const char* category = "communication";
    if (op.kind == acc::OpKind::compute) {
      category = "compute";
      if (op.phase == acc::Phase::backward || op.phase == acc::Phase::recompute) name += fmt::format(" {}", phase_name(op.phase));
    } else if (op.kind != acc::OpKind::collective && acc::is_pipeline_peer(op.peer)) {
      category = "pipeline";
    }
    fmt::format_to(std::back_inserter(event), "\"name\":{},\"cat\":\"{}\",\"args\":{{\"phase\":\"{}\"", json_string(name),
                   category, phase_name(op.phase));
    append_position(event, op);
    switch (op.kind) {
      case acc::OpKind::compute:
        fmt::format_to(std::back_inserter(event), ",\"flops\":{},\"hbm_bytes\":{}", op.cost.flops, op.cost.bytes);
        break;
      case acc::OpKind::collective:
        fmt::format_to(std::back_inserter(event), ",\"collective\":\"{}\",\"group\":\"{}\",\"bytes\":{}",
                       wl::collective_name(op.collective), wl::group_name(op.group), op.bytes);
        break;
      case acc::OpKind::send:
      case acc::OpKind::recv:
        fmt::format_to(std::back_inserter(event), ",\"peer\":\"{}\",\"bytes\":{}", wl::peer_name(op.peer), op.bytes);
        break;
    }
    fmt::format_to(std::back_inserter(waited), ",\"waiting_for\":{}", json_string(op.label));
    append_position(waited, op);
    texts.push_back({fmt::to_string(event), fmt::to_string(waited)});
  }
  return texts;
}

std::uint8_t stream_of(const acc::RecordedSpan& span, const acc::Program& program) {
  return span.is_wait ? wl::kComputeStream : program.ops[span.op].stream;
}

std::string device_title(const wl::TrainingLayout& layout, std::uint32_t device, std::uint32_t devices_per_node) {
  const wl::Coordinates c = layout.coordinates(device);
  std::string title = fmt::format("device {} (node {}, stage {}, tp {}", device, device / devices_per_node, c.pipeline, c.tensor);
  if (layout.context() > 1) title += fmt::format(", cp {}", c.context);
  if (layout.expert() > 1) title += fmt::format(", ep {}", c.expert);
  return title + fmt::format(", dp {})", c.data);
}
}  // namespace

std::uint64_t spans_per_iteration(const acc::Program& program) {
  const auto compute_ops = static_cast<std::uint64_t>(
      std::count_if(program.ops.begin(), program.ops.end(), [](const acc::Op& op) { return op.kind == acc::OpKind::compute; }));
  return program.ops.size() + 2 * compute_ops + 3;
}

void write_chrome_trace(std::ostream& out, const TraceHeader& header, const wl::TrainingPlan& plan,
                        std::span<const std::uint32_t> devices, std::vector<acc::RecordedSpan> spans) {
  const wl::TrainingLayout& layout = plan.layout;
  const auto program_of = [&](std::uint32_t device) -> const acc::Program& { return plan.programs[layout.role_of(device)]; };
  std::stable_sort(spans.begin(), spans.end(), [&](const acc::RecordedSpan& a, const acc::RecordedSpan& b) {
    if (a.device != b.device) return a.device < b.device;
    const acc::Program& program = program_of(a.device);
    const std::uint8_t sa = stream_of(a, program), sb = stream_of(b, program);
    if (sa != sb) return sa < sb;
    return a.start != b.start ? a.start < b.start : a.end < b.end;
  });

  nlohmann::ordered_json other = {{"scenario", header.scenario},
                                  {"description", header.description},
                                  {"program", header.program},
                                  {"time_unit", "ts and dur in microseconds, exact to the picosecond"},
                                  {"devices_traced", devices.size()},
                                  {"iterations", header.iteration_ends.size()},
                                  {"iteration_ends_ps", header.iteration_ends}};
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":" << other.dump() << ",\n\"traceEvents\":[\n";

  fmt::memory_buffer line;
  bool first = true;
  const auto flush = [&] {
    if (!first) out << ",\n";
    first = false;
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
    line.clear();
  };
  std::map<std::uint32_t, std::vector<OpText>> texts;  // by role, for the roles traced
  auto span = spans.begin();
  for (const std::uint32_t device : devices) {
    const std::uint64_t pid = std::uint64_t{device} + 1;
    const acc::Program& program = program_of(device);
    auto [text, added] = texts.try_emplace(layout.role_of(device));
    if (added) text->second = op_texts(program);
    const std::vector<OpText>& op_text = text->second;

    fmt::format_to(std::back_inserter(line), R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":{}}}}})", pid,
                   json_string(device_title(layout, device, header.devices_per_node)));
    flush();
    fmt::format_to(std::back_inserter(line), R"({{"ph":"M","name":"process_sort_index","pid":{},"args":{{"sort_index":{}}}}})",
                   pid, device);
    flush();
    std::vector<bool> named(wl::kStreams, false);
    for (; span != spans.end() && span->device == device; ++span) {
      const std::uint8_t stream = stream_of(*span, program);
      const std::uint64_t tid = pid * kTidsPerDevice + stream;
      if (!named[stream]) {
        named[stream] = true;
        fmt::format_to(std::back_inserter(line), R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{}"}}}})",
                       pid, tid, wl::stream_name(stream));
        flush();
        fmt::format_to(std::back_inserter(line),
                       R"({{"ph":"M","name":"thread_sort_index","pid":{},"tid":{},"args":{{"sort_index":{}}}}})", pid, tid,
                       stream);
        flush();
      }
      fmt::format_to(std::back_inserter(line), R"({{"ph":"X","pid":{},"tid":{},"ts":)", pid, tid);
      append_microseconds(line, span->start);
      line.append(std::string_view(",\"dur\":"));
      append_microseconds(line, span->end - span->start);
      if (span->is_wait) {
        fmt::format_to(std::back_inserter(line), R"(,"name":"{}","cat":"wait","cname":"{}","args":{{"iteration":{})",
                       wait_name(span->cause), wait_colour(span->cause), span->iteration);
        if (span->op != acc::kNoOp) line.append(op_text[span->op].waited_for);
      } else {
        fmt::format_to(std::back_inserter(line), ",{},\"iteration\":{}", op_text[span->op].event, span->iteration);
      }
      line.append(std::string_view("}}"));
      flush();
    }
  }
  out << "\n]}\n";
}

}  // namespace rackscale::io

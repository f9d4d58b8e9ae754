// The hold model (Jones 1986; Rönngren and Ayani 1997): a queue of n pending events in steady
// state; each operation pops the first event and pushes one at its time plus a random increment.
// The time per iteration is the cost of one hold (one pop plus one push).
//
//   bench_event_queue [--benchmark_min_time=0.5] [--benchmark_filter=...]
//
// Distributions: "exp" increments are Exp(mean 1000 ps), the classic hold benchmark; "phold" are
// 100000 ps + Exp(mean 800000 ps), the shape of a PHOLD run with a lookahead-sized minimum delay.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "pdes/event_queue.hpp"

namespace rackscale::pdes {
namespace {

enum class Increments { kExponential, kPhold };

SimTime draw_increment(Increments kind, std::mt19937_64& rng) {
  if (kind == Increments::kExponential) {
    return static_cast<SimTime>(std::exponential_distribution<double>(1.0 / 1'000.0)(rng));
  }
  return 100'000 +
         static_cast<SimTime>(std::exponential_distribution<double>(1.0 / 800'000.0)(rng));
}

// Increments drawn before timing starts, so the timed loop measures the queue rather than the
// random generator and the logarithm (which together cost about as much as a small queue's hold).
class IncrementTable {
 public:
  IncrementTable(Increments kind, std::mt19937_64& rng) : values_(kSize) {
    for (auto& v : values_) v = static_cast<std::uint32_t>(draw_increment(kind, rng));
  }
  SimTime next() { return values_[next_++ & (kSize - 1)]; }

 private:
  // 4 MiB, read sequentially: the prefetcher hides it, and the sequence does not repeat within a
  // measurement of the smaller queues.
  static constexpr std::size_t kSize = std::size_t{1} << 20;
  std::vector<std::uint32_t> values_;
  std::size_t next_ = 0;
};

// One prefilled queue, kept between the runs Google Benchmark makes of the same benchmark while it
// settles the iteration count, so the (untimed but slow) prefill of 10^7 events happens once.
struct HoldSetup {
  std::string queue_name;
  std::size_t n = 0;
  Increments kind = Increments::kExponential;
  std::unique_ptr<EventQueue> queue;
  std::unique_ptr<IncrementTable> increments;
  std::uint64_t seq = 0;

  Event next_event(SimTime time) {
    Event e;
    e.time = time;
    ++seq;
    // Distinct (src, seq) per event, with sources spread like many LPs'.
    e.src = static_cast<LpId>((seq * 0x9E37'79B9'7F4A'7C15ULL) >> 44);
    e.dst = e.src;
    e.seq = seq;
    return e;
  }
  void hold() {
    Event e;
    queue->pop_before(kNever, e);
    queue->push(next_event(e.time + increments->next()));
  }
};

HoldSetup& prepared(const std::string& queue_name, std::size_t n, Increments kind) {
  static std::unique_ptr<HoldSetup> setup;
  if (setup && setup->queue_name == queue_name && setup->n == n && setup->kind == kind) {
    return *setup;
  }
  setup.reset();  // free the previous queue before building one that may be as large
  setup = std::make_unique<HoldSetup>();
  setup->queue_name = queue_name;
  setup->n = n;
  setup->kind = kind;
  setup->queue = make_event_queue(queue_name);
  std::mt19937_64 rng(0xB0'0000 + n);
  // Prefill times are i.i.d. increments after 0: the steady-state distribution of the hold model.
  for (std::size_t i = 0; i < n; ++i) {
    setup->queue->push(setup->next_event(draw_increment(kind, rng)));
  }
  setup->increments = std::make_unique<IncrementTable>(kind, rng);
  // Past the first reorganisation (a ladder's first Top transfer) so the measurement sees the
  // queue in its running shape.
  const std::size_t warmup = std::min<std::size_t>(n, 1'000'000);
  for (std::size_t i = 0; i < warmup; ++i) setup->hold();
  return *setup;
}

void hold_benchmark(benchmark::State& state, const std::string& queue_name, Increments kind) {
  HoldSetup& setup = prepared(queue_name, static_cast<std::size_t>(state.range(0)), kind);
  for (auto _ : state) setup.hold();
  state.SetItemsProcessed(state.iterations());
}

void register_all() {
  for (const auto& [label, kind] : {std::pair{"hold_exp", Increments::kExponential},
                                    std::pair{"hold_phold", Increments::kPhold}}) {
    for (const std::int64_t n : {1'000, 100'000, 10'000'000}) {
      for (const std::string& queue_name : event_queue_names()) {
        benchmark::RegisterBenchmark((std::string(label) + "/" + queue_name).c_str(),
                                     hold_benchmark, queue_name, kind)
            ->Arg(n)
            ->Unit(benchmark::kNanosecond);
      }
    }
  }
}

}  // namespace
}  // namespace rackscale::pdes

int main(int argc, char** argv) {
  rackscale::pdes::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

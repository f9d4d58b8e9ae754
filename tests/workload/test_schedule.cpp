// Pipeline schedules against Narayanan et al. 2021: 1F1B (Fig. 3) and interleaved 1F1B (Fig. 4), for 4
// stages and 8 micro-batches. Steps are written "F3" (forward of micro-batch 3) or, with two model
// chunks, "F3a" / "B3b" (chunk a = the device's first, b = its second).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/workload/pipeline_schedule.hpp"

namespace rackscale::models::workload::test {
namespace {

std::string order(std::uint32_t stages, std::uint32_t virtual_stages, std::uint64_t micro_batches,
                  std::uint32_t stage) {
  std::string out;
  for (const auto& s : pipeline_schedule(stages, virtual_stages, micro_batches, stage)) {
    if (!out.empty()) out += ' ';
    out += (s.forward ? 'F' : 'B') + std::to_string(s.micro_batch);
    if (virtual_stages > 1) out += static_cast<char>('a' + s.virtual_stage);
  }
  return out;
}

TEST(Schedule, OneFOneBForFourStagesAndEightMicroBatches) {
  // Stage s warms up with P - s - 1 forwards, alternates, then drains its backwards.
  EXPECT_EQ(order(4, 1, 8, 0), "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7");
  EXPECT_EQ(order(4, 1, 8, 1), "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7");
  EXPECT_EQ(order(4, 1, 8, 2), "F0 F1 B0 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 B7");
  EXPECT_EQ(order(4, 1, 8, 3), "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7");
  EXPECT_EQ(warmup_forwards(4, 1, 8, 0), 3u);
  // Fewer micro-batches than stages: every forward first.
  EXPECT_EQ(order(4, 1, 2, 0), "F0 F1 B0 B1");
}

TEST(Schedule, InterleavedForFourStagesTwoChunksEightMicroBatches) {
  // Forwards go in groups of P = 4 micro-batches per chunk (0-3 a, 0-3 b, 4-7 a, 4-7 b); backwards the
  // same with the chunks reversed. Warm-up (P - s - 1) x 2 + (V - 1) x P forwards: 10, 8, 6, 4.
  EXPECT_EQ(order(4, 2, 8, 0),
            "F0a F1a F2a F3a F0b F1b F2b F3b F4a F5a "
            "F6a B0b F7a B1b F4b B2b F5b B3b F6b B0a F7b B1a "
            "B2a B3a B4b B5b B6b B7b B4a B5a B6a B7a");
  EXPECT_EQ(order(4, 2, 8, 3),
            "F0a F1a F2a F3a "
            "F0b B0b F1b B1b F2b B2b F3b B3b F4a B0a F5a B1a F6a B2a F7a B3a F4b B4b F5b B5b F6b B6b F7b B7b "
            "B4a B5a B6a B7a");
  EXPECT_EQ(warmup_forwards(4, 2, 8, 1), 8u);
  EXPECT_EQ(warmup_forwards(4, 2, 8, 2), 6u);
  // Megatron-LM runs all forwards first when there are exactly P micro-batches.
  EXPECT_EQ(warmup_forwards(4, 2, 4, 3), 8u);
}

TEST(Schedule, EveryStepOnceForwardOnceBackwardAndForwardFirst) {
  for (std::uint32_t v : {1u, 2u, 4u})
    for (std::uint32_t s = 0; s < 4; ++s) {
      const auto steps = pipeline_schedule(4, v, 12, s);
      ASSERT_EQ(steps.size(), 2u * 12 * v);
      std::vector<int> state(12 * v, 0);  // 0 none, 1 forward done, 2 backward done
      for (const auto& step : steps) {
        int& st = state[step.micro_batch * v + step.virtual_stage];
        EXPECT_EQ(st, step.forward ? 0 : 1) << "stage " << s << " v " << v;
        st = step.forward ? 1 : 2;
      }
      for (const int st : state) EXPECT_EQ(st, 2);
    }
}

// The in-flight counts stand for the walk of the schedule: for any bytes per chunk, the peak of what a
// stage holds after its forward steps, and how many forwards it holds then, are the same from the counts
// (each distinct vector once, in first-occurrence order) as from walking every step; every 1F1B and
// interleaved schedule up to 8 stages, 4 chunks and 32 micro-batches, with bytes per chunk that differ.
TEST(Schedule, InFlightCountsGiveTheWalksPeak) {
  for (std::uint32_t p = 1; p <= 8; ++p)
    for (std::uint32_t v = 1; v <= (p > 1 ? 4u : 1u); ++v)
      for (std::uint64_t m = p; m <= 32; ++m) {
        if (v > 1 && m % p != 0) continue;
        for (std::uint32_t s = 0; s < p; ++s)
          for (const std::vector<std::uint64_t>& bytes :
               {std::vector<std::uint64_t>{5, 7, 11, 13}, std::vector<std::uint64_t>{13, 11, 7, 5},
                std::vector<std::uint64_t>{1, 1, 1, 1}}) {
            std::uint64_t held = 0, count = 0, peak = 0, peak_count = 0;
            for (const auto& step : pipeline_schedule(p, v, m, s)) {
              if (!step.forward) {
                held -= bytes[step.virtual_stage];
                --count;
                continue;
              }
              held += bytes[step.virtual_stage];
              ++count;
              if (held > peak) {
                peak = held;
                peak_count = count;
              }
            }
            const InFlightCounts& in_flight = in_flight_counts(p, v, m, s);
            ASSERT_EQ(in_flight.chunks, v);
            std::uint64_t from_counts = 0, from_counts_count = 0;
            for (std::size_t i = 0; i < in_flight.counts.size(); i += v) {
              std::uint64_t h = 0, c = 0;
              for (std::uint32_t k = 0; k < v; ++k) {
                h += in_flight.counts[i + k] * bytes[k];
                c += in_flight.counts[i + k];
              }
              if (h > from_counts) {
                from_counts = h;
                from_counts_count = c;
              }
            }
            EXPECT_EQ(from_counts, peak) << "P " << p << " V " << v << " m " << m << " stage " << s;
            EXPECT_EQ(from_counts_count, peak_count) << "P " << p << " V " << v << " m " << m << " stage " << s;
          }
      }
}

}  // namespace
}  // namespace rackscale::models::workload::test

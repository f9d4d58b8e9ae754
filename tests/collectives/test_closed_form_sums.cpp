// What a closed-form call charges to the ports is what its messages would send: the ring plans sum their
// steps' messages by formula (StepPlan::sum_sends), which must give the same messages, by size and count,
// as walking every step, for every member, channel, size and piece count.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "models/collectives/member_layout.hpp"
#include "models/collectives/ring.hpp"

namespace coll = rackscale::models::collectives;
namespace net = rackscale::models::network;
using rackscale::models::accelerator::CollectiveKind;

namespace {

// (destination, channel, bytes) -> messages.
using Tally = std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, std::uint64_t>;

Tally tally(const std::vector<coll::SentMessages>& sends) {
  Tally t;
  for (const auto& m : sends) t[{m.dst_device, m.channel, m.bytes}] += m.count;
  return t;
}

TEST(ClosedFormSums, RingSumsEqualTheWalkOfItsSteps) {
  for (const std::uint32_t nodes : {1u, 3u}) {
    net::ClusterSpec c;
    c.nodes = nodes;
    c.devices_per_node = 4;
    c.scale_up.kind = net::ScaleUpKind::nvswitch;
    c.scale_up.domain_devices = 4;
    for (const std::uint32_t p : {2u, 3u, 4u, 12u}) {
      if (p > c.nodes * 4) continue;
      std::vector<std::uint32_t> members(p);
      for (std::uint32_t i = 0; i < p; ++i) members[i] = i;
      const coll::MemberLayout layout = coll::analyse_members(c, members);
      for (const CollectiveKind kind : {CollectiveKind::all_reduce, CollectiveKind::reduce_scatter,
                                        CollectiveKind::all_gather})
        for (std::uint32_t rank = 0; rank < p; ++rank)
          for (const std::uint64_t data : {0ULL, 1ULL, 5ULL, 1000ULL, (1ULL << 20) + 3})
            for (const std::uint32_t pieces : {1u, 3u, 32u}) {
              SCOPED_TRACE(::testing::Message() << "nodes " << nodes << " p " << p << " kind "
                                                << static_cast<int>(kind) << " rank " << rank << " data " << data
                                                << " pieces " << pieces);
              const std::uint32_t channels = 2;
              const auto plan = coll::make_ring_plan(kind, layout, members, rank, channels);
              std::vector<coll::SentMessages> walked, summed;
              for (std::uint32_t ch = 0; ch < channels; ++ch) {
                for (std::uint32_t s = 0; s < plan->steps(); ++s) {
                  const coll::Step st = plan->step(s, ch, data);
                  coll::append_parts(walked, st.send_to, ch, st.send_bytes, pieces);
                }
                ASSERT_TRUE(plan->sum_sends(ch, data, pieces, summed));
              }
              EXPECT_EQ(tally(summed), tally(walked));
            }
    }
  }
}

}  // namespace

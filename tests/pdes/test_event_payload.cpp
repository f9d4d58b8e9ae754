// Typed payload records (pdes/event.hpp): a model's struct goes into an event and comes back unchanged,
// and a struct too big for the payload does not compile.
#include <gtest/gtest.h>

#include <cstdint>

#include "pdes/event.hpp"

namespace {

using rackscale::pdes::Event;
using rackscale::pdes::PayloadRecord;
using rackscale::pdes::to_payload;

struct Mixed {
  std::uint64_t id;
  std::uint32_t port;
  std::uint16_t units;
  std::uint8_t phase;
  double share;
};
struct TooBig {
  std::uint64_t words[5];
};

static_assert(PayloadRecord<Mixed>);
static_assert(PayloadRecord<std::uint32_t>);
static_assert(!PayloadRecord<TooBig>, "a record over 32 bytes must not fit in an event");

TEST(EventPayload, ARecordComesBackAsItWasSent) {
  const Mixed sent{0xFEDC'BA98'7654'3210ULL, 70'000, 513, 9, 0.375};
  Event event;
  event.payload = to_payload(sent);
  const auto back = event.as<Mixed>();
  EXPECT_EQ(back.id, sent.id);
  EXPECT_EQ(back.port, sent.port);
  EXPECT_EQ(back.units, sent.units);
  EXPECT_EQ(back.phase, sent.phase);
  EXPECT_EQ(back.share, sent.share);
  // The first word is the record's first member, as the engine's checkpoint and traces see it.
  EXPECT_EQ(event.payload[0], sent.id);
}

}  // namespace

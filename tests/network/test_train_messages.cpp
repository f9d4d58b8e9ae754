// TrainMessages (src/models/network/train_messages.hpp): a node's train records by message id, held to a
// std::unordered_map over random inserts, look-ups and erasures, with colliding ids and records that must
// stay where they are while others come and go.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "models/network/message.hpp"
#include "models/network/train_messages.hpp"

namespace rackscale::models::network {
namespace {

struct Record {
  std::uint64_t value = 0;
  std::vector<int> cuts;  // a member that owns memory, like TrainMessage's
};

TEST(TrainMessages, AgreesWithAnUnorderedMapOverRandomInsertsLookUpsAndErasures) {
  TrainMessages<Record> table;
  std::unordered_map<MessageId, std::uint64_t> expected;
  std::mt19937_64 random(23);
  // Few senders and tags: ids repeat (erased, then reused) and clusters form and are shifted back.
  std::vector<MessageId> ids;
  for (std::uint32_t device = 0; device < 40; ++device)
    for (std::uint64_t tag = 0; tag < 50; ++tag) ids.push_back(make_message_id(device, tag));
  for (int step = 0; step < 200'000; ++step) {
    const MessageId id = ids[random() % ids.size()];
    switch (random() % 3) {
      case 0: {
        Record& record = table[id];
        if (!expected.contains(id)) {
          EXPECT_EQ(record.value, 0u) << "a new record is value-initialised, also a reused one";
          EXPECT_TRUE(record.cuts.empty());
        }
        record.value = random();
        record.cuts.assign(record.value % 4, 1);
        expected[id] = record.value;
        break;
      }
      case 1: {
        const Record* record = table.find(id);
        const auto it = expected.find(id);
        ASSERT_EQ(record != nullptr, it != expected.end()) << "step " << step;
        if (record != nullptr) {
          EXPECT_EQ(record->value, it->second);
        }
        break;
      }
      default:
        table.erase(id);
        expected.erase(id);
    }
    ASSERT_EQ(table.size(), expected.size()) << "step " << step;
  }
  for (const auto& [id, value] : expected) {
    const Record* record = table.find(id);
    ASSERT_NE(record, nullptr);
    EXPECT_EQ(record->value, value);
  }
}

TEST(TrainMessages, RecordsStayWhereTheyAreWhileOthersAreAddedAndErased) {
  TrainMessages<Record> table;
  Record& kept = table[make_message_id(7, 3)];
  kept.value = 42;
  for (std::uint64_t tag = 0; tag < 10'000; ++tag) table[make_message_id(1, tag)].value = tag;  // grows many times
  for (std::uint64_t tag = 0; tag < 10'000; tag += 2) table.erase(make_message_id(1, tag));
  EXPECT_EQ(&kept, table.find(make_message_id(7, 3)));
  EXPECT_EQ(kept.value, 42u);
  EXPECT_EQ(table.size(), 5'001u);
  for (std::uint64_t tag = 1; tag < 10'000; tag += 2) {
    const Record* record = table.find(make_message_id(1, tag));
    ASSERT_NE(record, nullptr) << tag;
    EXPECT_EQ(record->value, tag);
  }
}

TEST(TrainMessages, ErasingAnIdItDoesNotHoldChangesNothing) {
  TrainMessages<Record> table;
  table.erase(5);  // empty table
  table[make_message_id(2, 9)].value = 1;
  table.erase(make_message_id(2, 8));
  EXPECT_EQ(table.size(), 1u);
  const Record* kept = table.find(make_message_id(2, 9));
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->value, 1u);
  EXPECT_EQ(table.find(make_message_id(2, 8)), nullptr);
}

}  // namespace
}  // namespace rackscale::models::network

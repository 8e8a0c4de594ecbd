// The Photo tab's question as spec §6 asks it: the disks chosen by name, the template the range
// is measured with, and nothing asked until the question is whole.

#include <gtest/gtest.h>

#include "tests/ui/photo_test_registry.h"
#include "ui/photo_question.h"

namespace diskref::ui {
namespace {

TEST(PhotoQuestion, ARangeIsAskedWithItsTemplate) {
  PhotoQuestion q;
  q.a = "enterprise";
  q.b = "ktinga";
  q.range_template = {100.0, 20.0};
  std::string missing;
  const std::optional<nlohmann::json> j = photo_questions_json(q, missing);
  ASSERT_TRUE(j) << missing;
  EXPECT_EQ(*j, nlohmann::json::parse(R"([{"id": "q1", "range": {"from": "enterprise", "to": "ktinga",
                                           "template": {"length_mm": 100.0, "width_mm": 20.0}}}])"));
  EXPECT_TRUE(missing.empty());
}

TEST(PhotoQuestion, OverlapAndMoveAreAskedAsSpecSixSays) {
  PhotoQuestion q;
  q.kind = PhotoQuestion::Kind::overlap;
  q.a = "a";
  q.b = "b";
  std::string missing;
  EXPECT_EQ(*photo_questions_json(q, missing),
            nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "a", "b": "b"}}])"));
  q.kind = PhotoQuestion::Kind::move;
  q.flips = 2;
  EXPECT_EQ(*photo_questions_json(q, missing),
            nlohmann::json::parse(R"([{"id": "q1", "move": {"disk": "a", "flips": 2}}])"));
  EXPECT_EQ(question_text(q), "move a 2 flips");
}

TEST(PhotoQuestion, AnUnfinishedQuestionSaysWhatIsMissing) {
  PhotoQuestion q;
  std::string missing;
  EXPECT_FALSE(photo_questions_json(q, missing));
  EXPECT_EQ(missing, "choose disk A");
  q.a = "a";
  EXPECT_FALSE(photo_questions_json(q, missing));
  EXPECT_EQ(missing, "choose disk B");
  q.b = "a";
  EXPECT_FALSE(photo_questions_json(q, missing));
  EXPECT_EQ(missing, "choose two different disks");
  q.kind = PhotoQuestion::Kind::move;
  q.a.reset();
  EXPECT_FALSE(photo_questions_json(q, missing));
  EXPECT_EQ(missing, "choose the ship that flips");
}

TEST(PhotoQuestion, TheDisksToChooseAreThoseThePhotoShows) {
  const model::DiskRegistry registry = testing::photo_test_registry();
  // Before a photo: the registry's, in its order.
  EXPECT_EQ(question_disk_choices(registry, std::nullopt, false),
            (std::vector<std::string>{"enterprise", "ktinga", "torpedo-1"}));
  EXPECT_EQ(question_disk_choices(registry, std::nullopt, true), (std::vector<std::string>{"enterprise", "ktinga"}));
  // After: those seen, in the photo's order, names not in the registry left out.
  const std::vector<std::string> seen{"torpedo-1", "ktinga", "stranger"};
  EXPECT_EQ(question_disk_choices(registry, seen, false), (std::vector<std::string>{"torpedo-1", "ktinga"}));
  EXPECT_EQ(question_disk_choices(registry, seen, true), (std::vector<std::string>{"ktinga"}));
}

}  // namespace
}  // namespace diskref::ui

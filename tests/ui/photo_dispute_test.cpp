// The Photo tab's state: a photo opened is ruled on at once (with the question when it is whole),
// a question chosen afterwards asks the kept photo again, the disks to choose are those seen, and
// a file that is not there is said at once.

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/ui/photo_test_registry.h"
#include "ui/photo_dispute.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

struct Rig {
  model::DiskRegistry registry = testing::photo_test_registry();
  std::vector<nlohmann::json> asked;  // only the worker's thread writes it; read after wait_for
  PhotoWorker worker{
      [](const fs::path& f) {
        photo::Photo p;
        p.image = cv::Mat(20, 20, CV_8UC3);
        p.source = f.string();
        return p;
      },
      [this](const photo::Photo&, const nlohmann::json& q) {
        asked.push_back(q);
        photo::PhotoRuling r;
        r.answer = {{"disks", {{{"name", "ktinga"}}, {{"name", "torpedo-1"}}}},
                    {"unseen", {"enterprise"}},
                    {"answers",
                     {{{"id", "q1"}, {"overlap", false}, {"separation_mm", 4.0}, {"sigma_mm", 0.5}, {"call", "no"}}}}};
        return r;
      },
      0};
  PhotoDispute dispute{registry, {{"rules", {88.9, 25.4}}, {"long", {120.0, 25.4}}}, worker};
  // Its own name: CTest runs the tests side by side, and each Rig removes its photo at the end.
  fs::path photo = fs::temp_directory_path() / ("diskref-photo-dispute-" + std::to_string(::getpid()) + ".jpg");
  Rig() { std::ofstream(photo) << "not read by the fake"; }
  ~Rig() { fs::remove(photo); }
  void settle() {
    worker.wait_for(dispute.last_request());
    dispute.refresh();
  }
};

TEST(PhotoDispute, AFileThatIsNotThereIsSaidAtOnce) {
  Rig rig;
  rig.dispute.open("/no/such/photo.jpg");
  EXPECT_EQ(rig.dispute.problem(), "/no/such/photo.jpg: no such file");
  EXPECT_FALSE(rig.dispute.busy());
  rig.dispute.open("");
  EXPECT_EQ(rig.dispute.problem(), "name a photo (or drop one on the window)");
}

TEST(PhotoDispute, APhotoOpenedWithoutAQuestionShowsItsDisksAndTheQuestionIsAskedWhenWhole) {
  Rig rig;
  rig.dispute.open(rig.photo);
  EXPECT_TRUE(rig.dispute.busy());
  EXPECT_EQ(rig.dispute.path_typed(), rig.photo.string());
  rig.settle();
  EXPECT_FALSE(rig.dispute.busy());
  ASSERT_EQ(rig.asked.size(), 1u);
  EXPECT_EQ(rig.asked[0], nlohmann::json::array());  // no question yet: the disks alone
  EXPECT_EQ(rig.dispute.question_missing(), "choose disk A");
  // The disks to choose: those seen.
  EXPECT_EQ(rig.dispute.disk_choices(false), (std::vector<std::string>{"ktinga", "torpedo-1"}));
  EXPECT_EQ(rig.dispute.disk_choices(true), (std::vector<std::string>{"ktinga"}));
  EXPECT_EQ(rig.dispute.shown().unseen, std::vector<std::string>{"enterprise"});

  rig.dispute.question().kind = PhotoQuestion::Kind::overlap;
  rig.dispute.question().a = "ktinga";
  rig.dispute.question_changed();  // not whole: not asked
  EXPECT_FALSE(rig.dispute.busy());
  rig.dispute.question().b = "torpedo-1";
  rig.dispute.question_changed();
  EXPECT_TRUE(rig.dispute.busy());
  rig.settle();
  ASSERT_EQ(rig.asked.size(), 2u);
  EXPECT_EQ(rig.asked[1], nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "ktinga", "b": "torpedo-1"}}])"));
  EXPECT_TRUE(rig.dispute.answers_current_question());
  ASSERT_EQ(rig.dispute.shown().answers.size(), 1u);
  EXPECT_EQ(rig.dispute.shown().answers[0].headline, "NOT OVERLAPPING");
  // The same question again is not asked again.
  rig.dispute.question_changed();
  EXPECT_FALSE(rig.dispute.busy());
}

TEST(PhotoDispute, ARangeIsMeasuredWithTheTemplateChosen) {
  Rig rig;
  rig.dispute.question().a = "ktinga";
  rig.dispute.question().b = "torpedo-1";
  rig.dispute.template_index() = 1;
  rig.dispute.open(rig.photo);
  rig.settle();
  ASSERT_EQ(rig.asked.size(), 1u);
  EXPECT_EQ(rig.asked[0][0].at("range").at("template").at("length_mm"), 120.0);
  EXPECT_EQ(question_text(rig.dispute.question()), "range ktinga to torpedo-1 (long)");
}

}  // namespace
}  // namespace diskref::ui

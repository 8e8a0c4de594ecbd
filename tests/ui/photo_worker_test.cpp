// The Photo tab's worker: the screen asks and never waits; a photo is read once for any number of
// questions; a refused photo is said in words; of requests made while one is under way only the
// newest is done. The reading and ruling are fakes held at a gate, so that every test waits on a
// condition, never on a clock.

#include <atomic>
#include <future>
#include <mutex>

#include <gtest/gtest.h>

#include "engine/io/input_error.h"
#include "ui/photo_worker.h"

namespace diskref::ui {
namespace {

// A reading that says when it has started and waits to be let go.
struct Gate {
  std::promise<void> entered;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
};

struct Fakes {
  std::atomic<int> loads{0};
  std::atomic<int> rulings{0};
  std::mutex mutex;
  Gate* gate = nullptr;  // the next load waits here

  PhotoWorker::Load load() {
    return [this](const std::filesystem::path& file) {
      ++loads;
      Gate* g = nullptr;
      {
        std::lock_guard lock(mutex);
        std::swap(g, gate);
      }
      if (g != nullptr) {
        g->entered.set_value();
        g->released.wait();
      }
      if (file.extension() == ".txt")
        throw photo::PhotoRefused(file.filename().string() + ": not an image (JPEG, PNG or WebP)");
      photo::Photo p;
      p.image = cv::Mat(30, 40, CV_8UC3, cv::Scalar(90, 90, 90));
      p.source = file.string();
      return p;
    };
  }
  PhotoWorker::Rule rule() {
    return [this](const photo::Photo& p, const nlohmann::json& questions) {
      ++rulings;
      for (const nlohmann::json& q : questions)
        if (q.contains("overlap") && q.at("overlap").at("a") == "nosuch")
          throw io::InputError("", "questions[0].overlap.a", "no disk named \"nosuch\" in the disk registry");
      photo::PhotoRuling r;
      r.answer = {{"photo", {{"source", p.source}}}, {"answers", questions}};
      r.annotated = p.image.clone();
      return r;
    };
  }
};

TEST(PhotoWorker, OpeningReturnsAtOnceAndTheStageSaysReading) {
  Fakes f;
  Gate gate;
  f.gate = &gate;
  PhotoWorker w(f.load(), f.rule(), 0);
  const std::uint64_t r = w.open("table.jpg", nlohmann::json::array());  // returns while the reading waits at the gate
  gate.entered.get_future().wait();
  const PhotoWorkStatus s = w.status();
  EXPECT_EQ(s.stage, PhotoStage::reading);
  EXPECT_EQ(s.file, "table.jpg");
  EXPECT_EQ(s.step, 1);
  EXPECT_EQ(w.latest(), nullptr);
  EXPECT_STREQ(stage_text(s.stage), "reading the photo...");
  gate.release.set_value();
  const auto out = w.wait_for(r);
  ASSERT_TRUE(out->ruling);
  EXPECT_EQ(out->request, r);
  EXPECT_EQ(out->ruling->answer.at("photo").at("source"), "table.jpg");
  EXPECT_EQ(w.status().stage, PhotoStage::idle);
  EXPECT_EQ(out->preview.size(), cv::Size(40, 30));  // small already: shown as it is
}

TEST(PhotoWorker, ALargePhotoIsShownShrunkToThePreviewSide) {
  Fakes f;
  PhotoWorker w(
      [](const std::filesystem::path&) {
        photo::Photo p;
        p.image = cv::Mat(3000, 4000, CV_8UC3, cv::Scalar(0, 0, 255));
        return p;
      },
      f.rule(), 0);
  const auto out = w.wait_for(w.open("big.jpg", nlohmann::json::array()));
  EXPECT_EQ(out->photo_size, cv::Size(4000, 3000));
  EXPECT_EQ(out->preview.cols, kPreviewSide);
  EXPECT_EQ(out->preview.rows, 1536);
  EXPECT_EQ(out->preview.at<cv::Vec3b>(700, 1000), cv::Vec3b(0, 0, 255));
}

TEST(PhotoWorker, AnotherQuestionOnTheSamePhotoDoesNotReadItAgain) {
  Fakes f;
  PhotoWorker w(f.load(), f.rule(), 0);
  w.wait_for(w.open("table.jpg", nlohmann::json::array()));
  const nlohmann::json q = nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "x", "b": "y"}}])");
  const auto out = w.wait_for(w.ask(q));
  ASSERT_TRUE(out->ruling);
  EXPECT_EQ(nlohmann::json(out->ruling->answer.at("answers")), q);
  EXPECT_EQ(f.loads, 1);
  EXPECT_EQ(f.rulings, 2);
  // Another photo is read.
  w.wait_for(w.open("other.jpg", q));
  EXPECT_EQ(f.loads, 2);
}

TEST(PhotoWorker, ARefusedPhotoAndABadQuestionAreSaidInWords) {
  Fakes f;
  PhotoWorker w(f.load(), f.rule(), 0);
  auto out = w.wait_for(w.open("notes.txt", nlohmann::json::array()));
  EXPECT_FALSE(out->ruling);
  EXPECT_EQ(out->refusal, "notes.txt: not an image (JPEG, PNG or WebP)");
  out =
      w.wait_for(w.open("table.jpg", nlohmann::json::parse(R"([{"id": "q1", "overlap": {"a": "nosuch", "b": "y"}}])")));
  EXPECT_FALSE(out->ruling);
  EXPECT_NE(out->refusal.find("no disk named \"nosuch\""), std::string::npos) << out->refusal;
}

TEST(PhotoWorker, OfTheRequestsMadeMeanwhileOnlyTheNewestIsDone) {
  Fakes f;
  Gate gate;
  f.gate = &gate;
  PhotoWorker w(f.load(), f.rule(), 0);
  w.open("first.jpg", nlohmann::json::array());
  gate.entered.get_future().wait();
  w.open("second.jpg", nlohmann::json::array());
  const std::uint64_t last = w.open("third.jpg", nlohmann::json::array());
  EXPECT_TRUE(w.status().queued);
  gate.release.set_value();
  const auto out = w.wait_for(last);
  EXPECT_EQ(out->file, "third.jpg");
  EXPECT_EQ(f.loads, 2);  // first and third: second was replaced before it was started
}

TEST(PhotoWorker, ClosingWhileReadingWaitsForTheReadingAndEnds) {
  Fakes f;
  Gate gate;
  f.gate = &gate;
  auto w = std::make_unique<PhotoWorker>(f.load(), f.rule(), 0);
  w->open("table.jpg", nlohmann::json::array());
  gate.entered.get_future().wait();
  gate.release.set_value();
  w.reset();  // joins; must not hang nor touch freed state
  EXPECT_EQ(f.loads, 1);
}

}  // namespace
}  // namespace diskref::ui

#include "ui/source_worker.h"

#include <atomic>

#include <gtest/gtest.h>

#include "tests/referee/test_table.h"
#include "tests/support/becomes_true.h"

namespace diskref::ui {
namespace {

// A video of `count` frames at 30 fps whose images are 1x1 with the frame index as their value.
class CountingFeed : public vision::FrameSource {
 public:
  explicit CountingFeed(long long count) : count_(count) {}
  std::optional<vision::Frame> next() override {
    if (pos_ >= count_) return std::nullopt;
    vision::Frame out;
    out.image = cv::Mat(1, 1, CV_8UC3, cv::Scalar::all(static_cast<double>(pos_ % 256)));
    out.index = pos_;
    out.t = static_cast<double>(pos_) / 30.0;
    ++pos_;
    return out;
  }
  bool can_seek() const override { return true; }
  void seek(long long index) override { pos_ = std::clamp(index, 0LL, count_); }
  std::optional<long long> frame_count() const override { return count_; }
  double frames_per_second() const override { return 30; }
  long long corrupt_frames_skipped() const override { return 0; }
  cv::Size frame_size() const override { return {1, 1}; }
  std::string description() const override { return "counting"; }

 private:
  long long count_;
  long long pos_ = 0;
};

// Tracks: enterprise visible on every frame but hidden (stale) on frames 5..6.
class FakeTracker : public TrackProducer {
 public:
  explicit FakeTracker(std::atomic<int>* restarts) : restarts_(restarts) {}
  TrackResult process(const SourceFrame& f) override {
    TrackResult r;
    model::TrackFrame t = referee::testing::spec_example_frame();
    t.frame = f.index;
    t.t = f.t;
    if (f.index >= 5 && f.index <= 6) t.disks[0].state = model::TrackState::stale;
    r.frame = t;
    r.camera_moved = f.index == 4;  // the table monitor re-located the camera once
    return r;
  }
  void restart() override { ++*restarts_; }
  std::string describe() const override { return "fake"; }

 private:
  std::atomic<int>* restarts_;
};

// The screen's way of following the worker: it takes the newest snapshot when it likes, and the
// worker offers nothing to wait on; a test asks until what it waits for is shown.
using diskref::testing::becomes_true;

TEST(SourceWorkerTest, StopsAfterTheAskedFrameAndHooksEveryFrame) {
  std::atomic<int> restarts{0};
  std::vector<long long> hooked;
  std::mutex m;
  WorkerOptions o;
  o.realtime = false;
  o.stop_after = 9;
  SourceWorker w(std::make_unique<CountingFeed>(100), std::make_unique<FakeTracker>(&restarts), o,
                 [&](const TrackResult& r, const SourceFrame&) {
                   std::lock_guard lock(m);
                   hooked.push_back(r.frame ? r.frame->frame : -1);  // -1: a frame hooked without its track
                 });
  ASSERT_TRUE(becomes_true([&] { return w.latest() && w.latest()->source.index == 9 && w.paused(); }));
  // Paused after frame 9: one step shows frame 10 and no other (a worker that ran on would be past it).
  w.step();
  ASSERT_TRUE(becomes_true([&] { return w.latest()->source.index >= 10; }));
  EXPECT_EQ(w.latest()->source.index, 10) << "paused after frame 9, then one step";
  std::lock_guard lock(m);
  ASSERT_EQ(hooked.size(), 11u) << "the recorder's hook sees every frame, even those the screen skipped";
  for (long long i = 0; i < 11; ++i) EXPECT_EQ(hooked[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(w.stats().frames_processed, 11);
}

TEST(SourceWorkerTest, EventsOfEveryFrameReachTheScreen) {
  std::atomic<int> restarts{0};
  WorkerOptions o;
  o.realtime = false;
  o.stop_after = 9;
  SourceWorker w(std::make_unique<CountingFeed>(100), std::make_unique<FakeTracker>(&restarts), o);
  ASSERT_TRUE(becomes_true([&] { return w.paused() && w.latest() && w.latest()->source.index == 9; }));
  std::vector<Event> e = w.take_events();
  std::vector<std::string> t;
  for (const Event& ev : e) t.push_back(std::to_string(ev.frame).append(" ").append(ev.text));
  // appeared x2 on frame 0, hidden on 5, seen again on 7.
  ASSERT_EQ(e.size(), 4u) << ::testing::PrintToString(t);
  EXPECT_EQ(e[2].frame, 5);
  EXPECT_EQ(e[3].frame, 7);
  EXPECT_TRUE(w.take_events().empty()) << "taken once";
}

TEST(SourceWorkerTest, ACameraMoveIsKeptInLaterSnapshotsForAScreenThatSkippedItsFrame) {
  std::atomic<int> restarts{0};
  WorkerOptions o;
  o.realtime = false;
  o.stop_after = 9;
  SourceWorker w(std::make_unique<CountingFeed>(100), std::make_unique<FakeTracker>(&restarts), o);
  ASSERT_TRUE(becomes_true([&] { return w.paused() && w.latest() && w.latest()->source.index == 9; }));
  // The screen saw only frame 9; frame 4 said the camera moved.
  std::shared_ptr<const Snapshot> last = w.latest();
  EXPECT_FALSE(last->result.camera_moved);
  ASSERT_TRUE(last->camera_moved_t.has_value());
  EXPECT_DOUBLE_EQ(*last->camera_moved_t, 4 / 30.0);
}

TEST(SourceWorkerTest, StepSeekAndEnd) {
  std::atomic<int> restarts{0};
  WorkerOptions o;
  o.realtime = false;
  o.start_paused = true;
  SourceWorker w(std::make_unique<CountingFeed>(20), std::make_unique<FakeTracker>(&restarts), o);
  ASSERT_TRUE(becomes_true([&] { return w.latest() && w.latest()->source.index == 0; })) << "paused on the first frame";
  w.step();
  ASSERT_TRUE(becomes_true([&] { return w.latest()->source.index >= 1; }));
  EXPECT_EQ(w.latest()->source.index, 1) << "paused on the first frame and only that one, then one step";
  w.seek(15);
  ASSERT_TRUE(becomes_true([&] { return w.latest()->source.index == 15; }));
  EXPECT_EQ(restarts.load(), 1) << "the tracker is told the frames no longer follow";
  w.set_paused(false);
  ASSERT_TRUE(becomes_true([&] { return w.stats().at_end; }));
  EXPECT_EQ(w.latest()->source.index, 19);
}

TEST(SourceWorkerTest, RealTimePlaybackShowsEveryFrameInOrderAndTakesANewSpeed) {
  // When each frame is due is PlaybackSchedule's (tests/pipeline/playback_schedule_test.cpp, with
  // numbers); here the worker plays 0.2 s of video in real time through it, frame by frame.
  std::atomic<int> restarts{0};
  std::vector<long long> hooked;
  std::mutex m;
  WorkerOptions o;
  o.realtime = true;
  o.stop_after = 6;
  SourceWorker w(std::make_unique<CountingFeed>(100), std::make_unique<FakeTracker>(&restarts), o,
                 [&](const TrackResult& r, const SourceFrame&) {
                   std::lock_guard lock(m);
                   hooked.push_back(r.frame ? r.frame->frame : -1);  // -1: a frame hooked without its track
                 });
  ASSERT_TRUE(becomes_true([&] { return w.paused() && w.latest() && w.latest()->source.index == 6; }));
  {
    std::lock_guard lock(m);
    EXPECT_EQ(hooked, (std::vector<long long>{0, 1, 2, 3, 4, 5, 6}));
  }
  w.set_speed(2.0);
  EXPECT_DOUBLE_EQ(w.speed(), 2.0);
}

}  // namespace
}  // namespace diskref::ui

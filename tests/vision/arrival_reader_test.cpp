// A network camera read on a thread of its own (vision/arrival_reader.h), through a stream the test
// feeds by hand: a frame is timed when it arrives, not when the consumer gets to it; a consumer
// behind gets the newest frames and the ones it missed are counted; a failed read comes in its
// turn. The clock is the test's and moves only while the reader is idle: nothing sleeps.
#include "vision/arrival_reader.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>

#include <gtest/gtest.h>

#include "tests/vision/fake_v4l2_device.h"
#include "vision/live_camera.h"

namespace diskref::vision {
namespace {

using testing::ManualClock;

// What the test sends down the wire: a frame (its grey level names it), a failed read, or a read
// that throws.
struct Sent {
  std::optional<int> level;
  bool throws = false;
};

// The wire, shared by the test and the stream it feeds.
class Wire {
 public:
  explicit Wire(std::shared_ptr<ManualClock> clock) : clock_(std::move(clock)) {}

  void send(int level) { push({level}); }
  void fail() { push({std::nullopt}); }
  void break_down() { push({std::nullopt, true}); }
  // Every read from now on fails at once (the reader can then be destroyed).
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }
  // Waits until everything sent has been read and the next read has begun: the reader is idle.
  void wait_until_idle() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return sent_.empty() && waiting_reads_ > 0; });
  }
  // Waits until `n` reads have returned.
  void wait_until_read(int n) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this, n] { return reads_done_ >= n; });
  }
  std::size_t unread() {
    std::lock_guard lock(mutex_);
    return sent_.size();
  }

  std::optional<StreamFrame> read() {
    std::unique_lock lock(mutex_);
    ++waiting_reads_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return closed_ || !sent_.empty(); });
    --waiting_reads_;
    ++reads_done_;
    changed_.notify_all();
    if (sent_.empty()) return std::nullopt;
    const Sent s = sent_.front();
    sent_.pop_front();
    if (s.throws) throw std::runtime_error("the decoder broke");
    if (!s.level) return std::nullopt;
    // Timed when it is received, as a network stream times it.
    return StreamFrame{cv::Mat(4, 4, CV_8UC1, cv::Scalar(*s.level)), clock_->now(), 0};
  }

 private:
  void push(Sent s) {
    std::lock_guard lock(mutex_);
    sent_.push_back(s);
    changed_.notify_all();
  }

  std::shared_ptr<ManualClock> clock_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Sent> sent_;
  int waiting_reads_ = 0;
  int reads_done_ = 0;
  bool closed_ = false;
};

class WireStream final : public LiveStream {
 public:
  explicit WireStream(std::shared_ptr<Wire> wire) : wire_(std::move(wire)) {}
  std::optional<StreamFrame> read() override { return wire_->read(); }
  cv::Size size() const override { return {4, 4}; }
  double nominal_fps() const override { return 0; }  // an MJPEG stream over HTTP says none
  std::vector<std::string> notes() const override { return {"a hand-fed stream"}; }

 private:
  std::shared_ptr<Wire> wire_;
};

// Closes the wire when the test ends, however it ends, before the reader reading it goes.
struct ClosedAtExit {
  std::shared_ptr<Wire> wire;
  ~ClosedAtExit() { wire->close(); }
};

int level(const StreamFrame& f) {
  return f.image.at<unsigned char>(0, 0);
}

// The clock, the wire and the reader, the wire closed before the reader goes (its thread may be
// waiting for a frame).
struct WireRig {
  explicit WireRig(std::size_t depth) : reader(read_on_arrival(std::make_unique<WireStream>(wire), depth)) {}
  ~WireRig() { wire->close(); }

  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  std::shared_ptr<Wire> wire = std::make_shared<Wire>(clock);
  std::unique_ptr<LiveStream> reader;
};

TEST(ArrivalReader, AFrameIsTimedWhenItArrivesNotWhenItIsTaken) {
  WireRig rig(8);
  rig.clock->t = 10.0;
  rig.wire->send(1);
  rig.wire->wait_until_idle();
  rig.clock->t = 11.5;  // the consumer was busy for 1.5 s
  const std::optional<StreamFrame> f = rig.reader->read();
  ASSERT_TRUE(f);
  EXPECT_EQ(level(*f), 1);
  EXPECT_DOUBLE_EQ(f->time, 10.0);
  EXPECT_EQ(f->dropped_before, 0);
}

TEST(ArrivalReader, AConsumerBehindGetsTheNewestFramesAndTheOnesDroppedAreCounted) {
  WireRig rig(3);
  for (int i = 0; i < 10; ++i) {
    rig.clock->t = 10.0 + i / 30.0;
    rig.wire->send(i);
    rig.wire->wait_until_idle();
  }
  std::vector<int> levels;
  std::vector<long long> dropped;
  std::vector<double> times;
  for (int i = 0; i < 3; ++i) {
    const std::optional<StreamFrame> f = rig.reader->read();
    ASSERT_TRUE(f);
    levels.push_back(level(*f));
    dropped.push_back(f->dropped_before);
    times.push_back(f->time);
  }
  EXPECT_EQ(levels, (std::vector<int>{7, 8, 9}));
  EXPECT_EQ(dropped, (std::vector<long long>{7, 0, 0}));
  EXPECT_DOUBLE_EQ(times[0], 10.0 + 7 / 30.0);
  EXPECT_DOUBLE_EQ(times[2], 10.0 + 9 / 30.0);
}

TEST(ArrivalReader, AFailedReadComesInItsTurnAndReadingGoesOnOnceItIsTaken) {
  WireRig rig(8);
  rig.wire->send(1);
  rig.wire->fail();
  rig.wire->send(2);
  ASSERT_EQ(level(*rig.reader->read()), 1);
  EXPECT_FALSE(rig.reader->read());
  const std::optional<StreamFrame> after = rig.reader->read();
  ASSERT_TRUE(after);
  EXPECT_EQ(level(*after), 2);
}

TEST(ArrivalReader, WhatTheStreamThrowsReachesTheConsumerAfterTheFramesBeforeIt) {
  WireRig rig(8);
  rig.wire->send(1);
  rig.wire->break_down();
  const std::optional<StreamFrame> before = rig.reader->read();
  ASSERT_TRUE(before);
  EXPECT_EQ(level(*before), 1);
  EXPECT_THROW(
      {
        try {
          rig.reader->read();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "the decoder broke");
          throw;
        }
      },
      std::runtime_error);
}

// Dropped while the consumer takes the failure: the frames sent after a failed read wait on the
// wire until the consumer has taken it, so a connection the consumer gives up on is read no more.
TEST(ArrivalReader, NothingIsReadAfterAFailureTheConsumerHasNotTaken) {
  auto rig = std::make_unique<WireRig>(8);
  rig->wire->fail();
  std::shared_ptr<Wire> wire = rig->wire;
  // The failure taken by the reader: the wire's read is over and the failure waits to be taken.
  // Whatever is sent now stays on the wire until then.
  rig->wire->wait_until_read(1);
  rig->wire->send(1);
  rig->wire->send(2);
  rig.reset();  // the consumer gives up on the connection without reading
  EXPECT_EQ(wire->unread(), 2u);
}

TEST(ArrivalReader, ACameraSourceCountsTheFramesItsConsumerWasTooSlowFor) {
  auto clock = std::make_shared<ManualClock>();
  auto wire = std::make_shared<Wire>(clock);
  LiveCameraOptions options;
  options.clock = clock;
  LiveCameraSource source(
      "camera http://phone/video", [&] { return read_on_arrival(std::make_unique<WireStream>(wire), 3); }, options);
  const ClosedAtExit closed{wire};
  wire->send(0);
  const std::optional<Frame> first = source.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->index, 0);
  for (int i = 1; i <= 10; ++i) {
    clock->t += 1 / 30.0;
    wire->send(i);
    wire->wait_until_idle();
  }
  std::vector<long long> indices;
  for (int i = 0; i < 3; ++i) {
    const std::optional<Frame> f = source.next();
    ASSERT_TRUE(f);
    indices.push_back(f->index);
  }
  // Frames 1 to 7 arrived while the consumer was away and were dropped; 8, 9 and 10 keep their
  // numbers, so that an index stays a time.
  EXPECT_EQ(indices, (std::vector<long long>{8, 9, 10}));
  EXPECT_EQ(source.frames_lost(), 7);
  EXPECT_EQ(source.frames_dropped_behind(), 7);
}

// A stream that gives what the test wrote down, in order, then fails every read: no thread, so
// that the frames dropped before one (StreamFrame::dropped_before) are what the test says.
class ScriptedStream final : public LiveStream {
 public:
  using Script = std::deque<std::optional<StreamFrame>>;  // nullopt: a failed read
  ScriptedStream(std::shared_ptr<Script> script, double nominal_fps)
      : script_(std::move(script)), nominal_fps_(nominal_fps) {}
  std::optional<StreamFrame> read() override {
    if (script_->empty()) return std::nullopt;
    std::optional<StreamFrame> next = std::move(script_->front());
    script_->pop_front();
    return next;
  }
  cv::Size size() const override { return {4, 4}; }
  double nominal_fps() const override { return nominal_fps_; }
  std::vector<std::string> notes() const override { return {}; }

 private:
  std::shared_ptr<Script> script_;
  double nominal_fps_;
};

StreamFrame frame_at(double time, long long dropped_before) {
  return StreamFrame{cv::Mat(4, 4, CV_8UC1, cv::Scalar(0)), time, dropped_before};
}

// A camera of known rate (an RTSP stream's) back after a gap: the gap's frames are counted from its
// times, and those that arrived once it was back and were dropped before the first one taken are
// among them, not counted again.
TEST(ArrivalReader, FramesDroppedAsTheCameraComesBackAreCountedOnceWithTheGap) {
  auto script = std::make_shared<ScriptedStream::Script>();
  script->push_back(frame_at(0, 0));
  for (int i = 0; i < 3; ++i) script->push_back(std::nullopt);  // the third failed read drops the connection
  script->push_back(frame_at(1.0, 2));
  LiveCameraOptions options;
  options.clock = std::make_shared<ManualClock>();
  LiveCameraSource source(
      "camera rtsp://phone/video", [script] { return std::make_unique<ScriptedStream>(script, 30); }, options);
  const std::optional<Frame> first = source.next();
  ASSERT_TRUE(first);
  const std::optional<Frame> back = source.next();
  ASSERT_TRUE(back);
  ASSERT_EQ(source.gaps().size(), 1u);
  EXPECT_EQ(source.gaps()[0].frames_lost, 29) << "1 s at 30 frames/s: the frames between the two";
  EXPECT_EQ(back->index, 30) << "the frame 1 s after frame 0 at 30 frames/s";
  EXPECT_EQ(source.frames_lost(), 29);
  EXPECT_EQ(source.frames_dropped_behind(), 2) << "still said apart: the machine's doing";
}

}  // namespace
}  // namespace diskref::vision

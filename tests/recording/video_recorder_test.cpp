// The video a recording keeps (spec §11, DIR/video): frames written by VideoRecorder come back
// from RecordedVideo with their index, time and picture; segments rotate every segment_s of frame
// time; stills are written whole; a slow encoder drops frames instead of holding the caller up;
// a full disk stops the video loudly and keeps every frame written before it.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <optional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/input_error.h"
#include "recording/recorded_video.h"
#include "recording/video_recorder.h"
#include "tests/recording/child_report.h"
#include "tests/recording/video_test_support.h"
#include "tests/support/becomes_true.h"

namespace diskref::recording {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::mean_abs_diff;
using testing::scratch_folder;
using testing::test_picture;

VideoRecorderOptions roomy() {
  VideoRecorderOptions o;
  o.max_queued = 1000;  // these tests add faster than the encoder; none may be dropped
  o.max_queued_s = 1e9;
  return o;
}

TEST(VideoRecorder, FramesComeBackWithTheirIndexTimeAndPicture) {
  const fs::path dir = scratch_folder() / "video";
  {
    VideoRecorder rec(dir, roomy());
    for (long long i = 0; i < 150; ++i) rec.add(test_picture(i), 1000 + i, static_cast<double>(i) / 30.0);
    rec.finish();
    EXPECT_EQ(rec.frames_written(), 150);
    EXPECT_EQ(rec.frames_dropped(), 0);
    EXPECT_FALSE(rec.failed());
    EXPECT_EQ(rec.failure(), "");
  }
  const RecordedVideo video = RecordedVideo::open(dir);
  EXPECT_TRUE(video.warnings().empty()) << video.warnings().front();
  ASSERT_EQ(video.frames().size(), 150u);
  long long offset = 0;
  for (std::size_t i = 0; i < 150; ++i) {
    const RecordedVideoFrame& f = video.frames()[i];
    EXPECT_EQ(f.frame, 1000 + static_cast<long long>(i));
    EXPECT_EQ(f.t, static_cast<double>(i) / 30.0);  // full precision
    // 2 s of frame time a segment: 60 frames at 30 fps.
    EXPECT_EQ(f.segment, static_cast<int>(i / 60)) << i;
    if (i % 60 == 0) offset = 0;
    EXPECT_EQ(f.offset, offset) << i;  // one JPEG after another
    offset += f.bytes;
    if (i % 60 == 59 || i == 149) {
      EXPECT_EQ(static_cast<long long>(fs::file_size(video.segment_path(f.segment))), offset);
    }
  }
  for (std::size_t i : {0u, 59u, 60u, 77u, 149u}) {
    const cv::Mat image = video.read(i);
    ASSERT_EQ(image.type(), CV_8UC3);
    ASSERT_EQ(image.size(), cv::Size(160, 120));
    EXPECT_LT(mean_abs_diff(image, test_picture(static_cast<long long>(i))), 2.0) << i;
    // Not some other frame's picture.
    EXPECT_GT(mean_abs_diff(image, test_picture(static_cast<long long>(i) + 1)), 2.0) << i;
  }
  EXPECT_EQ(testing::slurp(dir / "frames.jsonl").substr(0, 43), "{\"frame\":1000,\"t\":0,\"segment\":0,\"offset\":0,");
  EXPECT_DOUBLE_EQ(video.duration_s(), 149.0 / 30.0);
  EXPECT_EQ(video.at_or_before(2.01), 60u);
  EXPECT_EQ(video.at_or_before(2.0), 60u);
  EXPECT_EQ(video.at_or_before(1.99), 59u);
  EXPECT_EQ(video.at_or_before(-0.01), std::nullopt);
  EXPECT_EQ(video.at_or_before(100.0), 149u);
}

TEST(VideoRecorder, AGreyPictureComesBackGrey) {
  const fs::path dir = scratch_folder() / "video";
  cv::Mat grey;
  cv::cvtColor(test_picture(3), grey, cv::COLOR_BGR2GRAY);
  {
    VideoRecorder rec(dir);
    rec.add(grey, 0, 0.0);
  }  // the destructor finishes
  const RecordedVideo video = RecordedVideo::open(dir);
  ASSERT_EQ(video.frames().size(), 1u);
  const cv::Mat image = video.read(0);
  ASSERT_EQ(image.type(), CV_8UC1);
  EXPECT_LT(mean_abs_diff(image, grey), 2.0);
}

TEST(VideoRecorder, ANewSegmentStartsWhenTheTimeGoesBack) {
  const fs::path dir = scratch_folder() / "video";
  {
    VideoRecorder rec(dir, roomy());
    for (long long i = 0; i < 10; ++i) rec.add(test_picture(i), i, 5.0 + static_cast<double>(i) / 30.0);
    for (long long i = 0; i < 10; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);  // a new source
  }
  const RecordedVideo video = RecordedVideo::open(dir);
  ASSERT_EQ(video.frames().size(), 20u);
  EXPECT_EQ(video.frames()[9].segment, 0);
  EXPECT_EQ(video.frames()[10].segment, 1);
  EXPECT_EQ(video.frames()[10].offset, 0);
  // The latest frame at or before the time, wherever it is.
  EXPECT_EQ(video.at_or_before(0.11), 13u);
  EXPECT_EQ(video.at_or_before(4.0), 19u);
  EXPECT_EQ(video.at_or_before(5.0), 0u);
  EXPECT_EQ(video.at_or_before(5.04), 1u);
}

TEST(VideoRecorder, StillsAreWrittenWholeAtFullQuality) {
  const fs::path dir = scratch_folder();
  const cv::Mat picture = test_picture(5, {640, 480});
  VideoRecorder rec(dir / "video", roomy());
  for (long long i = 0; i < 10; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
  rec.still(picture, dir / "stills" / "settle-000001.jpg");  // its folder is made
  rec.finish();
  rec.still(picture, dir / "stills" / "settle-000002.jpg");  // after finish(): written all the same
  for (const char* name : {"settle-000001.jpg", "settle-000002.jpg"}) {
    const cv::Mat still = cv::imread((dir / "stills" / name).string(), cv::IMREAD_UNCHANGED);
    ASSERT_EQ(still.size(), picture.size()) << name;
    EXPECT_LT(mean_abs_diff(still, picture), 1.5) << name;
    EXPECT_FALSE(fs::exists(dir / "stills" / (std::string(name) + ".tmp")));
  }
  EXPECT_EQ(rec.frames_written(), 10);
  EXPECT_FALSE(rec.failed());
}

TEST(VideoRecorder, FinishIsIdempotentAndFramesAfterItAreDropped) {
  const fs::path dir = scratch_folder() / "video";
  VideoRecorder rec(dir, roomy());
  rec.add(test_picture(0), 0, 0.0);
  rec.finish();
  rec.finish();
  rec.add(test_picture(1), 1, 0.1);
  EXPECT_EQ(rec.frames_written(), 1);
  EXPECT_EQ(rec.frames_dropped(), 1);
  EXPECT_EQ(RecordedVideo::open(dir).frames().size(), 1u);
}

TEST(VideoRecorder, RefusesWhatCannotBeAFrameOrAFolder) {
  const fs::path dir = scratch_folder();
  testing::write_bytes(dir / "a-file", "x");
  EXPECT_THROW(VideoRecorder(dir / "a-file"), io::InputError);
  VideoRecorder rec(dir / "video");
  rec.add(test_picture(0), 0, 0.0);
  rec.finish();
  EXPECT_THROW(VideoRecorder(dir / "video"), io::InputError);  // a video recorded there is kept
  EXPECT_EQ(RecordedVideo::open(dir / "video").frames().size(), 1u);
  EXPECT_THROW(rec.add(cv::Mat(), 0, 0.0), std::invalid_argument);
  EXPECT_THROW(rec.add(cv::Mat(8, 8, CV_32FC1, cv::Scalar(0)), 0, 0.0), std::invalid_argument);
  EXPECT_THROW(rec.add(test_picture(0), 0, std::nan("")), std::invalid_argument);
}

TEST(VideoRecorder, ALiveSourcesWaitingFramesSpanLessThanHalfASecond) {
  // A starved encoder thins the video out instead of lagging behind: what a kill loses is bounded.
  // The encoder is held back until every frame is given (left to itself it may keep up, as it did
  // under TSan, and then no bound is tested), and the queue is checked after every frame.
  const fs::path dir = scratch_folder() / "video";
  cv::Mat noise(1080, 1920, CV_8UC3);
  cv::randu(noise, 0, 256);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  VideoRecorderOptions options;
  options.max_queued = 1000;
  options.max_queued_s = 0.5;
  options.before_each_job = [released] { released.wait(); };
  VideoRecorder rec(dir, options);
  double widest = 0;
  for (long long i = 0; i < 120; ++i) {  // 2 s at 60 fps, given at once
    rec.add(noise, i, static_cast<double>(i) / 60.0);
    widest = std::max(widest, rec.waiting_span_s());
  }
  const long long dropped = rec.frames_dropped();
  release.set_value();
  rec.finish();
  EXPECT_LT(widest, options.max_queued_s);
  EXPECT_GT(dropped, 0);  // the queue filled: the bound was what held it
  const RecordedVideo video = RecordedVideo::open(dir);
  EXPECT_EQ(static_cast<long long>(video.frames().size()) + dropped, 120);
  EXPECT_DOUBLE_EQ(rec.waiting_span_s(), 0.0);  // finished: nothing waits
}

TEST(VideoRecorder, AFileSourceWaitsForTheEncoderAndLosesNoFrame) {
  // wait_when_full: the same slow encoder and two frames' room, and every frame is kept.
  const fs::path dir = scratch_folder() / "video";
  cv::Mat noise(720, 1280, CV_8UC3);
  cv::randu(noise, 0, 256);
  VideoRecorderOptions options;
  options.max_queued = 2;
  options.wait_when_full = true;
  VideoRecorder rec(dir, options);
  for (long long i = 0; i < 40; ++i) rec.add(noise, i, static_cast<double>(i) / 30.0);
  rec.finish();
  EXPECT_EQ(rec.frames_written(), 40);
  EXPECT_EQ(rec.frames_dropped(), 0);
  EXPECT_EQ(RecordedVideo::open(dir).frames().size(), 40u);
}

TEST(VideoRecorder, ARecordingsOwnJpegBytesAreStoredAsTheyAre) {
  // A recording of a recording's frames (--session --retrack --record) encodes nothing again.
  const fs::path first = scratch_folder() / "first", second = scratch_folder() / "second";
  {
    VideoRecorder rec(first);
    for (long long i = 0; i < 12; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
  }
  {
    VideoRecorder rec(second);
    auto source = open_recorded_video(first);
    while (std::optional<vision::Frame> f = source->next()) {
      ASSERT_TRUE(f->jpeg) << "the source hands its JPEG bytes on";
      rec.add_encoded(f->jpeg, f->index, f->t);
    }
  }
  const RecordedVideo a = RecordedVideo::open(first), b = RecordedVideo::open(second);
  ASSERT_EQ(b.frames().size(), 12u);
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(a.read_jpeg(i), b.read_jpeg(i)) << "byte for byte, frame " << i;
    EXPECT_EQ(b.frames()[i].frame, static_cast<long long>(i));
  }
  VideoRecorder rec(scratch_folder() / "third");
  EXPECT_THROW(rec.add_encoded(nullptr, 0, 0.0), std::invalid_argument);
}

TEST(VideoRecorder, ASlowEncoderDropsFramesAndNeverHoldsTheCallerUp) {
  // Full-HD noise (slow to encode) offered as fast as it can be copied, two frames' room.
  const fs::path dir = scratch_folder() / "video";
  cv::Mat noise(1080, 1920, CV_8UC3);
  cv::randu(noise, 0, 256);
  VideoRecorderOptions options;
  options.max_queued = 2;
  VideoRecorder rec(dir, options);
  const auto start = std::chrono::steady_clock::now();
  for (long long i = 0; i < 200; ++i) rec.add(noise, i, static_cast<double>(i) / 30.0);
  const double adding_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long long written_while_adding = rec.frames_written();
  rec.finish();
  EXPECT_LT(written_while_adding, 200);  // add() returned before the encoder caught up
  EXPECT_GT(rec.frames_dropped(), 0);
  EXPECT_EQ(rec.frames_written() + rec.frames_dropped(), 200);
  EXPECT_FALSE(rec.failed());
  const RecordedVideo video = RecordedVideo::open(dir);
  ASSERT_EQ(static_cast<long long>(video.frames().size()), rec.frames_written());
  EXPECT_TRUE(
      std::is_sorted(video.frames().begin(), video.frames().end(),
                     [](const RecordedVideoFrame& a, const RecordedVideoFrame& b) { return a.frame < b.frame; }));
  std::printf("200 full-HD frames offered in %.0f ms: %lld written, %lld dropped\n", 1000 * adding_s,
              rec.frames_written(), rec.frames_dropped());
}

TEST(VideoRecorder, AFullDiskStopsTheVideoSaysWhatWasKeptAndNeverHoldsTheCallerUp) {
  // The disk fills in a child (RLIMIT_FSIZE is the process's; EFBIG as a full disk's ENOSPC):
  // room for about 20 frames of the 150 offered, all in one segment.
  const fs::path dir = scratch_folder() / "video";
  std::vector<unsigned char> one;
  cv::imencode(".jpg", test_picture(0), one, {cv::IMWRITE_JPEG_QUALITY, 90});
  const auto limit = static_cast<rlim_t>(20 * one.size() + one.size() / 2);
  const testing::ChildReport child = testing::run_in_child([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    VideoRecorderOptions options = roomy();
    options.segment_s = 1000;
    VideoRecorder rec(dir, options);
    rlimit r{limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    for (long long i = 0; i < 100; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
    // Until the encoder has met the full disk (the recorder offers nothing to wait on: asked until
    // so). It runs when a core is idle: on a busy machine, that may take a while.
    diskref::testing::becomes_true([&] { return rec.failed(); }, std::chrono::seconds(60));
    // After the failure: add() and still() throw nothing, and what they are given is counted as
    // not recorded (below), not queued for an encoder that has stopped.
    const long long written_at_failure = rec.frames_written();
    for (long long i = 100; i < 150; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
    rec.still(test_picture(0), dir / "still.jpg");
    rec.finish();
    return std::to_string(rec.frames_written()) + " " + std::to_string(rec.frames_dropped()) + " " +
           std::to_string(written_at_failure) + "\n" + rec.failure();
  });
  const std::string& report = child.text;
  ASSERT_TRUE(child.exited_cleanly) << report;
  long long written = 0, dropped = 0, written_at_failure = 0;
  ASSERT_EQ(std::sscanf(report.c_str(), "%lld %lld %lld", &written, &dropped, &written_at_failure), 3) << report;
  const std::string failure = report.substr(report.find('\n') + 1);
  EXPECT_GE(written, 15);
  EXPECT_LE(written, 20);
  EXPECT_EQ(written, written_at_failure) << "nothing written after the failure";
  EXPECT_EQ(dropped, 0);
  EXPECT_THAT(failure,
              HasSubstr("video/segment-000000.mjpeg: writing frame " + std::to_string(written) +
                        " failed: File too large; the video keeps the " + std::to_string(written) +
                        " frame(s) written before, complete (in segment-000000.mjpeg, listed in frames.jsonl); " +
                        std::to_string(150 - written) + " frame(s) and 1 still(s) from then on were not recorded"));
  // Everything kept reads back, nothing cut: the segment ends with the last whole frame.
  const RecordedVideo video = RecordedVideo::open(dir);
  EXPECT_TRUE(video.warnings().empty()) << video.warnings().front();
  ASSERT_EQ(static_cast<long long>(video.frames().size()), written);
  const RecordedVideoFrame& last = video.frames().back();
  EXPECT_EQ(static_cast<long long>(fs::file_size(video.segment_path(0))), last.offset + last.bytes);
  EXPECT_LT(mean_abs_diff(video.read(video.frames().size() - 1), test_picture(written - 1)), 2.0);
}

}  // namespace
}  // namespace diskref::recording

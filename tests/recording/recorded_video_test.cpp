// A recording's video read back after a crash (spec §11: a reader uses what is there): a copy
// taken while the recorder is writing, a last line cut mid-way, an open segment cut mid-frame, a
// segment missing, a garbage line, a corrupt JPEG. Every complete frame is kept, the others are
// dropped with a warning naming the file; and the video as a FrameSource, with seeking.
#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/input_error.h"
#include "recording/recorded_video.h"
#include "recording/video_recorder.h"
#include "tests/recording/video_test_support.h"
#include "tests/support/becomes_true.h"

namespace diskref::recording {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::mean_abs_diff;
using testing::scratch_folder;
using testing::slurp;
using testing::test_picture;
using testing::write_bytes;

// A finished recording of frames first..first+count-1 at 30 fps, `segment_s` a segment.
void record(const fs::path& dir, long long count, double segment_s = 2.0, long long first = 0) {
  VideoRecorderOptions options;
  options.segment_s = segment_s;
  options.max_queued = 1000;
  options.wait_when_full = true;  // none dropped: a file source
  VideoRecorder rec(dir, options);
  for (long long i = first; i < first + count; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
  rec.finish();
  ASSERT_EQ(rec.frames_written(), count);
}

TEST(RecordedVideo, ACopyTakenWhileRecordingKeepsEveryFrameListed) {
  // As a kill would leave it: the recorder still writing, its files copied as they are.
  const fs::path root = scratch_folder();
  const fs::path dir = root / "video", copy = root / "copy";
  VideoRecorderOptions options;
  options.segment_s = 0.5;
  options.max_queued = 1000;
  options.max_queued_s = 1e9;  // all of them waiting at once
  VideoRecorder rec(dir, options);
  for (long long i = 0; i < 200; ++i) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);
  // Until the recorder has written 60 of them (it offers nothing to wait on: asked until so).
  ASSERT_TRUE(diskref::testing::becomes_true([&] { return rec.frames_written() >= 60; }));
  const long long written_before_copy = rec.frames_written();
  fs::create_directories(copy);
  fs::copy_file(dir / "frames.jsonl", copy / "frames.jsonl");  // the index first: every frame it lists is in a segment
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".mjpeg") fs::copy_file(entry.path(), copy / entry.path().filename());
  rec.finish();
  const RecordedVideo video = RecordedVideo::open(copy);
  EXPECT_GE(static_cast<long long>(video.frames().size()), written_before_copy);
  for (std::size_t i = 0; i < video.frames().size(); ++i) {
    EXPECT_EQ(video.frames()[i].frame, static_cast<long long>(i));
    EXPECT_LT(mean_abs_diff(video.read(i), test_picture(static_cast<long long>(i))), 2.0) << i;
  }
  for (const std::string& w : video.warnings())
    EXPECT_THAT(w, HasSubstr("line")) << w;  // at most a line caught mid-write
}

TEST(RecordedVideo, ALastLineCutMidWayAndAnOpenSegmentCutMidFrameLoseOnlyThoseFrames) {
  const fs::path dir = scratch_folder() / "video";
  record(dir, 50, 1.0);  // segments of 30 frames: 0..29, 30..49
  const RecordedVideo whole = RecordedVideo::open(dir);
  // The open segment cut in the middle of frame 45; the line of frame 49 cut mid-way.
  const RecordedVideoFrame& f45 = whole.frames()[45];
  fs::resize_file(whole.segment_path(1), static_cast<std::uintmax_t>(f45.offset + f45.bytes / 2));
  std::string index = slurp(dir / "frames.jsonl");
  const std::size_t last_line = index.rfind('\n', index.size() - 2) + 1;
  write_bytes(dir / "frames.jsonl", index.substr(0, last_line + 20));
  const RecordedVideo video = RecordedVideo::open(dir);
  ASSERT_EQ(video.frames().size(), 45u);
  EXPECT_EQ(video.frames().back().frame, 44);
  EXPECT_THAT(
      video.warnings(),
      ElementsAre(HasSubstr("frames.jsonl: line 50: cut short"),
                  HasSubstr("video/segment-000001.mjpeg: cut short at " + std::to_string(f45.offset + f45.bytes / 2) +
                            " bytes (the recording stopped while writing it); 4 frame(s) whose bytes are not all in it "
                            "are dropped (frames 45 to 48)")));
  EXPECT_LT(mean_abs_diff(video.read(44), test_picture(44)), 2.0);
}

TEST(RecordedVideo, AMissingSegmentDropsItsFramesWithOneWarning) {
  const fs::path dir = scratch_folder() / "video";
  record(dir, 45, 0.5);  // 15 frames a segment
  fs::remove(dir / "segment-000001.mjpeg");
  const RecordedVideo video = RecordedVideo::open(dir);
  ASSERT_EQ(video.frames().size(), 30u);
  EXPECT_EQ(video.frames()[14].frame, 14);
  EXPECT_EQ(video.frames()[15].frame, 30);
  EXPECT_THAT(
      video.warnings(),
      ElementsAre(HasSubstr("video/segment-000001.mjpeg: missing; its 15 frame(s) are dropped (frames 15 to 29)")));
  EXPECT_LT(mean_abs_diff(video.read(15), test_picture(30)), 2.0);
}

TEST(RecordedVideo, AGarbageLineInTheMiddleIsSkippedAndNamed) {
  const fs::path dir = scratch_folder() / "video";
  record(dir, 10);
  std::string index = slurp(dir / "frames.jsonl");
  std::size_t after_fifth = 0;
  for (int i = 0; i < 5; ++i) after_fifth = index.find('\n', after_fifth) + 1;
  index.insert(after_fifth, "this is not JSON\n{\"frame\": 3}\n");
  write_bytes(dir / "frames.jsonl", index);
  const RecordedVideo video = RecordedVideo::open(dir);
  EXPECT_EQ(video.frames().size(), 10u);
  EXPECT_THAT(video.warnings(), ElementsAre(HasSubstr("frames.jsonl: line 6: "), HasSubstr("frames.jsonl: line 7: ")));
  EXPECT_THAT(video.warnings()[0], HasSubstr("skipped"));
  EXPECT_THAT(video.warnings()[1], HasSubstr("\"t\""));  // what is missing from it
}

TEST(RecordedVideo, ACorruptJpegIsNamedWithItsSegmentAndOffset) {
  const fs::path dir = scratch_folder() / "video";
  record(dir, 10);
  const RecordedVideo video = RecordedVideo::open(dir);
  const RecordedVideoFrame& f3 = video.frames()[3];
  std::string segment = slurp(video.segment_path(0));
  std::fill_n(segment.begin() + f3.offset, 64, '\0');
  write_bytes(video.segment_path(0), segment);
  try {
    video.read(3);
    FAIL() << "a corrupt frame was decoded";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("video/segment-000000.mjpeg: offset " + std::to_string(f3.offset) + ": frame 3: its " +
                          std::to_string(f3.bytes) + " bytes are not a JPEG image that decodes (corrupt)"));
  }
  EXPECT_LT(mean_abs_diff(video.read(4), test_picture(4)), 2.0);  // the next one is intact
  EXPECT_THROW(video.read(10), std::out_of_range);
}

TEST(RecordedVideo, AFolderWithoutFramesJsonlIsRefusedByName) {
  const fs::path dir = scratch_folder();
  try {
    RecordedVideo::open(dir);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), dir.string());
    EXPECT_THAT(e.what(), HasSubstr("has no frames.jsonl"));
  }
  EXPECT_THROW(RecordedVideo::open(dir / "nowhere"), io::InputError);
  write_bytes(dir / "frames.jsonl", "");
  EXPECT_TRUE(RecordedVideo::open(dir).frames().empty());  // nothing recorded yet is no error
  EXPECT_EQ(RecordedVideo::open(dir).duration_s(), 0);
}

TEST(RecordedVideoSource, GivesTheFramesInOrderSkipsACorruptOneAndSeeks) {
  const fs::path dir = scratch_folder() / "video";
  {
    VideoRecorderOptions options;
    options.max_queued = 1000;
    options.wait_when_full = true;
    VideoRecorder rec(dir, options);
    for (long long i = 100; i < 120; ++i)
      if (i != 105) rec.add(test_picture(i), i, static_cast<double>(i) / 30.0);  // 105 was dropped
  }
  {
    const RecordedVideo video = RecordedVideo::open(dir);
    const RecordedVideoFrame& f110 = video.frames()[9];
    ASSERT_EQ(f110.frame, 110);
    std::string segment = slurp(video.segment_path(0));
    segment[static_cast<std::size_t>(f110.offset)] = 'x';  // not a JPEG's start any more
    write_bytes(video.segment_path(0), segment);
  }
  auto source = open_recorded_video(dir);
  EXPECT_EQ(source->frame_size(), cv::Size(160, 120));
  EXPECT_EQ(source->frame_count(), 120);
  EXPECT_NEAR(source->frames_per_second(), 30.0, 1e-9);
  EXPECT_TRUE(source->can_seek());
  EXPECT_EQ(source->description(), dir.string());
  std::vector<long long> indices;
  while (auto frame = source->next()) {
    EXPECT_EQ(frame->t, static_cast<double>(frame->index) / 30.0);
    EXPECT_LT(mean_abs_diff(frame->image, test_picture(frame->index)), 2.0) << frame->index;
    indices.push_back(frame->index);
  }
  EXPECT_EQ(indices, (std::vector<long long>{100, 101, 102, 103, 104, 106, 107, 108, 109, 111, 112, 113, 114, 115, 116,
                                             117, 118, 119}));
  EXPECT_EQ(source->corrupt_frames_skipped(), 1);
  source->seek(115);
  EXPECT_EQ(source->next()->index, 115);
  source->seek(105);  // dropped: the next one recorded
  EXPECT_EQ(source->next()->index, 106);
  source->seek(0);
  EXPECT_EQ(source->next()->index, 100);
  source->seek(500);
  EXPECT_FALSE(source->next().has_value());
}

TEST(RecordedVideoSource, AFolderWithNoFrameIsRefused) {
  const fs::path dir = scratch_folder();
  write_bytes(dir / "frames.jsonl", "");
  EXPECT_THROW(open_recorded_video(dir), io::InputError);
}

}  // namespace
}  // namespace diskref::recording

// A phone on a stand, for real: the bundled sample game served as an MJPEG stream over HTTP on
// loopback (tests/vision/mjpeg_stream_server.h), opened through its URL as `--camera URL` opens it,
// cut for 3 s mid-game (the server gone: connections refused), then back. The source must open it
// again, deliver the frames after the gap, and report the gap once with its span; the frames read
// before and after are exactly those served. Time is the test's clock: each frame received moves it
// a frame period on (a 25 fps camera), the waits between openings move it by what they wait, and
// the server comes back once 3 s have been waited: paced by frames and waits, not by wall time.
// Bad input: a URL where nothing answers, a stream of garbage, a camera whose frames do not fit
// its calibration.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"
#include "tests/support/free_port.h"
#include "tests/vision/fake_v4l2_device.h"
#include "tests/vision/mjpeg_stream_server.h"
#include "vision/frame_source.h"
#include "vision/live_camera.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;
using testing::ManualClock;
using testing::MjpegStreamServer;

constexpr double kFps = 25;

// The sample game's first frames, halved (the stream's cost is not what is tested), as JPEGs.
std::vector<std::vector<unsigned char>> sample_jpegs(int count, cv::Size size = {960, 540}) {
  cv::VideoCapture video(std::string(DISKREF_SOURCE_DIR) + "/sample_videos/duel/video.mp4", cv::CAP_FFMPEG);
  std::vector<std::vector<unsigned char>> out;
  cv::Mat frame, small;
  while (static_cast<int>(out.size()) < count && video.read(frame)) {
    cv::resize(frame, small, size, 0, 0, cv::INTER_AREA);
    out.emplace_back();
    cv::imencode(".jpg", small, out.back(), {cv::IMWRITE_JPEG_QUALITY, 85});
  }
  return out;
}

double difference(const cv::Mat& image, const std::vector<unsigned char>& jpeg) {
  const cv::Mat served = cv::imdecode(jpeg, cv::IMREAD_COLOR);
  return cv::norm(image, served, cv::NORM_L1) / static_cast<double>(image.total() * image.channels());
}

TEST(NetworkCamera, AStreamCutForThreeSecondsComesBackAndTheGapIsSaidOnce) {
  const int kFrames = 200;
  MjpegStreamServer::Plan plan;
  plan.jpegs = sample_jpegs(kFrames);
  ASSERT_EQ(static_cast<int>(plan.jpegs.size()), kFrames);
  plan.cut_after = 49;
  plan.lost = static_cast<long long>(3 * kFps);  // the camera's frames during the 3 s cut
  MjpegStreamServer server(plan);

  auto clock = std::make_shared<ManualClock>();
  // The server comes back once the source has waited 3 s for it.
  clock->on_sleep = [&] {
    if (clock->slept >= 3.0 - 1e-9 && server.refusing()) server.come_back();
  };
  std::vector<CameraEvent> events;
  CameraOptions o;
  o.device = server.url();
  o.clock = clock;
  o.on_event = [&](const CameraEvent& e) { events.push_back(e); };
  o.give_up_after_s = 10;  // the stream's end: no more frames, ever
  // Read in this thread: the test's clock moves with each frame taken, and the server is not
  // paced, so a thread reading ahead would drop what this loop has not yet taken.
  o.network_read_ahead_frames = 0;
  // 1 s between openings: the 3 s make three refused openings, and the fourth finds the server.
  o.first_backoff_s = 1;
  o.max_backoff_s = 1;
  auto source = open_live_camera(o);
  EXPECT_EQ(source->frame_size(), cv::Size(960, 540));
  std::vector<Frame> frames;
  while (auto f = source->next()) {
    frames.push_back(std::move(*f));
    clock->t += 1 / kFps;
  }
  // Every frame served arrived, none other: 50 before the cut, 75 lost in it, 75 after.
  const long long served = kFrames - plan.lost;
  ASSERT_EQ(static_cast<long long>(frames.size()), served);
  EXPECT_EQ(server.frames_served(), served);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const long long number = i <= 49 ? static_cast<long long>(i) : static_cast<long long>(i) + plan.lost;
    EXPECT_EQ(frames[i].index, number) << "frame " << i;
    if (i % 25 == 0 || i == 49 || i == 50) {
      EXPECT_LT(difference(frames[i].image, plan.jpegs[static_cast<std::size_t>(number)]), 1.0) << i;
    }
  }
  // The gap, once, with its span: from the last frame before to the first after.
  ASSERT_EQ(source->gaps().size(), 1u);
  const CameraGap& gap = source->gaps()[0];
  EXPECT_DOUBLE_EQ(gap.start_t, frames[49].t);
  EXPECT_DOUBLE_EQ(gap.end_t, frames[50].t);
  EXPECT_NEAR(gap.end_t - gap.start_t, static_cast<double>(plan.lost + 1) / kFps, 1e-6);
  EXPECT_EQ(gap.frames_lost, plan.lost);
  EXPECT_EQ(gap.reopen_attempts, 4);
  int lost = 0, back = 0, gave_up = 0;
  for (const CameraEvent& e : events) {
    lost += e.kind == CameraEvent::Kind::lost;
    back += e.kind == CameraEvent::Kind::back;
    gave_up += e.kind == CameraEvent::Kind::gave_up;
    EXPECT_EQ(e.source, "camera " + server.url());
  }
  EXPECT_EQ(lost, 2);  // the cut and the stream's end
  EXPECT_EQ(back, 1);
  EXPECT_EQ(gave_up, 1);
}

// A stream that falls silent, its connection open (a phone's app frozen): the read timeout notices,
// the stream is opened again and goes on.
TEST(NetworkCamera, AStreamThatFallsSilentIsNoticedAndOpenedAgain) {
  MjpegStreamServer::Plan plan;
  for (int i = 0; i < 30; ++i) {
    plan.jpegs.emplace_back();
    cv::imencode(".jpg", cv::Mat(120, 160, CV_8UC3, cv::Scalar::all(8 * i)), plan.jpegs.back());
  }
  plan.stall_after = 9;
  MjpegStreamServer server(plan);
  auto clock = std::make_shared<ManualClock>();
  std::vector<CameraEvent> events;
  CameraOptions o;
  o.device = server.url();
  o.clock = clock;
  o.network_read_timeout_s = 0.3;
  o.network_read_ahead_frames = 0;  // as above: every frame served is to be taken
  o.give_up_after_s = 5;
  o.on_event = [&](const CameraEvent& e) { events.push_back(e); };
  auto source = open_live_camera(o);
  std::vector<long long> levels;
  while (auto f = source->next()) {
    levels.push_back(std::llround(cv::mean(f->image)[0] / 8));
    clock->t += 1 / kFps;
  }
  std::vector<long long> expected(30);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(levels, expected);
  EXPECT_EQ(source->gaps().size(), 1u);
}

TEST(NetworkCamera, AUrlWhereNothingAnswersIsNamed) {
  // A port nobody listens on: taken, then let go.
  const std::string url = "http://127.0.0.1:" + std::to_string(diskref::testing::free_loopback_port()) + "/video";
  CameraOptions o;
  o.device = url;
  try {
    open_live_camera(o);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), "camera " + url);
    EXPECT_NE(e.problem().find("does not answer: connection refused"), std::string::npos) << e.what();
  }
}

TEST(NetworkCamera, AStreamOfGarbageIsNamed) {
  MjpegStreamServer::Plan plan;
  plan.garbage = true;
  MjpegStreamServer server(plan);
  CameraOptions o;
  o.device = server.url();
  o.network_open_timeout_s = 5;
  try {
    open_live_camera(o);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), "camera " + server.url());
    EXPECT_NE(e.problem().find("sends no video FFmpeg can read"), std::string::npos) << e.what();
  }
}

// `diskref track --camera URL` with a calibration made for another camera mode (1920x1080; the
// phone sends 4:3 pictures): refused, naming both.
TEST(NetworkCamera, ACameraWhoseFramesDoNotFitItsCalibrationIsRefused) {
  MjpegStreamServer::Plan plan;
  plan.jpegs = sample_jpegs(10, {800, 600});
  MjpegStreamServer server(plan);
  const fs::path dir = fs::temp_directory_path() / ("diskref_network_camera_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path err = dir / "err.txt";
  const std::string sample = std::string(DISKREF_SOURCE_DIR) + "/sample_videos/duel/";
  const std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref track --camera " + server.url() +
                              " --table " + sample + "table.json --disks " + sample + "disks.json --calib " + sample +
                              "camera.json --out " + (dir / "t.jsonl").string() + " --camera-give-up 1 2> " +
                              err.string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_FALSE(fs::exists(dir / "t.jsonl"));  // refused before anything is written
  std::ifstream in(err);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string said = text.str();
  EXPECT_NE(said.find(sample + "camera.json"), std::string::npos) << said;
  EXPECT_NE(said.find("800x600"), std::string::npos) << said;
  EXPECT_NE(said.find("the frames of camera " + server.url()), std::string::npos) << said;
}

std::string file_text(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `diskref cameras --measure` on a phone's stream: what it sends, measured. (The rate is the wall
// clock's here, so only the frames are checked.)
TEST(NetworkCamera, CamerasMeasuresWhatAStreamDelivers) {
  MjpegStreamServer::Plan plan;
  for (int i = 0; i < 1000; ++i) {
    plan.jpegs.emplace_back();
    cv::imencode(".jpg", cv::Mat(180, 320, CV_8UC3, cv::Scalar::all(i % 256)), plan.jpegs.back());
  }
  MjpegStreamServer server(plan);
  const fs::path dir = fs::temp_directory_path() / ("diskref_network_camera_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref cameras --camera " + server.url() +
                              " --measure 0.5 --camera-give-up 1 > " + (dir / "measure.txt").string() + " 2> " +
                              (dir / "measure_err.txt").string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << file_text(dir / "measure_err.txt");
  const std::string said = file_text(dir / "measure.txt");
  EXPECT_EQ(said.rfind("camera " + server.url() + ": 320x180, ", 0), 0u) << said;
  EXPECT_NE(said.find("frames/s delivered"), std::string::npos) << said;
}

#ifdef DISKREF_HAS_UI
// The screen on a phone's stream: the camera's events are in its event log (and so in a recording's
// events.jsonl), the picture's lock asked for once the table is found among them.
TEST(NetworkCamera, TheScreenLogsWhatTheCameraSays) {
  MjpegStreamServer::Plan plan;
  plan.jpegs = sample_jpegs(60);
  // At a camera's pace, as a phone sends them: the screen reads the stream as it comes and keeps
  // only the newest frames when it falls behind, so a stream sent all at once would leave it fewer
  // than the 20 it waits for.
  plan.fps = kFps;
  MjpegStreamServer server(plan);
  const fs::path dir = fs::temp_directory_path() / ("diskref_network_camera_ui_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string sample = std::string(DISKREF_SOURCE_DIR) + "/sample_videos/duel/";
  const std::string command = "xvfb-run -a -s \"-screen 0 1280x800x24\" " + std::string(DISKREF_BINARY_DIR) +
                              "/diskref ui --camera " + server.url() + " --table " + sample + "table.json --disks " +
                              sample + "disks.json --calib " + sample + "camera.json --frames 20 --screenshot " +
                              (dir / "shot.png").string() + " --record " + (dir / "session").string() + " 2> " +
                              (dir / "err.txt").string();
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << file_text(dir / "err.txt");
  const std::string events = file_text(dir / "session" / "events.jsonl");
  EXPECT_NE(events.find("camera " + server.url() + ": an MJPEG stream (frames timed as they arrive), 960x540"),
            std::string::npos)
      << events;
  // Once the table was found, the picture was to be locked: a network camera's is the app's.
  EXPECT_NE(events.find("camera " + server.url() + ": a network camera's picture is set in the camera"),
            std::string::npos)
      << events;
}
#endif

}  // namespace
}  // namespace diskref::vision

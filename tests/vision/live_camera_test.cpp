// Live cameras without a camera: the V4L2 logic (what a camera offers, the mode chosen, the picture
// locked, the rate measured, a camera unplugged and plugged in again) through a fake device on a
// clock the test moves, so that nothing sleeps.
#include <linux/videodev2.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "tests/vision/fake_v4l2_device.h"
#include "vision/camera_address.h"
#include "vision/camera_inventory.h"
#include "vision/camera_listing.h"
#include "vision/camera_settings_file.h"
#include "vision/frame_source.h"
#include "vision/live_camera.h"
#include "vision/picture_controls.h"
#include "vision/prefetching_source.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;
using testing::FakeCamera;
using testing::FakeV4l2Device;
using testing::ManualClock;

// A fake camera behind open_live_camera(), as the commands open a real one.
struct Rig {
  std::shared_ptr<FakeCamera> camera = std::make_shared<FakeCamera>(FakeCamera::webcam());
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  std::vector<CameraEvent> events;
  int opened = 0;
  int refuse_openings = 0;  // openings that fail (the camera unplugged) before it is there again
  std::function<void()> on_refused;

  CameraOptions options(const std::string& device = "0") {
    CameraOptions o;
    o.device = device;
    o.clock = clock;
    o.on_event = [this](const CameraEvent& e) { events.push_back(e); };
    o.open_device = [this](const std::string& path) -> std::unique_ptr<V4l2Device> {
      if (refuse_openings > 0) {
        --refuse_openings;
        if (on_refused) on_refused();
        throw io::InputError(path, "", "no such device");
      }
      ++opened;
      return std::make_unique<FakeV4l2Device>(camera, clock);
    };
    return o;
  }
  int value(std::uint32_t id) { return camera->at(id).value; }
  std::vector<CameraEvent> of_kind(CameraEvent::Kind kind) const {
    std::vector<CameraEvent> out;
    for (const CameraEvent& e : events)
      if (e.kind == kind) out.push_back(e);
    return out;
  }
  bool said(const std::string& text) const {
    for (const CameraEvent& e : events)
      if (e.message.find(text) != std::string::npos) return true;
    return false;
  }
};

CameraDescription describe(FakeCamera camera) {
  auto shared = std::make_shared<FakeCamera>(std::move(camera));
  FakeV4l2Device device(shared, std::make_shared<ManualClock>());
  return describe_camera(device, "/dev/video0");
}

fs::path temp_dir() {
  fs::path dir = fs::temp_directory_path() / ("diskref_live_camera_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(CameraAddress, TakesANumberADeviceOrAUrl) {
  EXPECT_EQ(parse_camera_address("0").target, "/dev/video0");
  EXPECT_EQ(parse_camera_address("12").target, "/dev/video12");
  EXPECT_EQ(parse_camera_address("/dev/v4l/by-id/usb-cam").kind, CameraAddress::Kind::v4l2);
  const CameraAddress phone = parse_camera_address("http://192.168.1.20:8080/video");
  EXPECT_EQ(phone.kind, CameraAddress::Kind::network);
  EXPECT_EQ(phone.description(), "camera http://192.168.1.20:8080/video");
  EXPECT_EQ(parse_camera_address("RTSP://cam/stream").kind, CameraAddress::Kind::network);
  EXPECT_EQ(parse_camera_address("https://cam/x").kind, CameraAddress::Kind::network);
  // A password stays out of messages.
  EXPECT_EQ(parse_camera_address("rtsp://admin:secret@cam:554/h264").description(),
            "camera rtsp://admin:***@cam:554/h264");
  for (const char* bad : {"", "webcam", "ftp://cam/x", "http://", "-1"}) {
    try {
      parse_camera_address(bad);
      ADD_FAILURE() << bad << " was taken";
    } catch (const io::InputError& e) {
      EXPECT_EQ(e.path(), "--camera") << bad;
    }
  }
}

TEST(CameraInventory, ReadsFormatsSizesRatesAndControlsThroughTheIoctls) {
  const CameraDescription d = describe(FakeCamera::webcam());
  EXPECT_EQ(d.card, "Fake Webcam C920");
  ASSERT_TRUE(d.captures_video);
  ASSERT_EQ(d.formats.size(), 3u);
  EXPECT_EQ(fourcc_text(d.formats[1].fourcc), "MJPG");
  EXPECT_TRUE(d.formats[1].compressed);
  EXPECT_FALSE(d.formats[2].decodable);  // H.264: OpenCV's V4L2 backend does not decode it
  ASSERT_EQ(d.formats[0].sizes.size(), 3u);
  EXPECT_EQ(d.formats[0].sizes[1].width, 1280);
  EXPECT_EQ(d.formats[0].sizes[1].fps, (std::vector<double>{10, 5}));
  ASSERT_NE(d.control("exposure_auto"), nullptr);
  EXPECT_EQ(d.control("exposure_auto")->value, 3);
  EXPECT_EQ(d.control("exposure_auto")->menu.size(), 2u);
  EXPECT_EQ(d.control("focus_absolute")->value, 40);
  const std::string listing = camera_listing(d, choose_capture_format(d, {}), "");
  EXPECT_NE(listing.find("1920x1080: 30 15 fps"), std::string::npos) << listing;
  EXPECT_NE(listing.find("power_line_frequency"), std::string::npos) << listing;
  EXPECT_NE(listing.find("diskref would take: MJPG 1920x1080 at 30 fps"), std::string::npos) << listing;
}

TEST(CameraInventory, AMetadataNodeIsNoCamera) {
  FakeCamera c = FakeCamera::webcam();
  c.capture = false;
  EXPECT_FALSE(describe(c).captures_video);
  Rig rig;
  rig.camera->capture = false;
  try {
    open_live_camera(rig.options("/dev/video1"));
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), "/dev/video1");
    EXPECT_NE(e.problem().find("not a video capture device"), std::string::npos);
  }
}

TEST(FormatChoice, MjpegWhenItGivesTheSizeAndRate) {
  const CameraDescription d = describe(FakeCamera::webcam());
  FormatChoice c = choose_capture_format(d, {1920, 1080, 30, std::nullopt});
  EXPECT_EQ(fourcc_text(c.mode.fourcc), "MJPG");
  EXPECT_EQ(c.mode.fps, 30);
  EXPECT_TRUE(c.reaches_rate);
  // At 640x480 both give 30 fps: MJPEG still (the same rate, less USB bandwidth).
  EXPECT_EQ(fourcc_text(choose_capture_format(d, {640, 480, 30, std::nullopt}).mode.fourcc), "MJPG");
  // Nothing asked: the largest size that gives 30 fps.
  c = choose_capture_format(d, {});
  EXPECT_EQ(c.mode.width, 1920);
  EXPECT_EQ(fourcc_text(c.mode.fourcc), "MJPG");
  // 15 fps asked: the slowest rate reaching it.
  EXPECT_EQ(choose_capture_format(d, {1280, 720, 15, std::nullopt}).mode.fps, 15);
}

TEST(FormatChoice, AFormatForcedIsTakenAndItsShortRateSaid) {
  const CameraDescription d = describe(FakeCamera::webcam());
  const FormatChoice c = choose_capture_format(d, {1920, 1080, 30, parse_fourcc("yuyv")});
  EXPECT_EQ(fourcc_text(c.mode.fourcc), "YUYV");
  EXPECT_EQ(c.mode.fps, 5);
  EXPECT_FALSE(c.reaches_rate);
  EXPECT_NE(c.why.find("no format gives 30 fps"), std::string::npos) << c.why;
}

TEST(FormatChoice, WhatTheCameraCannotGiveIsNamed) {
  const CameraDescription d = describe(FakeCamera::webcam());
  auto problem = [&](const FormatRequest& r) -> std::string {
    try {
      choose_capture_format(d, r);
    } catch (const io::InputError& e) {
      EXPECT_EQ(e.file(), "/dev/video0");
      return e.path() + ": " + e.problem();
    }
    return "taken";
  };
  EXPECT_NE(problem({3840, 2160, 30, std::nullopt})
                .find("--camera-size: the camera does not give 3840x2160 (it gives 640x480, 1280x720, 1920x1080)"),
            std::string::npos);
  EXPECT_NE(problem({0, 0, 0, parse_fourcc("NV12")})
                .find("--camera-format: the camera offers no NV12 (it offers YUYV, MJPG, H264)"),
            std::string::npos);
  EXPECT_NE(problem({0, 0, 0, parse_fourcc("H264")}).find("cannot be decoded"), std::string::npos);
  FakeCamera only_h264;
  only_h264.formats = {{V4L2_PIX_FMT_H264, true, {{{1920, 1080}, {30}}}}};
  try {
    choose_capture_format(describe(only_h264), {});
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no picture format diskref can decode"), std::string::npos);
  }
  EXPECT_FALSE(parse_fourcc("MJPEGX"));
  EXPECT_EQ(parse_fourcc("mjpeg"), parse_fourcc("MJPG"));
}

TEST(PictureLock, LocksWhatTheDriverAllowsAndNamesWhatItRefuses) {
  auto camera = std::make_shared<FakeCamera>(FakeCamera::webcam());
  camera->refused = {V4L2_CID_AUTO_WHITE_BALANCE};
  FakeV4l2Device device(camera, std::make_shared<ManualClock>());
  const CameraDescription d = describe_camera(device, "/dev/video0");
  camera->at(V4L2_CID_EXPOSURE_ABSOLUTE).value = 180;  // auto-exposure moved on since
  const LockOutcome out = lock_picture(device, d, {});
  EXPECT_EQ(camera->at(V4L2_CID_FOCUS_AUTO).value, 0);
  EXPECT_EQ(camera->at(V4L2_CID_FOCUS_ABSOLUTE).value, 40);
  EXPECT_EQ(camera->at(V4L2_CID_EXPOSURE_AUTO).value, V4L2_EXPOSURE_MANUAL);
  EXPECT_EQ(camera->at(V4L2_CID_EXPOSURE_ABSOLUTE).value, 180);  // held where it was, not where it had been
  EXPECT_EQ(camera->at(V4L2_CID_EXPOSURE_AUTO_PRIORITY).value, 0);
  EXPECT_EQ(camera->at(V4L2_CID_AUTO_WHITE_BALANCE).value, 1);
  EXPECT_EQ(out.values, (std::map<std::string, int>{{"focus_absolute", 40}, {"exposure_absolute", 180}}));
  ASSERT_EQ(out.not_locked.size(), 1u);
  EXPECT_NE(out.not_locked[0].find("white balance: the driver refused to turn white_balance_automatic off"),
            std::string::npos);
}

TEST(PictureLock, ACameraWithoutAutofocusHasNothingToLockThere) {
  auto camera = std::make_shared<FakeCamera>(FakeCamera::webcam());
  std::erase_if(camera->controls, [](const testing::FakeControl& c) {
    return c.id == V4L2_CID_FOCUS_AUTO || c.id == V4L2_CID_FOCUS_ABSOLUTE;
  });
  // An exposure with no manual mode in its menu cannot be locked.
  camera->at(V4L2_CID_EXPOSURE_AUTO).menu = {3};
  FakeV4l2Device device(camera, std::make_shared<ManualClock>());
  const LockOutcome out = lock_picture(device, describe_camera(device, "/dev/video0"), {});
  ASSERT_EQ(out.fixed.size(), 1u);
  EXPECT_NE(out.fixed[0].find("focus"), std::string::npos);
  ASSERT_EQ(out.not_locked.size(), 1u);
  EXPECT_NE(out.not_locked[0].find("exposure: the camera offers no manual setting"), std::string::npos);
  EXPECT_EQ(camera->at(V4L2_CID_EXPOSURE_AUTO).value, 3);
}

TEST(PowerLine, SetWhereTheCameraHasTheControl) {
  auto camera = std::make_shared<FakeCamera>(FakeCamera::webcam());
  FakeV4l2Device device(camera, std::make_shared<ManualClock>());
  CameraDescription d = describe_camera(device, "/dev/video0");
  bool done = false;
  EXPECT_NE(set_power_line(device, d, PowerLine::hz50, &done)->find("set the power line frequency"), std::string::npos);
  EXPECT_TRUE(done);
  EXPECT_EQ(camera->at(V4L2_CID_POWER_LINE_FREQUENCY).value, V4L2_CID_POWER_LINE_FREQUENCY_50HZ);
  EXPECT_FALSE(set_power_line(device, d, PowerLine::leave));
  std::erase_if(camera->controls, [](const testing::FakeControl& c) { return c.id == V4L2_CID_POWER_LINE_FREQUENCY; });
  d = describe_camera(device, "/dev/video0");
  EXPECT_NE(set_power_line(device, d, PowerLine::hz60, &done)->find("no such control"), std::string::npos);
  EXPECT_FALSE(done);
}

TEST(LiveCamera, OpensInTheModeChosenWithTheDriversFrameTimes) {
  Rig rig;
  CameraOptions o = rig.options();
  o.width = 1280;
  o.height = 720;
  o.power_line = "50";
  auto source = open_live_camera(o);
  EXPECT_EQ(source->description(), "camera /dev/video0");
  EXPECT_EQ(source->frame_size(), cv::Size(1280, 720));
  EXPECT_DOUBLE_EQ(source->frames_per_second(), 30);
  EXPECT_EQ(rig.value(V4L2_CID_POWER_LINE_FREQUENCY), V4L2_CID_POWER_LINE_FREQUENCY_50HZ);
  EXPECT_TRUE(rig.said("MJPG 1280x720 at 30 fps"));
  for (int i = 0; i < 5; ++i) {
    const std::optional<Frame> f = source->next();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->index, i);
    EXPECT_NEAR(f->t, (i + 1) / 30.0, 1e-9);  // the buffer's time, from the source's opening
  }
  EXPECT_EQ(source->frames_lost(), 0);
}

TEST(LiveCamera, FramesTheDriverDroppedAreCountedFromTheGapsInItsTimes) {
  Rig rig;
  rig.camera->dropped = {3, 4, 10};
  auto source = open_live_camera(rig.options());
  std::vector<long long> indices;
  for (int i = 0; i < 10; ++i) indices.push_back(source->next()->index);
  EXPECT_EQ(indices, (std::vector<long long>{0, 1, 2, 5, 6, 7, 8, 9, 11, 12}));
  EXPECT_EQ(source->frames_lost(), 3);
}

TEST(LiveCamera, ARateBelowTheOneAskedIsMeasuredAndSaid) {
  Rig rig;
  rig.camera->delivered_fps = 15;  // dim light: the camera stretches its exposure
  CameraOptions o = rig.options();
  o.fps = 30;
  auto source = open_live_camera(o);
  for (int i = 0; i < 90; ++i) ASSERT_TRUE(source->next());
  ASSERT_TRUE(source->measured_fps());
  EXPECT_NEAR(*source->measured_fps(), 15, 1e-6);
  const auto warnings = rig.of_kind(CameraEvent::Kind::warning);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("delivers 15.0 frames/s, below the 30.0 asked"), std::string::npos)
      << warnings[0].message;
  // A camera delivering what was asked is not warned about.
  Rig full;
  o = full.options();
  o.fps = 30;
  auto fine = open_live_camera(o);
  for (int i = 0; i < 150; ++i) ASSERT_TRUE(fine->next());
  EXPECT_TRUE(full.of_kind(CameraEvent::Kind::warning).empty());
}

TEST(LiveCamera, PictureLockedAfterItSettledAndKeptForTheNextEvening) {
  const fs::path settings = temp_dir() / "camera_settings.json";
  fs::remove(settings);
  Rig rig;
  CameraOptions o = rig.options();
  o.lock_after_s = 1.0;
  o.settings_file = settings;
  o.power_line = "60";
  auto source = open_live_camera(o);
  for (int i = 0; i < 20; ++i) source->next();
  EXPECT_EQ(rig.value(V4L2_CID_FOCUS_AUTO), 1);        // not yet: the picture settles first
  rig.camera->at(V4L2_CID_FOCUS_ABSOLUTE).value = 85;  // autofocus found the table
  for (int i = 0; i < 20; ++i) source->next();
  EXPECT_EQ(rig.value(V4L2_CID_FOCUS_AUTO), 0);
  EXPECT_EQ(rig.value(V4L2_CID_EXPOSURE_AUTO), V4L2_EXPOSURE_MANUAL);
  EXPECT_EQ(rig.value(V4L2_CID_AUTO_WHITE_BALANCE), 0);
  EXPECT_TRUE(rig.said("locked focus at 85, exposure at 156, white balance at 4600"));
  const std::optional<CameraSettingsFile> kept = load_camera_settings(settings);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->format, "MJPG");
  EXPECT_EQ(kept->width, 1920);
  EXPECT_EQ(kept->power_line, PowerLine::hz60);
  EXPECT_EQ(kept->locked.at("focus_absolute"), 85);
  EXPECT_EQ(kept->camera, "Fake Webcam C920");
  source.reset();

  // The next evening: the camera starts in its defaults; the file locks it at once, as it was.
  Rig next;
  next.camera->at(V4L2_CID_FOCUS_ABSOLUTE).value = 10;
  CameraOptions again = next.options();
  again.settings_file = settings;
  again.lock_after_s.reset();
  auto second = open_live_camera(again);
  EXPECT_EQ(next.value(V4L2_CID_FOCUS_AUTO), 0);
  EXPECT_EQ(next.value(V4L2_CID_FOCUS_ABSOLUTE), 85);
  EXPECT_EQ(next.value(V4L2_CID_EXPOSURE_ABSOLUTE), 156);
  EXPECT_EQ(next.value(V4L2_CID_POWER_LINE_FREQUENCY), V4L2_CID_POWER_LINE_FREQUENCY_60HZ);

  // --camera-free leaves them automatic, whatever the file says.
  Rig free;
  CameraOptions loose = free.options();
  loose.settings_file = settings;
  loose.picture_free = true;
  auto third = open_live_camera(loose);
  for (int i = 0; i < 200; ++i) third->next();
  EXPECT_EQ(free.value(V4L2_CID_FOCUS_AUTO), 1);
  EXPECT_EQ(free.value(V4L2_CID_EXPOSURE_AUTO), 3);
}

TEST(LiveCamera, ADamagedSettingsFileIsNamed) {
  const fs::path settings = temp_dir() / "damaged_settings.json";
  std::ofstream(settings) << R"({"camera_settings": 1, "power_line": "55"})";
  Rig rig;
  CameraOptions o = rig.options();
  o.settings_file = settings;
  try {
    open_live_camera(o);
    FAIL();
  } catch (const io::InputError& e) {
    EXPECT_EQ(e.file(), settings.string());
    EXPECT_EQ(e.path(), "power_line");
  }
}

TEST(LiveCamera, UnpluggedAndPluggedInAgainItGoesOnAndSaysTheGapOnce) {
  Rig rig;
  CameraOptions o = rig.options();
  o.lock_after_s = 0.5;
  rig.camera->frames_before_unplug = 30;  // the first connection's reads
  auto source = open_live_camera(o);
  long long last_index = -1;
  double last_t = 0;
  for (int i = 0; i < 30; ++i) {
    const std::optional<Frame> f = source->next();
    ASSERT_TRUE(f);
    last_index = f->index;
    last_t = f->t;
  }
  ASSERT_EQ(rig.value(V4L2_CID_FOCUS_AUTO), 0);
  // Unplugged: the next openings fail, then the camera is there again, its controls back to their
  // defaults (a USB reset).
  rig.refuse_openings = 3;
  rig.on_refused = [&] {
    rig.camera->frames_before_unplug = -1;
    rig.camera->at(V4L2_CID_FOCUS_AUTO).value = 1;
    rig.camera->at(V4L2_CID_FOCUS_ABSOLUTE).value = 0;
  };
  const double slept_before = rig.clock->slept;
  const std::optional<Frame> back = source->next();
  ASSERT_TRUE(back);
  // Waited 0.5 + 1 + 2 s between the four openings (on the test's clock: nothing slept).
  EXPECT_NEAR(rig.clock->slept - slept_before, 3.5, 1e-6);
  ASSERT_EQ(source->gaps().size(), 1u);
  const CameraGap& gap = source->gaps()[0];
  EXPECT_DOUBLE_EQ(gap.start_t, last_t);
  EXPECT_DOUBLE_EQ(gap.end_t, back->t);
  EXPECT_EQ(gap.reopen_attempts, 4);
  EXPECT_EQ(gap.frames_lost, std::llround((gap.end_t - gap.start_t) * 30) - 1);
  EXPECT_EQ(back->index, last_index + 1 + gap.frames_lost);
  EXPECT_EQ(rig.of_kind(CameraEvent::Kind::lost).size(), 1u);
  ASSERT_EQ(rig.of_kind(CameraEvent::Kind::back).size(), 1u);
  EXPECT_EQ(rig.of_kind(CameraEvent::Kind::back)[0].gap->frames_lost, gap.frames_lost);
  // The picture is locked again as it was, not at the camera's defaults.
  EXPECT_EQ(rig.value(V4L2_CID_FOCUS_AUTO), 0);
  EXPECT_EQ(rig.value(V4L2_CID_FOCUS_ABSOLUTE), 40);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(source->next());
  EXPECT_EQ(source->gaps().size(), 1u);
}

TEST(LiveCamera, ACameraThatDoesNotComeBackEndsTheSourceAtTheLimitGiven) {
  Rig rig;
  CameraOptions o = rig.options();
  o.give_up_after_s = 20;
  rig.camera->frames_before_unplug = 5;
  auto source = open_live_camera(o);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(source->next());
  rig.refuse_openings = 1000;
  EXPECT_FALSE(source->next());
  EXPECT_FALSE(source->next());
  ASSERT_EQ(rig.of_kind(CameraEvent::Kind::gave_up).size(), 1u);
  EXPECT_NE(rig.of_kind(CameraEvent::Kind::gave_up)[0].message.find("no such device"), std::string::npos);
  EXPECT_GE(rig.clock->slept, 20 - 5.0);
  EXPECT_LE(rig.clock->slept, 20 + 5.0);
  EXPECT_TRUE(source->gaps().empty());
}

TEST(LiveCamera, InterruptedWhileWaitingItEnds) {
  Rig rig;
  rig.camera->frames_before_unplug = 5;
  auto source = open_live_camera(rig.options());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(source->next());
  rig.refuse_openings = 1000000;
  int refused = 0;
  rig.on_refused = [&] {
    if (++refused == 7) source->interrupt();  // the window closed, Ctrl-C
  };
  EXPECT_FALSE(source->next());
  EXPECT_EQ(refused, 7);
}

// The screen and the commands read a camera ahead on a thread of its own: closing them while the
// camera is away must not wait for it to come back.
TEST(LiveCamera, ReadAheadOnAThreadItStopsWaitingWhenClosed) {
  Rig rig;
  rig.camera->frames_before_unplug = 3;
  std::unique_ptr<FrameSource> camera = open_live_camera(rig.options());
  // Never back; the thread says when it has begun waiting (set before the thread starts).
  rig.refuse_openings = 1 << 30;
  std::promise<void> waiting;
  bool said = false;
  rig.on_refused = [&] {
    if (!said) waiting.set_value();
    said = true;
  };
  std::unique_ptr<FrameSource> ahead = prefetching(std::move(camera));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(ahead->next());
  waiting.get_future().wait();
  ahead.reset();  // returns: the thread, waiting for the camera, was told to stop
  EXPECT_GT(rig.refuse_openings, 0);
}

TEST(LiveCamera, ACameraBackAtAnotherSizeIsNotTakenForTheSameOne) {
  Rig rig;
  rig.camera->frames_before_unplug = 5;
  auto source = open_live_camera(rig.options());
  ASSERT_EQ(source->frame_size(), cv::Size(1920, 1080));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(source->next());
  // Unplugged; plugged in again, another camera is on the port for a while (640x480 only), then
  // the right one.
  const std::vector<FakeCamera::Format> right = rig.camera->formats;
  rig.refuse_openings = 1;
  rig.on_refused = [&] {
    rig.camera->frames_before_unplug = -1;
    rig.camera->formats = {{V4L2_PIX_FMT_MJPEG, true, {{{640, 480}, {30}}}}};
  };
  rig.clock->on_sleep = [&] {
    if (rig.clock->slept >= 3.4) rig.camera->formats = right;
  };
  const int opened_before = rig.opened;
  const std::optional<Frame> f = source->next();
  ASSERT_TRUE(f);
  EXPECT_EQ(f->image.size(), cv::Size(1920, 1080));
  EXPECT_EQ(rig.opened - opened_before, 3);  // two of the small camera (after 0.5 s, 1.5 s), then the right one (3.5 s)
  const auto warnings = rig.of_kind(CameraEvent::Kind::warning);
  ASSERT_EQ(warnings.size(), 1u);  // said once, however many times it was found so
  EXPECT_NE(warnings[0].message.find("came back at 640x480, not 1920x1080"), std::string::npos) << warnings[0].message;
  EXPECT_EQ(source->gaps().size(), 1u);
}

}  // namespace
}  // namespace diskref::vision

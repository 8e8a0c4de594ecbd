// A session recording under faults: the disk fills (RLIMIT_FSIZE, no root needed), the recorder is
// killed with SIGKILL at random moments, the recorded times jump. Each ends with a clear message,
// and every frame written before is read back. Lines starting "[fault]" are figures that
// scripts/reliability.sh writes to docs/figures/reliability.md.
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/model/table_spec.h"
#include "recording/session_recording.h"
#include "tests/recording/child_report.h"
#include "tests/referee/test_table.h"
#include "tests/support/becomes_true.h"

namespace diskref::recording {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class RecordingFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    // Its own folder, also when another copy of the tests runs at the same time.
    root_ = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-faults" /
            (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
             std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
    std::ofstream(root_ / "table.json") << model::table_to_json(model::default_table()).dump();
    std::ofstream(root_ / "disks.json") << model::disk_registry_to_json(referee::testing::test_registry()).dump();
  }
  SessionFiles files() const { return {root_ / "table.json", root_ / "disks.json", std::nullopt}; }
  static SessionInfo info() { return {"video", "/videos/duel.mp4", std::nullopt, "2026-12-02T00:00:00Z", "tracker"}; }
  static model::TrackFrame frame(long long i) {
    model::TrackFrame f = referee::testing::spec_example_frame(0.25);
    f.frame = i;
    f.t = static_cast<double>(i) / 30.0;
    return f;
  }
  fs::path root_;
};

TEST_F(RecordingFaults, AFullDiskStopsTheRecordingLoudlyAndKeepsEveryFrameWritten) {
  const fs::path dir = root_ / "rec";
  // The lines as written (full precision: their lengths differ): room for 60 and half the 61st.
  long long room = 0;
  for (long long i = 100; i < 160; ++i)
    room += static_cast<long long>(model::to_jsonl_line(frame(i), model::Precision::exact).size()) + 1;
  room += static_cast<long long>(model::to_jsonl_line(frame(160), model::Precision::exact).size()) / 2;
  // Fill the disk in a child (the limit is the process's): 200 frames offered, room for 60.
  const rlim_t limit = static_cast<rlim_t>(room);
  const testing::ChildReport child = testing::run_in_child([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    SessionRecorder rec(dir, info(), files());  // the copies and session.json before the limit
    rlimit r{limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    for (long long i = 100; i < 300; ++i) rec.write_frame(frame(i));
    rec.write_event({1.0, 120, Severity::info, "an event after the disk filled"});
    return std::to_string(rec.frames_written()) + "\n" + (rec.failed() ? rec.failure() : "(no failure)");
  });
  const std::string& report = child.text;
  ASSERT_TRUE(child.exited_cleanly) << report;
  const long long written = std::stoll(report.substr(0, report.find('\n')));
  const std::string failure = report.substr(report.find('\n') + 1);
  EXPECT_EQ(written, 60);
  EXPECT_THAT(failure,
              HasSubstr("track.jsonl: writing line 61 failed: File too large; the 60 line(s) before it are kept, "
                        "complete, and nothing more is written; 60 frame(s) were recorded, 140 frame(s) and 1 "
                        "event(s) from then on were not"));
  const Recording r = load_recording(dir);
  // No line cut short, and the session ended: ended.json (small enough to fit) says it was not clean.
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_TRUE(r.ended);
  EXPECT_EQ((*r.ended)["clean"], false);
  EXPECT_THAT((*r.ended)["failure"].get<std::string>(), HasSubstr("File too large"));
  ASSERT_EQ(static_cast<long long>(r.frames.size()), written);
  EXPECT_EQ(r.frames.back().frame, 159);
  std::printf("[fault] recorder, disk full: %lld of 200 frames offered written, %zu read back; the message: %s\n",
              written, r.frames.size(), failure.c_str());
}

TEST_F(RecordingFaults, KilledAtRandomMomentsEveryFrameWrittenIsReadBack) {
  // The child records as fast as it can and counts, in shared memory, each frame write_frame has
  // returned from; SIGKILL comes once it has counted a number of frames drawn at random (from a
  // fixed seed: the same numbers each run, whatever the machine's speed; 1 to 5000, about what 5 to
  // 80 ms of writing make here), wherever its writing is then: it goes on while the kill is sent.
  // A frame counted is on disk: the recording read back holds at least as many frames, at most
  // one more (written, not yet counted), and no line cut short.
  auto* counted = static_cast<std::atomic<long long>*>(
      ::mmap(nullptr, sizeof(std::atomic<long long>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(counted, MAP_FAILED);
  std::mt19937 random(20261202);
  std::uniform_int_distribution<long long> frames_before_kill(1, 5000);
  for (int kill_no = 1; kill_no <= 10; ++kill_no) {
    const fs::path dir = root_ / ("rec-" + std::to_string(kill_no));
    new (counted) std::atomic<long long>(0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      SessionRecorder rec(dir, info(), files());
      for (long long i = 0;; ++i) {
        rec.write_frame(frame(i));
        if (i % 10 == 0) rec.write_event({static_cast<double>(i) / 30, i, Severity::info, "a disk settled"});
        counted->store(i + 1);
      }
    }
    // The child offers nothing to wait on but its count: asked until it is reached.
    const long long kill_after = frames_before_kill(random);
    const bool reached = diskref::testing::becomes_true([&] { return counted->load() >= kill_after; });
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(reached) << "kill " << kill_no << ": not " << kill_after << " frames counted in 30 s";
    ASSERT_TRUE(WIFSIGNALED(status));
    const long long written = counted->load();
    const Recording r = load_recording(dir);
    const auto kept = static_cast<long long>(r.frames.size());
    EXPECT_GE(kept, written) << "kill " << kill_no;
    EXPECT_LE(kept, written + 1) << "kill " << kill_no;
    for (long long i = 0; i < kept; ++i) ASSERT_EQ(r.frames[static_cast<std::size_t>(i)].frame, i);
    std::printf(
        "[fault] recorder kill -9 no. %d, once %lld frames were counted: %lld frames written before the kill, %lld "
        "read back%s\n",
        kill_no, kill_after, written, kept,
        r.warnings.empty() ? "" : " (the last line, cut short, dropped with a warning)");
  }
  ::munmap(counted, sizeof(std::atomic<long long>));
}

TEST_F(RecordingFaults, TimesThatJumpAreShortenedAndReported) {
  const fs::path dir = root_ / "rec";
  {
    SessionRecorder rec(dir, info(), files());
    rec.write_frame(frame(0));
    model::TrackFrame later = frame(1);
    later.t = 950400;  // 11 days on
    rec.write_frame(later);
  }
  const Recording r = load_recording(dir);
  ASSERT_EQ(r.frames.size(), 2u);
  EXPECT_DOUBLE_EQ(r.frames[1].t, 5.0);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_THAT(r.warnings[0],
              HasSubstr("track.jsonl: frame 1 came 950400.0 s after frame 0: played back 5.0 s after it"));
  // A jump of 1e300 s is no time a recording holds: the line is skipped, naming it.
  std::ofstream(dir / "track.jsonl", std::ios::app) << R"({"frame": 2, "t": 1e300, "disks": []})"
                                                    << "\n"
                                                    << R"({"frame": 3, "t": 1, "disks": []})"
                                                    << "\n";
  const Recording again = load_recording(dir);
  EXPECT_EQ(again.frames.size(), 3u) << "the line after it is read";
  ASSERT_GE(again.warnings.size(), 1u);
  EXPECT_THAT(again.warnings[0], HasSubstr("line 3: t: must be between 0 and 1e+07 s"));
}

TEST_F(RecordingFaults, AFolderThatCannotBeARecordingIsBadInput) {
  std::ofstream(root_ / "a-file") << "x";
  EXPECT_THROW(SessionRecorder(root_ / "a-file", info(), files()), io::InputError);
  EXPECT_THROW(SessionRecorder(root_, info(), files()), io::InputError);  // not empty
}

}  // namespace
}  // namespace diskref::recording

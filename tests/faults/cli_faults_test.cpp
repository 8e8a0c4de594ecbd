// build/diskref under faults and bad command lines, as a careful user would try them: standard
// output full or closed, outputs that are devices or folders, numbers no setting can be, a
// mistyped subcommand, a camera file for another camera, a video that ends or corrupts mid-stream,
// a tracker killed or out of disk. Each ends with its exit status (2 bad input, 1 failure while
// running) and a message naming the problem, and loses nothing already written. Lines starting
// "[fault]" are figures that scripts/reliability.sh writes to docs/figures/reliability.md.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/model/track_frame.h"
#include "tests/calibration/command_runner.h"
#include "tests/support/folder_writes.h"
#include "tests/support/process_exit.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;
using testing::CommandRun;
using ::testing::HasSubstr;

const std::string kSource = DISKREF_SOURCE_DIR;
const std::string kDiskref = std::string(DISKREF_BINARY_DIR) + "/diskref";
const std::string kDuel = kSource + "/sample_videos/duel";

// The first line of `text` that holds `needle` (FFmpeg's own notes come before diskref's).
std::string line_with(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return "";
  const auto start = text.rfind('\n', at);
  const auto begin = start == std::string::npos ? 0 : start + 1;
  return text.substr(begin, text.find('\n', at) - begin);
}

class CliFaults : public testing::CommandTest {
 protected:
  // `diskref ARGUMENTS REDIRECTIONS` in a shell: stderr to a file, stdout where told.
  CommandRun shell(const std::string& arguments, const std::string& stdout_to) {
    CommandRun r;
    const std::string command = kDiskref + " " + arguments + " " + stdout_to + " 2> " + path("err.txt");
    const int status = std::system(command.c_str());
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = testing::slurp(path("err.txt"));
    return r;
  }
  std::string track_args(const std::string& video, const std::string& out) const {
    return "track '" + video + "' --table " + kDuel + "/table.json --disks " + kDuel + "/disks.json --calib " + kDuel +
           "/camera.json --out '" + out + "' --quiet";
  }
};

TEST_F(CliFaults, AVerdictThatCannotBeWrittenIsAFailure) {
  const std::string scene = kSource + "/data/scenes/spec-example.json";
  CommandRun full = shell("check " + scene, "> /dev/full");
  EXPECT_EQ(full.status, 1);
  EXPECT_THAT(full.err,
              HasSubstr("diskref check: error: standard output could not be written: No space left on device"));
  CommandRun closed = shell("check " + scene, ">&-");
  EXPECT_EQ(closed.status, 1);
  EXPECT_THAT(closed.err, HasSubstr("standard output could not be written"));
  CommandRun play = shell("play " + kSource + "/data/scripts/diana_owen_duel.json", "> /dev/full");
  EXPECT_EQ(play.status, 1);
  EXPECT_THAT(play.err, HasSubstr("diskref play: error: standard output could not be written"));
  // The referee writes its log to a file and its summary to stderr: stderr full is a failure too
  // (the exit status is all that can say so), and the log is kept.
  const std::string skirmish = kSource + "/sample_videos/skirmish";
  const std::string referee_args = "referee --tracks " + skirmish + "/truth.jsonl --table " + skirmish +
                                   "/table.json --disks " + skirmish + "/disks.json --game " + skirmish +
                                   "/game.json --inputs " + skirmish + "/inputs.jsonl --out " + path("log.json");
  const int referee_raw = std::system((kDiskref + " " + referee_args + " > /dev/null 2> /dev/full").c_str());
  EXPECT_TRUE(WIFEXITED(referee_raw) && WEXITSTATUS(referee_raw) == 1) << referee_raw;
  EXPECT_TRUE(fs::exists(path("log.json")));
  CommandRun fine = shell("check " + scene, "> /dev/null");
  EXPECT_EQ(fine.status, 0) << fine.err;
  std::printf("[fault] stdout full (check > /dev/full): exit %d, \"%s\"\n", full.status,
              full.err.substr(0, full.err.find('\n')).c_str());
}

TEST_F(CliFaults, OutputsThatAreNotFilesAreRefusedBeforeAnyWork) {
  CommandRun dev = run("table " + kDuel + "/video.mp4 --table " + kDuel + "/table.json --calib " + kDuel +
                       "/camera.json --out /dev/null");
  EXPECT_EQ(dev.status, 2);
  EXPECT_THAT(dev.err, HasSubstr("/dev/null: exists and is not a regular file"));
  fs::create_directories(path("sheet.pdf"));
  CommandRun dir =
      run("tags --disks " + kDuel + "/disks.json --table " + kDuel + "/table.json --out " + path("sheet.pdf"));
  EXPECT_EQ(dir.status, 2);
  EXPECT_THAT(dir.err, HasSubstr("is a directory"));
}

TEST_F(CliFaults, BadOptionsAreBadInputWithTheRange) {
  const std::string base = track_args(kDuel + "/video.mp4", path("t.jsonl"));
  CommandRun nan = run(base + " --lost-after nan");
  EXPECT_EQ(nan.status, 2);
  EXPECT_THAT(nan.err, HasSubstr("must be a number between 0 and 1e+07, not \"nan\""));
  CommandRun family = run(base + " --tag-family tag99h1");
  EXPECT_EQ(family.status, 2);
  EXPECT_THAT(family.err, HasSubstr("tag99h1"));
  CommandRun board =
      run("calibrate --chessboard 100000x100000 --square-mm 25 " + kDuel + "/video.mp4 --out " + path("c.json"));
  EXPECT_EQ(board.status, 2);
  EXPECT_THAT(board.err, HasSubstr("each 2..100"));
}

#ifdef DISKREF_HAS_UI
TEST_F(CliFaults, TheScreensOptionsAreCheckedBeforeAWindowOpens) {
  // 99999x99999 used to end in X's error handler; an unknown extension in OpenCV's raw message.
  CommandRun size = run("ui --size 99999x99999");
  EXPECT_EQ(size.status, 2);
  EXPECT_THAT(size.err, HasSubstr("at most 8192x8192 (got \"99999x99999\")"));
  CommandRun shot = run("ui --screenshot " + path("shot.xyz") + " --frames 1");
  EXPECT_EQ(shot.status, 2);
  EXPECT_THAT(shot.err, HasSubstr("shot.xyz: cannot be written as an image: give a name ending in .png"));
  CommandRun record = run("ui --record " + kDuel + "/table.json --exit-at-end");
  EXPECT_EQ(record.status, 2);
  EXPECT_THAT(record.err, HasSubstr("table.json: exists and is not a folder"));
}
#endif

TEST_F(CliFaults, AMistypedSubcommandNamesTheNearest) {
  CommandRun r = run("chek scene.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("there is no subcommand \"chek\" (did you mean \"check\"?)"));
  EXPECT_THAT(r.err, HasSubstr("subcommands: "));
  CommandRun none = run("");
  EXPECT_EQ(none.status, 2);
  EXPECT_THAT(none.err, HasSubstr("give a subcommand"));
  CommandRun far = run("zzzzzzzzzz");
  EXPECT_EQ(far.status, 2);
  EXPECT_THAT(far.err, ::testing::Not(HasSubstr("did you mean")));
}

TEST_F(CliFaults, ACameraFileForAnotherCameraIsNamed) {
  // The duel's camera file says 1920x1080; a 1280x1024 one is for another camera mode.
  std::string camera = testing::slurp(kDuel + "/camera.json");
  const auto at = camera.find("\"image_size\"");
  ASSERT_NE(at, std::string::npos);
  camera = camera.substr(0, at) + "\"image_size\": [1280, 1024]\n}\n";
  // The principal point must still be in the image for the file itself to load.
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"959.5", "639.5"}, {"539.5", "511.5"}})
    camera.replace(camera.find(from), from.size(), to);
  std::ofstream(path("camera.json")) << camera;
  CommandRun r = run("track " + kDuel + "/video.mp4 --table " + kDuel + "/table.json --disks " + kDuel +
                     "/disks.json --calib " + path("camera.json") + " --out " + path("t.jsonl") + " --quiet");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("camera.json: image_size: is 1280x1024 (aspect 1.250), but the video is 1920x1080"));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("corner markers were never seen")));
}

TEST_F(CliFaults, AVideoCutShortEndsWithAWarningAndItsFramesKept) {
  const auto size = fs::file_size(kDuel + "/video.mp4");
  {
    std::ifstream in(kDuel + "/video.mp4", std::ios::binary);
    std::string bytes(size / 2, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::ofstream(path("cut.mp4"), std::ios::binary) << bytes;
  }
  CommandRun r = run(track_args(path("cut.mp4"), path("t.jsonl")));
  // An MP4 cut in half has lost its index (the moov box sits at the end of this one): the file
  // cannot be opened at all, and the message says so.
  if (r.status == 0) {
    EXPECT_THAT(r.err, HasSubstr("ended after"));
    EXPECT_FALSE(model::load_track_jsonl(path("t.jsonl")).empty());
  } else {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("cut.mp4"));
  }
  std::printf("[fault] video cut to half its bytes: exit %d, \"%s\"\n", r.status,
              line_with(r.err, "diskref track").c_str());
}

TEST_F(CliFaults, AVideoCorruptMidStreamKeepsEveryFrameRead) {
  // Garbage over a third of the video's bytes from its middle on: decoding stops or skips there.
  std::string bytes(static_cast<std::size_t>(fs::file_size(kDuel + "/video.mp4")), '\0');
  std::ifstream(kDuel + "/video.mp4", std::ios::binary).read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::mt19937 random(7);
  for (std::size_t i = bytes.size() / 2; i < bytes.size() * 5 / 6; ++i) bytes[i] = static_cast<char>(random());
  std::ofstream(path("corrupt.mp4"), std::ios::binary) << bytes;
  CommandRun r = run(track_args(path("corrupt.mp4"), path("t.jsonl")));
  EXPECT_TRUE(r.status == 0 || r.status == 1) << r.err;
  const std::vector<model::TrackFrame> frames = model::load_track_jsonl(path("t.jsonl"));  // every line whole
  EXPECT_GT(frames.size(), 100u);
  // The frames FFmpeg could not decode are said, and counted.
  EXPECT_THAT(r.out + r.err, HasSubstr("corrupt frames skipped: "));
  std::printf("[fault] video corrupt from its middle: exit %d, %zu frames tracked and kept, \"%s\"\n", r.status,
              frames.size(), line_with(r.out + r.err, "corrupt frames skipped").c_str());
}

TEST_F(CliFaults, ATrackerOutOfDiskStopsLoudlyWithItsLinesKept) {
  // ulimit -f counts 512-byte blocks: 40 KiB, a fraction of the duel's track file.
  const std::string command = "(ulimit -f 80; " + kDiskref + " " + track_args(kDuel + "/video.mp4", path("t.jsonl")) +
                              ") > /dev/null 2> " + path("err.txt");
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  const std::string err = testing::slurp(path("err.txt"));
  EXPECT_EQ(status, 1) << err;
  EXPECT_THAT(err, HasSubstr("t.jsonl: writing line"));
  EXPECT_THAT(err, HasSubstr("failed: File too large"));
  const std::vector<model::TrackFrame> frames = model::load_track_jsonl(path("t.jsonl"));
  EXPECT_GT(frames.size(), 0u);
  EXPECT_LE(fs::file_size(path("t.jsonl")), 80u * 512);
  std::printf("[fault] track out of disk (ulimit -f 80): exit %d, %zu frames kept, \"%s\"\n", status, frames.size(),
              line_with(err, "diskref track").c_str());
}

// The newlines in `file` so far (0 when it is not there yet).
long long whole_lines_in(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  long long lines = 0;
  for (char c; in.get(c);) lines += c == '\n';
  return lines;
}

TEST_F(CliFaults, ATrackerKilledAtRandomMomentsLeavesAReadableFile) {
  std::mt19937 random(42);
  // Killed once the file holds a random number of frames (not after a random time, which on a
  // slow machine may come before the first frame): wherever a write is when the kill comes.
  std::uniform_int_distribution<int> frames_before_kill(1, 120);
  for (int kill_no = 1; kill_no <= 4; ++kill_no) {
    const std::string out = path("killed-" + std::to_string(kill_no) + ".jsonl");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const std::string args = track_args(kDuel + "/video.mp4", out) + " 2>/dev/null >/dev/null";
      ::execl("/bin/sh", "sh", "-c", ("exec " + kDiskref + " " + args).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const long long kill_after = frames_before_kill(random);
    // Woken by each write to the output's folder, or by the tracker's end (it writes no more).
    const testing::ProcessExit tracker_ended(child);
    const testing::FolderWrites writes(std::filesystem::path(out).parent_path());
    int status = 0;
    bool ended = false;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(180);
    while (!ended && whole_lines_in(out) < kill_after) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
      ASSERT_GT(left.count(), 0) << "kill " << kill_no << ": not " << kill_after << " frames in 180 s";
      ended = ::waitpid(child, &status, WNOHANG) == child;
      if (!ended) writes.wait(left, tracker_ended.fd());
    }
    if (!ended) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
    }
    std::vector<std::string> cut_short;
    std::size_t lines = 0;
    if (fs::exists(out)) {
      const std::string text = testing::slurp(out);
      for (char c : text) lines += c == '\n';
      EXPECT_TRUE(text.empty() || text.back() == '\n') << "kill " << kill_no << ": a line cut short";
      EXPECT_EQ(model::load_track_jsonl(out).size(), lines);
    }
    std::printf("[fault] diskref track kill -9 no. %d, after %lld frames (%s): %zu frames on disk, all read back\n",
                kill_no, kill_after, WIFSIGNALED(status) ? "killed" : "had finished", lines);
  }
}

}  // namespace
}  // namespace diskref

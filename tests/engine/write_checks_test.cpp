// Every write checked: LineFile (a line per write) and write_file_atomically, on a disk that fills
// (RLIMIT_FSIZE: a write past the limit fails with EFBIG, as a full disk fails with ENOSPC, and
// needs no root), and on paths that are not regular files. The limit is set in a child process (a
// death test), so that the test program itself is not limited.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/line_file.h"
#include "engine/io/write_error.h"

namespace diskref::io {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("diskref-write-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir / name;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void limit_file_size(rlim_t bytes) {
  ::signal(SIGXFSZ, SIG_IGN);  // as diskref's main(): EFBIG instead of death
  rlimit r{bytes, bytes};
  ::setrlimit(RLIMIT_FSIZE, &r);
}

TEST(LineFile, WritesEachLineWhole) {
  const fs::path f = scratch("lines.jsonl");
  {
    LineFile out(f, LineFile::Mode::truncate);
    EXPECT_TRUE(out.write_line("{\"a\": 1}"));
    EXPECT_TRUE(out.write_line("{\"a\": 2}"));
    EXPECT_EQ(out.lines_written(), 2);
    EXPECT_FALSE(out.failed());
  }
  EXPECT_EQ(slurp(f), "{\"a\": 1}\n{\"a\": 2}\n");
  LineFile more(f, LineFile::Mode::append);
  EXPECT_TRUE(more.write_line("3"));
  EXPECT_EQ(slurp(f), "{\"a\": 1}\n{\"a\": 2}\n3\n");
}

TEST(LineFileDeathTest, AFullDiskKeepsEveryWholeLineAndSaysSo) {
  const fs::path f = scratch("full.jsonl");
  const std::string line(99, 'x');  // 100 bytes with its newline
  EXPECT_EXIT(
      {
        limit_file_size(1050);  // room for 10 lines and half of the 11th
        LineFile out(f, LineFile::Mode::truncate);
        int ok = 0;
        while (out.write_line(line)) ++ok;
        const bool later_refused = !out.write_line(line);
        std::fprintf(stderr, "%s\n", out.failure().c_str());
        std::exit(ok == 10 && later_refused && out.lines_written() == 10 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "writing line 11 failed: File too large; the 10 line\\(s\\) before it are kept");
  // The half-written 11th line was cut off: the file ends with a whole line.
  EXPECT_EQ(fs::file_size(f), 1000u);
  EXPECT_EQ(slurp(f).back(), '\n');
}

TEST(LineFile, AFolderThatIsMissingIsBadInput) {
  EXPECT_THROW(LineFile(scratch("no/such/folder/x.jsonl"), LineFile::Mode::truncate), InputError);
}

TEST(AtomicWrite, RefusesWhatIsNotARegularFile) {
  try {
    write_file_atomically("/dev/null", "x");
    ADD_FAILURE() << "wrote over /dev/null";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/dev/null: exists and is not a regular file"));
  }
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));  // still the device
  const fs::path dir = scratch("a-folder");
  fs::create_directories(dir);
  EXPECT_THROW(write_file_atomically(dir, "x"), InputError);
  EXPECT_THROW(check_output_path(dir), InputError);
  const fs::path fifo = scratch("a-pipe");
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THROW(check_output_path(fifo), InputError);
  EXPECT_NO_THROW(check_output_path(scratch("not-yet-there.json")));
}

TEST(AtomicWrite, WritesThroughASymbolicLink) {
  const fs::path target = scratch("target.json"), link = scratch("link.json");
  fs::remove(link);
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(target), "new");
}

TEST(AtomicWriteDeathTest, AFullDiskLeavesTheOldFileAsItWas) {
  const fs::path f = scratch("kept.json");
  std::ofstream(f) << "the old contents\n";
  EXPECT_EXIT(
      {
        limit_file_size(4096);
        try {
          write_file_atomically(f, std::string(100000, 'y'));
        } catch (const WriteError& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(0);
        }
        std::exit(1);
      },
      ::testing::ExitedWithCode(0), "writing failed: File too large \\(nothing was written: the file is as it was\\)");
  EXPECT_EQ(slurp(f), "the old contents\n");
  EXPECT_FALSE(fs::exists(scratch("kept.json.tmp")));
}

}  // namespace
}  // namespace diskref::io

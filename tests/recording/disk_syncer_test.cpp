// The syncer that keeps the video's encoder from waiting for the disk.
#include "recording/disk_syncer.h"

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace diskref::recording {
namespace {

using namespace std::chrono_literals;

TEST(DiskSyncer, RunsTasksInTheOrderAskedAndDrainRunsThemAll) {
  std::vector<int> done;
  std::mutex m;
  DiskSyncer syncer;
  for (int i = 0; i < 50; ++i)
    syncer.submit([&, i] {
      std::lock_guard lock(m);
      done.push_back(i);
      return std::string();
    });
  syncer.drain();
  ASSERT_EQ(done.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(done[static_cast<std::size_t>(i)], i);
  EXPECT_FALSE(syncer.failure().has_value());
}

TEST(DiskSyncer, TheAskerDoesNotWaitForASlowSync) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<bool> second_ran{false};
  DiskSyncer syncer;
  syncer.submit([released] {
    released.wait();  // a disk that takes its time
    return std::string();
  });
  syncer.submit([&] {
    second_ran = true;
    return std::string();
  });
  // Both were taken while the first still waits; the second waits its turn.
  EXPECT_FALSE(second_ran.load());
  release.set_value();
  syncer.drain();
  EXPECT_TRUE(second_ran.load());
}

TEST(DiskSyncer, KeepsTheFirstFailureWithItsTagAndStillRunsTheRest) {
  std::atomic<int> ran{0};
  DiskSyncer syncer;
  syncer.submit(
      [&] {
        ++ran;
        return std::string("a.mjpeg: flushing it to the disk (fdatasync) failed: Input/output error");
      },
      7);
  syncer.submit(
      [&]() -> std::string {
        ++ran;
        throw std::runtime_error("b: out of memory");
      },
      8);
  syncer.submit([&] {
    ++ran;  // a task that closes a file must still run
    return std::string();
  });
  syncer.drain();
  EXPECT_EQ(ran.load(), 3);
  ASSERT_TRUE(syncer.failure().has_value());
  EXPECT_EQ(syncer.failure()->what, "a.mjpeg: flushing it to the disk (fdatasync) failed: Input/output error");
  EXPECT_EQ(syncer.failure()->tag, 7);
}

TEST(DiskSyncer, ATaskAskedAfterTheDrainRunsAtOnce) {
  DiskSyncer syncer;
  syncer.drain();
  bool ran = false;
  syncer.submit(
      [&] {
        ran = true;
        return std::string("late.jpg: cannot be written");
      },
      2);
  EXPECT_TRUE(ran);
  ASSERT_TRUE(syncer.failure().has_value());
  EXPECT_EQ(syncer.failure()->tag, 2);
  syncer.drain();  // again: nothing
}

}  // namespace
}  // namespace diskref::recording

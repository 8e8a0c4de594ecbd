// The decoding-ahead wrapper: the same frames in the same order, the wrapped source's counts, an
// error from the wrapped source passed on, and a clean stop when dropped early.
#include "vision/prefetching_source.h"

#include <algorithm>
#include <stdexcept>

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

// Frames 0..count-1, each a 4x4 image filled with its index; optionally throws at `fail_at`.
class CountingSource final : public FrameSource {
 public:
  CountingSource(int count, int fail_at = -1) : count_(count), fail_at_(fail_at) {}
  std::optional<Frame> next() override {
    if (next_ == fail_at_) throw std::runtime_error("decoder broke");
    if (next_ >= count_) return std::nullopt;
    Frame f;
    f.image = cv::Mat(4, 4, CV_8U, cv::Scalar(next_));
    f.index = next_;
    f.t = next_ / 10.0;
    ++next_;
    return f;
  }
  double frames_per_second() const override { return 10; }
  std::optional<long long> frame_count() const override { return count_; }
  long long corrupt_frames_skipped() const override { return 3; }
  cv::Size frame_size() const override { return {4, 4}; }
  std::string description() const override { return "counting"; }
  bool can_seek() const override { return true; }
  void seek(long long index) override { next_ = static_cast<int>(std::clamp<long long>(index, 0, count_)); }

 private:
  int count_;
  int fail_at_;
  int next_ = 0;
};

TEST(PrefetchingSource, GivesTheSameFramesInOrder) {
  auto source = prefetching(std::make_unique<CountingSource>(50), 3);
  EXPECT_EQ(source->frame_count(), 50);
  EXPECT_EQ(source->description(), "counting");
  EXPECT_DOUBLE_EQ(source->frames_per_second(), 10);
  for (int i = 0; i < 50; ++i) {
    auto f = source->next();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->index, i);
    EXPECT_EQ(f->image.at<uint8_t>(0, 0), i);
  }
  EXPECT_FALSE(source->next());
  EXPECT_EQ(source->corrupt_frames_skipped(), 3);
}

TEST(PrefetchingSource, SeekDropsWhatWasDecodedAheadAndGoesOnFromThere) {
  auto source = prefetching(std::make_unique<CountingSource>(50), 4);
  ASSERT_TRUE(source->can_seek());
  EXPECT_EQ(source->next()->index, 0);
  EXPECT_EQ(source->next()->index, 1);
  source->seek(30);
  for (int i = 30; i < 35; ++i) {
    std::optional<Frame> f = source->next();
    ASSERT_TRUE(f);
    EXPECT_EQ(f->index, i);
    EXPECT_EQ(f->image.at<uchar>(0, 0), i);
  }
  source->seek(3);  // backwards too
  EXPECT_EQ(source->next()->index, 3);
  source->seek(49);
  EXPECT_EQ(source->next()->index, 49);
  EXPECT_FALSE(source->next());
}

TEST(PrefetchingSource, PassesOnTheWrappedSourcesError) {
  auto source = prefetching(std::make_unique<CountingSource>(50, 7), 2);
  for (int i = 0; i < 7; ++i) ASSERT_TRUE(source->next());
  EXPECT_THROW(source->next(), std::runtime_error);
}

TEST(PrefetchingSource, StopsWhenDroppedEarly) {
  auto source = prefetching(std::make_unique<CountingSource>(1000), 4);
  ASSERT_TRUE(source->next());
  source.reset();  // must not hang
  SUCCEED();
}

}  // namespace
}  // namespace diskref::vision

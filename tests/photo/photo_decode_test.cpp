// A dispute's photo decoded (photo/photo_decode.h): the size its header claims, its EXIF, the
// limits checked before a pixel is decoded, the picture turned upright.
#include "photo/photo_decode.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "tests/photo/exif_block.h"

namespace diskref::photo {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes encode(const cv::Mat& image, const std::string& extension, std::vector<int> params = {}) {
  Bytes bytes;
  EXPECT_TRUE(cv::imencode(extension, image, bytes, params));
  return bytes;
}

cv::Mat gradient(int width, int height) {
  cv::Mat image(height, width, CV_8UC3);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) image.at<cv::Vec3b>(y, x) = cv::Vec3b(uchar(x), uchar(y), uchar(x + y));
  }
  return image;
}

TEST(ClaimedImageSize, ReadsJpegPngAndWebpHeaders) {
  const cv::Mat image = gradient(123, 45);
  for (const char* extension : {".jpg", ".png", ".webp"}) {
    const auto size = claimed_image_size(encode(image, extension));
    ASSERT_TRUE(size.has_value()) << extension;
    EXPECT_EQ(*size, cv::Size(123, 45)) << extension;
  }
}

TEST(ClaimedImageSize, ReadsLosslessWebp) {
  const auto size = claimed_image_size(encode(gradient(77, 31), ".webp", {cv::IMWRITE_WEBP_QUALITY, 101}));
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(*size, cv::Size(77, 31));
}

TEST(ClaimedImageSize, ReadsAJpegWhoseFrameComesAfterExif) {
  const Bytes jpeg = with_exif(encode(gradient(64, 48), ".jpg"), ExifSpec{1, 4.2, {}, {}, {}});
  const auto size = claimed_image_size(jpeg);
  ASSERT_TRUE(size.has_value());
  EXPECT_EQ(*size, cv::Size(64, 48));
}

TEST(ClaimedImageSize, NoneForOtherBytes) {
  EXPECT_FALSE(claimed_image_size(Bytes{}).has_value());
  const std::string text = "GIF89a and some more bytes that are no image at all";
  EXPECT_FALSE(claimed_image_size(Bytes(text.begin(), text.end())).has_value());
  Bytes truncated = encode(gradient(20, 20), ".jpg");
  truncated.resize(4);
  EXPECT_FALSE(claimed_image_size(truncated).has_value());
}

TEST(ReadExif, ReadsFocalLengthsOrientationAndCamera) {
  const Bytes jpeg = with_exif(encode(gradient(32, 16), ".jpg"), ExifSpec{6, 5.96, 26, "Apple", "iPhone 15"});
  const ExifFacts facts = read_exif(jpeg);
  ASSERT_TRUE(facts.focal_length_mm.has_value());
  EXPECT_NEAR(*facts.focal_length_mm, 5.96, 1e-9);
  ASSERT_TRUE(facts.focal_length_35mm.has_value());
  EXPECT_EQ(*facts.focal_length_35mm, 26);
  EXPECT_EQ(facts.orientation, 6);
  EXPECT_EQ(facts.camera, "Apple iPhone 15");
}

TEST(ReadExif, AModelThatRepeatsTheMakeIsNotDoubled) {
  const Bytes jpeg = with_exif(encode(gradient(8, 8), ".jpg"), ExifSpec{{}, {}, {}, "Canon", "Canon EOS R5"});
  EXPECT_EQ(read_exif(jpeg).camera, "Canon EOS R5");
}

TEST(ReadExif, NothingFromAPhotoWithoutExif) {
  const ExifFacts facts = read_exif(encode(gradient(8, 8), ".png"));
  EXPECT_FALSE(facts.focal_length_mm.has_value());
  EXPECT_FALSE(facts.focal_length_35mm.has_value());
  EXPECT_EQ(facts.orientation, 1);
  EXPECT_EQ(facts.camera, "");
}

TEST(DecodePhoto, TurnsThePictureUprightByItsExifOrientation) {
  // A bright block at the top-left of the stored pixels; orientation 6 says "rotate 90 degrees
  // clockwise to show": upright, the picture is tall and the block is at its top-right.
  cv::Mat stored(40, 80, CV_8UC3, cv::Scalar::all(0));
  stored(cv::Rect(0, 0, 16, 16)).setTo(cv::Scalar::all(255));
  const Photo upright = decode_photo(with_exif(encode(stored, ".jpg"), ExifSpec{6, {}, {}, {}, {}}), "rotated.jpg");
  ASSERT_EQ(upright.image.size(), cv::Size(40, 80));
  EXPECT_EQ(upright.exif.orientation, 6);
  cv::Mat gray;
  cv::cvtColor(upright.image, gray, cv::COLOR_BGR2GRAY);
  EXPECT_GT(cv::mean(gray(cv::Rect(28, 2, 10, 10)))[0], 200);  // top-right
  EXPECT_LT(cv::mean(gray(cv::Rect(2, 2, 10, 10)))[0], 50);    // top-left

  const Photo as_stored = decode_photo(with_exif(encode(stored, ".jpg"), ExifSpec{1, {}, {}, {}, {}}), "upright.jpg");
  EXPECT_EQ(as_stored.image.size(), cv::Size(80, 40));
}

TEST(DecodePhoto, RefusesADecompressionBombFromItsHeader) {
  // A PNG header claiming 60 000 x 60 000 pixels, followed by nothing: refused from the header
  // (were it decoded, OpenCV would first try to allocate 10 GB).
  Bytes bomb = encode(gradient(4, 4), ".png");
  const auto put = [&](std::size_t at, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) bomb[at + std::size_t(i)] = std::uint8_t(value >> (24 - 8 * i));
  };
  put(16, 60000);
  put(20, 60000);
  try {
    decode_photo(bomb, "bomb.png");
    FAIL() << "a bomb was decoded";
  } catch (const PhotoRefused& refused) {
    const std::string message = refused.what();
    EXPECT_NE(message.find("bomb.png"), std::string::npos) << message;
    EXPECT_NE(message.find("60000 x 60000"), std::string::npos) << message;
    EXPECT_NE(message.find("120 Mpx"), std::string::npos) << message;
  }
}

TEST(DecodePhoto, RefusesTooManyBytesTooLongASideAndNoImage) {
  const Bytes jpeg = encode(gradient(300, 20), ".jpg");
  EXPECT_THROW(decode_photo(jpeg, "x.jpg", {.max_bytes = 100, .max_pixels = 120'000'000, .max_side = 20'000}),
               PhotoRefused);
  EXPECT_THROW(decode_photo(jpeg, "x.jpg", {.max_bytes = 64u << 20, .max_pixels = 120'000'000, .max_side = 200}),
               PhotoRefused);
  const std::string text = "not a picture";
  try {
    decode_photo(Bytes(text.begin(), text.end()), "notes.txt");
    FAIL();
  } catch (const PhotoRefused& refused) {
    EXPECT_NE(std::string(refused.what()).find("notes.txt: not a JPEG, PNG or WebP"), std::string::npos)
        << refused.what();
  }
}

TEST(DecodePhoto, RefusesABrokenImageWithAGoodHeader) {
  Bytes jpeg = encode(gradient(64, 64), ".jpg");
  jpeg.resize(jpeg.size() / 3);
  std::fill(jpeg.begin() + static_cast<std::ptrdiff_t>(jpeg.size() / 2), jpeg.end(), std::uint8_t{0});
  // A truncated JPEG may still decode partly (libjpeg fills the rest); either it is refused or it
  // comes out at its header's size, never something else.
  try {
    const Photo photo = decode_photo(jpeg, "cut.jpg");
    EXPECT_EQ(photo.image.size(), cv::Size(64, 64));
  } catch (const PhotoRefused& refused) {
    EXPECT_NE(std::string(refused.what()).find("cut.jpg"), std::string::npos);
  }
}

TEST(LoadPhoto, ReadsAFileAndNamesAMissingOne) {
  const auto dir = std::filesystem::temp_directory_path() / ("diskref_photo_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "table.png";
  const Bytes png = encode(gradient(50, 30), ".png");
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
  const Photo photo = load_photo(file);
  EXPECT_EQ(photo.image.size(), cv::Size(50, 30));
  EXPECT_EQ(photo.source, file.string());
  try {
    load_photo(dir / "missing.jpg");
    FAIL();
  } catch (const PhotoRefused& refused) {
    EXPECT_NE(std::string(refused.what()).find("missing.jpg"), std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace diskref::photo

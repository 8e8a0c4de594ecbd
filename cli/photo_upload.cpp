#include "cli/photo_upload.h"

#include <memory>
#include <mutex>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/input_error.h"

namespace diskref::cli {
namespace {

// The status a refused photo is answered with, from what its header claims (decode_photo says why).
unsigned refusal_status(std::span<const std::uint8_t> bytes, const photo::PhotoLimits& limits) {
  if (bytes.size() > limits.max_bytes) return 413;
  const std::optional<cv::Size> claimed = photo::claimed_image_size(bytes);
  if (!claimed) return 415;
  if (static_cast<std::int64_t>(claimed->width) * claimed->height > limits.max_pixels ||
      std::max(claimed->width, claimed->height) > limits.max_side)
    return 413;
  return 422;
}

std::string annotated_jpeg(const cv::Mat& annotated) {
  if (annotated.empty()) return "";
  cv::Mat shown = annotated;
  const int long_side = std::max(annotated.cols, annotated.rows);
  if (long_side > kAnnotatedLongSide) {
    const double scale = static_cast<double>(kAnnotatedLongSide) / long_side;
    cv::resize(annotated, shown, {}, scale, scale, cv::INTER_AREA);
  }
  std::vector<unsigned char> jpeg;
  cv::imencode(".jpg", shown, jpeg, {cv::IMWRITE_JPEG_QUALITY, 85});
  return {jpeg.begin(), jpeg.end()};
}

}  // namespace

photo::PhotoLimits upload_photo_limits(const net::PhotoPageOptions& page) {
  photo::PhotoLimits limits;
  limits.max_bytes = page.max_upload_bytes;
  return limits;
}

net::PhotoRuler photo_ruler(model::DiskRegistry registry, photo::PhotoOptions options, photo::PhotoLimits limits) {
  auto one_at_a_time = std::make_shared<std::mutex>();
  return [registry = std::move(registry), options = std::move(options), limits,
          one_at_a_time](const net::PhotoSubmission& s) {
    net::PhotoReply reply;
    std::lock_guard lock(*one_at_a_time);
    try {
      const photo::Photo photo = photo::decode_photo(s.bytes, s.source, limits);
      photo::PhotoRuling ruling = photo::rule_on_photo(photo, registry, s.questions, options);
      reply.ruling = std::move(ruling.answer);
      reply.picture = annotated_jpeg(ruling.annotated);
    } catch (const photo::PhotoRefused& e) {
      reply.status = refusal_status(s.bytes, limits);
      reply.refusal = e.what();
    } catch (const io::InputError& e) {
      reply.status = 400;
      reply.refusal = e.what();
    }
    return reply;
  };
}

}  // namespace diskref::cli

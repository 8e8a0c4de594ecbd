#include "vision/apriltag_detector.h"

#include <stdexcept>

extern "C" {
#include <apriltag/apriltag.h>
#include <apriltag/tag16h5.h>
#include <apriltag/tag25h9.h>
#include <apriltag/tag36h10.h>
#include <apriltag/tag36h11.h>
#include <apriltag/tagCircle21h7.h>
#include <apriltag/tagCircle49h12.h>
#include <apriltag/tagCustom48h12.h>
#include <apriltag/tagStandard41h12.h>
#include <apriltag/tagStandard52h13.h>
}

namespace diskref::vision {
namespace {

// The one table of families: name, constructor, destructor.
struct FamilyEntry {
  const char* name;
  apriltag_family_t* (*create)();
  void (*destroy)(apriltag_family_t*);
};

constexpr FamilyEntry kFamilies[] = {
    {"tagStandard41h12", tagStandard41h12_create, tagStandard41h12_destroy},
    {"tag36h11", tag36h11_create, tag36h11_destroy},
    {"tag36h10", tag36h10_create, tag36h10_destroy},
    {"tag25h9", tag25h9_create, tag25h9_destroy},
    {"tag16h5", tag16h5_create, tag16h5_destroy},
    {"tagCircle21h7", tagCircle21h7_create, tagCircle21h7_destroy},
    {"tagCircle49h12", tagCircle49h12_create, tagCircle49h12_destroy},
    {"tagCustom48h12", tagCustom48h12_create, tagCustom48h12_destroy},
    {"tagStandard52h13", tagStandard52h13_create, tagStandard52h13_destroy},
};

const FamilyEntry* find_family(const std::string& name) {
  for (const auto& f : kFamilies)
    if (name == f.name) return &f;
  return nullptr;
}

}  // namespace

std::vector<std::string> known_tag_families() {
  std::vector<std::string> out;
  for (const auto& f : kFamilies) out.emplace_back(f.name);
  return out;
}

struct AprilTagDetector::Impl {
  void (*destroy_family)(apriltag_family_t*) = nullptr;
  apriltag_family_t* family = nullptr;
  apriltag_detector_t* detector = nullptr;

  ~Impl() {
    if (detector) apriltag_detector_destroy(detector);
    if (family) destroy_family(family);
  }
};

AprilTagDetector::AprilTagDetector(const DetectorOptions& options)
    : options_(options), impl_(std::make_unique<Impl>()) {
  const FamilyEntry* entry = find_family(options.family);
  if (!entry) throw std::invalid_argument("unknown AprilTag family \"" + options.family + "\"");
  if (options.threads < 1) throw std::invalid_argument("detector threads must be >= 1");
  if (options.library_threads < 1) throw std::invalid_argument("apriltag's library threads must be >= 1");
  if (!(options.quad_decimate >= 1.0)) throw std::invalid_argument("quad_decimate must be >= 1");
  if (options.max_hamming < 0 || options.max_hamming > 2) throw std::invalid_argument("max_hamming must be 0, 1 or 2");
  impl_->family = entry->create();
  impl_->destroy_family = entry->destroy;
  impl_->detector = apriltag_detector_create();
  // Building the decode table for only the bits we accept saves memory and time.
  apriltag_detector_add_family_bits(impl_->detector, impl_->family, options.max_hamming);
  impl_->detector->nthreads = options.library_threads;
  impl_->detector->quad_decimate = static_cast<float>(options.quad_decimate);
  impl_->detector->quad_sigma = static_cast<float>(options.quad_sigma);
  impl_->detector->refine_edges = options.refine_edges;
  impl_->detector->decode_sharpening = options.decode_sharpening;
  impl_->detector->qtp.min_white_black_diff = options.min_white_black_diff;
  impl_->detector->debug = false;
}

AprilTagDetector::~AprilTagDetector() = default;
AprilTagDetector::AprilTagDetector(AprilTagDetector&&) noexcept = default;
AprilTagDetector& AprilTagDetector::operator=(AprilTagDetector&&) noexcept = default;

int AprilTagDetector::cells_across_corners() const {
  return impl_->family->width_at_border;
}
int AprilTagDetector::cells_across_tag() const {
  return impl_->family->total_width;
}

void AprilTagDetector::set_quad_decimate(double decimate) {
  if (!(decimate >= 1.0)) throw std::invalid_argument("quad_decimate must be >= 1");
  options_.quad_decimate = decimate;
  impl_->detector->quad_decimate = static_cast<float>(decimate);
}

std::vector<TagDetection> AprilTagDetector::detect(const cv::Mat& gray) {
  return detect(gray, cv::Rect(0, 0, gray.cols, gray.rows));
}

std::vector<TagDetection> AprilTagDetector::detect(const cv::Mat& gray, cv::Rect roi) {
  if (gray.type() != CV_8UC1) throw std::invalid_argument("AprilTagDetector::detect needs an 8-bit grey image");
  roi &= cv::Rect(0, 0, gray.cols, gray.rows);
  std::vector<TagDetection> out;
  if (roi.width < 8 || roi.height < 8) return out;

  image_u8_t image{roi.width, roi.height, static_cast<int32_t>(gray.step[0]),
                   const_cast<uint8_t*>(gray.ptr<uint8_t>(roi.y) + roi.x)};
  zarray_t* detections = apriltag_detector_detect(impl_->detector, &image);
  for (int i = 0; i < zarray_size(detections); ++i) {
    apriltag_detection_t* det = nullptr;
    zarray_get(detections, i, &det);
    if (det->hamming > options_.max_hamming || static_cast<double>(det->decision_margin) < options_.min_decision_margin)
      continue;
    TagDetection d;
    d.id = det->id;
    d.hamming = det->hamming;
    d.decision_margin = static_cast<double>(det->decision_margin);
    // apriltag puts pixel centres at i + 0.5; OpenCV at i.
    const double dx = roi.x - 0.5;
    const double dy = roi.y - 0.5;
    for (int k = 0; k < 4; ++k) d.corners[static_cast<std::size_t>(k)] = {det->p[k][0] + dx, det->p[k][1] + dy};
    d.center = {det->c[0] + dx, det->c[1] + dy};
    out.push_back(d);
  }
  apriltag_detections_destroy(detections);
  return out;
}

}  // namespace diskref::vision

#include "vision/camera_inventory.h"

#include <linux/videodev2.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <tuple>

#include "engine/io/input_error.h"

namespace diskref::vision {
namespace {

std::string text_of(const unsigned char* bytes, std::size_t size) {
  const auto* p = reinterpret_cast<const char*>(bytes);
  return std::string(p, strnlen(p, size));
}

// Formats OpenCV 4.6's V4L2 backend converts to BGR (cap_v4l.cpp, convertToRgb).
bool opencv_decodes(std::uint32_t fourcc) {
  static const std::uint32_t kDecodable[] = {
      V4L2_PIX_FMT_MJPEG,  V4L2_PIX_FMT_JPEG,   V4L2_PIX_FMT_YUYV,   V4L2_PIX_FMT_UYVY,    V4L2_PIX_FMT_NV12,
      V4L2_PIX_FMT_NV21,   V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUV411P, V4L2_PIX_FMT_RGB24,
      V4L2_PIX_FMT_BGR24,  V4L2_PIX_FMT_GREY,   V4L2_PIX_FMT_Y16,    V4L2_PIX_FMT_SBGGR8,  V4L2_PIX_FMT_SGBRG8,
      V4L2_PIX_FMT_SRGGB8, V4L2_PIX_FMT_XBGR32, V4L2_PIX_FMT_ABGR32};
  return std::find(std::begin(kDecodable), std::end(kDecodable), fourcc) != std::end(kDecodable);
}

// MJPEG first (full rate at full size over USB 2), then the uncompressed formats, then the rest.
int format_rank(std::uint32_t fourcc) {
  if (fourcc == V4L2_PIX_FMT_MJPEG) return 0;
  if (fourcc == V4L2_PIX_FMT_JPEG) return 1;
  if (fourcc == V4L2_PIX_FMT_YUYV || fourcc == V4L2_PIX_FMT_UYVY || fourcc == V4L2_PIX_FMT_NV12) return 2;
  return 3;
}

std::vector<double> frame_rates(V4l2Device& device, std::uint32_t fourcc, int width, int height) {
  std::vector<double> rates;
  for (std::uint32_t i = 0; i < 64; ++i) {
    v4l2_frmivalenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    e.width = static_cast<std::uint32_t>(width);
    e.height = static_cast<std::uint32_t>(height);
    if (device.ioctl(VIDIOC_ENUM_FRAMEINTERVALS, &e) != 0) break;
    if (e.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
      if (e.discrete.numerator > 0) rates.push_back(static_cast<double>(e.discrete.denominator) / e.discrete.numerator);
    } else {
      // A range of intervals: its fastest and slowest ends.
      if (e.stepwise.min.numerator > 0)
        rates.push_back(static_cast<double>(e.stepwise.min.denominator) / e.stepwise.min.numerator);
      if (e.stepwise.max.numerator > 0)
        rates.push_back(static_cast<double>(e.stepwise.max.denominator) / e.stepwise.max.numerator);
      break;
    }
  }
  std::sort(rates.begin(), rates.end(), std::greater<>());
  rates.erase(std::unique(rates.begin(), rates.end()), rates.end());
  return rates;
}

std::vector<FrameSizeRates> frame_sizes(V4l2Device& device, std::uint32_t fourcc) {
  std::vector<FrameSizeRates> sizes;
  for (std::uint32_t i = 0; i < 256; ++i) {
    v4l2_frmsizeenum e{};
    e.index = i;
    e.pixel_format = fourcc;
    if (device.ioctl(VIDIOC_ENUM_FRAMESIZES, &e) != 0) break;
    if (e.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
      sizes.push_back({static_cast<int>(e.discrete.width), static_cast<int>(e.discrete.height), {}});
    } else {
      // A range of sizes: its smallest and largest.
      sizes.push_back({static_cast<int>(e.stepwise.min_width), static_cast<int>(e.stepwise.min_height), {}});
      sizes.push_back({static_cast<int>(e.stepwise.max_width), static_cast<int>(e.stepwise.max_height), {}});
      break;
    }
  }
  for (FrameSizeRates& s : sizes) s.fps = frame_rates(device, fourcc, s.width, s.height);
  return sizes;
}

std::optional<CameraControl> read_control(V4l2Device& device, const NamedControl& named) {
  v4l2_queryctrl q{};
  q.id = named.id;
  if (device.ioctl(VIDIOC_QUERYCTRL, &q) != 0 || (q.flags & V4L2_CTRL_FLAG_DISABLED) != 0) return std::nullopt;
  CameraControl c;
  c.id = named.id;
  c.name = named.name;
  c.minimum = q.minimum;
  c.maximum = q.maximum;
  c.step = q.step;
  c.default_value = q.default_value;
  c.inactive = (q.flags & V4L2_CTRL_FLAG_INACTIVE) != 0;
  v4l2_control value{};
  value.id = named.id;
  if (device.ioctl(VIDIOC_G_CTRL, &value) == 0) c.value = value.value;
  if (q.type == V4L2_CTRL_TYPE_MENU && q.maximum - q.minimum < 64) {
    for (int i = q.minimum; i <= q.maximum; ++i) {
      v4l2_querymenu m{};
      m.id = named.id;
      m.index = static_cast<std::uint32_t>(i);
      if (device.ioctl(VIDIOC_QUERYMENU, &m) == 0) c.menu.emplace_back(i, text_of(m.name, sizeof m.name));
    }
  }
  return c;
}

std::string size_text(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

std::string rate_text(double fps) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g fps", fps);
  return buffer;
}

}  // namespace

const CameraControl* CameraDescription::control(const std::string& name) const {
  for (const CameraControl& c : controls)
    if (c.name == name) return &c;
  return nullptr;
}

const std::vector<NamedControl>& controls_of_interest() {
  static const std::vector<NamedControl> kControls = {
      {"focus_auto", V4L2_CID_FOCUS_AUTO},
      {"focus_absolute", V4L2_CID_FOCUS_ABSOLUTE},
      {"exposure_auto", V4L2_CID_EXPOSURE_AUTO},
      {"exposure_absolute", V4L2_CID_EXPOSURE_ABSOLUTE},
      {"exposure_auto_priority", V4L2_CID_EXPOSURE_AUTO_PRIORITY},
      {"white_balance_automatic", V4L2_CID_AUTO_WHITE_BALANCE},
      {"white_balance_temperature", V4L2_CID_WHITE_BALANCE_TEMPERATURE},
      {"power_line_frequency", V4L2_CID_POWER_LINE_FREQUENCY},
  };
  return kControls;
}

std::string fourcc_text(std::uint32_t fourcc) {
  std::string s;
  for (int i = 0; i < 4; ++i) s += static_cast<char>((fourcc >> (8 * i)) & 0xff);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
  return s;
}

std::optional<std::uint32_t> parse_fourcc(const std::string& text) {
  std::string t;
  for (char c : text) t += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (t == "MJPEG") t = "MJPG";
  if (t.empty() || t.size() > 4) return std::nullopt;
  if (!std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }))
    return std::nullopt;
  while (t.size() < 4) t += ' ';
  return v4l2_fourcc(t[0], t[1], t[2], t[3]);
}

CameraDescription describe_camera(V4l2Device& device, const std::string& path) {
  CameraDescription d;
  d.path = path;
  v4l2_capability cap{};
  if (device.ioctl(VIDIOC_QUERYCAP, &cap) != 0) return d;  // not a V4L2 device at all
  d.card = text_of(cap.card, sizeof cap.card);
  d.driver = text_of(cap.driver, sizeof cap.driver);
  d.bus = text_of(cap.bus_info, sizeof cap.bus_info);
  const std::uint32_t caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities;
  d.captures_video = (caps & V4L2_CAP_VIDEO_CAPTURE) != 0;
  if (!d.captures_video) return d;
  for (std::uint32_t i = 0; i < 64; ++i) {
    v4l2_fmtdesc f{};
    f.index = i;
    f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (device.ioctl(VIDIOC_ENUM_FMT, &f) != 0) break;
    PixelFormatModes p;
    p.fourcc = f.pixelformat;
    p.description = text_of(f.description, sizeof f.description);
    p.compressed = (f.flags & V4L2_FMT_FLAG_COMPRESSED) != 0;
    p.decodable = opencv_decodes(f.pixelformat);
    p.sizes = frame_sizes(device, f.pixelformat);
    d.formats.push_back(std::move(p));
  }
  for (const NamedControl& n : controls_of_interest())
    if (auto c = read_control(device, n)) d.controls.push_back(std::move(*c));
  return d;
}

FormatChoice choose_capture_format(const CameraDescription& d, const FormatRequest& request) {
  const double rate = request.fps > 0 ? request.fps : 30.0;
  const bool size_asked = request.width > 0 && request.height > 0;
  std::string offered;
  for (const PixelFormatModes& f : d.formats) offered += (offered.empty() ? "" : ", ") + fourcc_text(f.fourcc);
  if (request.fourcc) {
    auto it = std::find_if(d.formats.begin(), d.formats.end(),
                           [&](const PixelFormatModes& f) { return f.fourcc == *request.fourcc; });
    if (it == d.formats.end())
      throw io::InputError(d.path, "--camera-format",
                           "the camera offers no " + fourcc_text(*request.fourcc) + " (it offers " +
                               (offered.empty() ? "nothing" : offered) + ")");
    if (!it->decodable)
      throw io::InputError(
          d.path, "--camera-format",
          fourcc_text(*request.fourcc) + " cannot be decoded by diskref (OpenCV); choose one of " + offered);
  }
  struct Candidate {
    const PixelFormatModes* format;
    const FrameSizeRates* size;
    double fps;
    bool reaches;
  };
  std::vector<Candidate> candidates;
  std::string sizes_offered;
  for (const PixelFormatModes& f : d.formats) {
    if (!f.decodable || (request.fourcc && f.fourcc != *request.fourcc)) continue;
    for (const FrameSizeRates& s : f.sizes) {
      if (sizes_offered.find(size_text(s.width, s.height)) == std::string::npos)
        sizes_offered += (sizes_offered.empty() ? "" : ", ") + size_text(s.width, s.height);
      if (size_asked && (s.width != request.width || s.height != request.height)) continue;
      // The slowest rate offered that reaches the one asked, else the fastest there is.
      double fps = s.fps.empty() ? 0 : s.fps.front();
      bool reaches = false;
      for (double r : s.fps)
        if (r >= rate * 0.99) {
          fps = r;
          reaches = true;
        }
      candidates.push_back({&f, &s, fps, reaches});
    }
  }
  if (candidates.empty()) {
    if (sizes_offered.empty())
      throw io::InputError(
          d.path, "",
          "offers no picture format diskref can decode (it offers " + (offered.empty() ? "nothing" : offered) + ")");
    throw io::InputError(d.path, "--camera-size",
                         "the camera does not give " + size_text(request.width, request.height) +
                             (request.fourcc ? " in " + fourcc_text(*request.fourcc) : "") + " (it gives " +
                             sizes_offered + ")");
  }
  auto key = [&](const Candidate& c) {
    const long long area = static_cast<long long>(c.size->width) * c.size->height;
    // Reaching the rate first; then, when it is not reached, the faster; then the larger size;
    // then MJPEG.
    return std::make_tuple(c.reaches ? 1 : 0, c.reaches ? 0.0 : c.fps, area, -format_rank(c.format->fourcc));
  };
  const Candidate best = *std::max_element(candidates.begin(), candidates.end(),
                                           [&](const Candidate& a, const Candidate& b) { return key(a) < key(b); });
  FormatChoice choice;
  choice.mode = {best.format->fourcc, best.size->width, best.size->height, best.fps};
  choice.reaches_rate = best.reaches;
  choice.why = fourcc_text(best.format->fourcc) + " " + size_text(best.size->width, best.size->height) + " at " +
               rate_text(best.fps);
  if (!best.reaches)
    choice.why += ": no format gives " + rate_text(rate) +
                  (size_asked ? " at " + size_text(request.width, request.height) : "") + "; this is the fastest";
  else if (request.fourcc)
    choice.why += " (the format asked)";
  else if (!size_asked)
    choice.why += " (the largest size giving " + rate_text(rate) + ")";
  return choice;
}

}  // namespace diskref::vision

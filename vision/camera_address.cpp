#include "vision/camera_address.h"

#include <algorithm>
#include <cctype>

#include "engine/io/input_error.h"

namespace diskref::vision {
namespace {

bool starts_with_nocase(const std::string& text, const std::string& prefix) {
  if (text.size() < prefix.size()) return false;
  return std::equal(prefix.begin(), prefix.end(), text.begin(),
                    [](char p, char t) { return std::tolower(static_cast<unsigned char>(t)) == p; });
}

}  // namespace

std::string url_without_password(const std::string& url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const std::size_t host_start = scheme + 3;
  const std::size_t host_end = std::min(url.find('/', host_start), url.size());
  const std::size_t at = url.rfind('@', host_end);
  if (at == std::string::npos || at < host_start) return url;
  const std::size_t colon = url.find(':', host_start);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

std::string CameraAddress::description() const {
  return "camera " + (kind == Kind::network ? url_without_password(target) : target);
}

CameraAddress parse_camera_address(const std::string& text, const std::string& option) {
  CameraAddress a;
  if (!text.empty() && text.size() <= 3 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    a.target = "/dev/video" + std::to_string(std::stoi(text));
    return a;
  }
  if (starts_with_nocase(text, "http://") || starts_with_nocase(text, "https://") ||
      starts_with_nocase(text, "rtsp://")) {
    const std::size_t host = text.find("://") + 3;
    if (host >= text.size() || text[host] == '/')
      throw io::InputError("", option, "the URL \"" + url_without_password(text) + "\" names no host");
    a.kind = CameraAddress::Kind::network;
    a.target = text;
    return a;
  }
  if (!text.empty() && text[0] == '/') {
    a.target = text;
    return a;
  }
  throw io::InputError(
      "", option,
      "expected a camera number (0), a V4L2 device (/dev/video2) or a URL (http://, https://, rtsp://), got \"" +
          url_without_password(text) + "\"");
}

}  // namespace diskref::vision

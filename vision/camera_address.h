#pragma once
// What `--camera` names: a V4L2 camera by number ("0" is /dev/video0) or by device path
// ("/dev/video2", "/dev/v4l/by-id/usb-..."), or a network camera by URL (http://, https://,
// rtsp://: a phone on a stand serving MJPEG or RTSP).
//
// Errors: anything else throws InputError naming the option and what it accepts.

#include <string>

namespace diskref::vision {

struct CameraAddress {
  enum class Kind { v4l2, network };
  Kind kind = Kind::v4l2;
  // The device path (/dev/video0) or the URL as given.
  std::string target;
  // For messages: "camera /dev/video0", "camera http://phone.local:8080/video" (a password in the
  // URL is left out: messages end up in logs and recordings).
  std::string description() const;
};

// `option` names the command-line option in messages ("--camera").
CameraAddress parse_camera_address(const std::string& text, const std::string& option = "--camera");

// The URL with its user information's password replaced by "***".
std::string url_without_password(const std::string& url);

}  // namespace diskref::vision

#include "vision/network_stream.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"
#include "vision/stream_clock.h"

namespace diskref::vision {
namespace {

struct HostPort {
  std::string host;
  std::string port;
};

HostPort host_and_port(const std::string& url) {
  const std::size_t scheme_end = url.find("://");
  std::string scheme = url.substr(0, scheme_end);
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::size_t start = scheme_end + 3;
  const std::size_t end = std::min(url.find_first_of("/?#", start), url.size());
  const std::size_t at = url.rfind('@', end);
  if (at != std::string::npos && at >= start) start = at + 1;
  std::string authority = url.substr(start, end - start);
  HostPort hp;
  hp.port = scheme == "https" ? "443" : scheme == "rtsp" ? "554" : "80";
  if (!authority.empty() && authority[0] == '[') {  // [IPv6]:port
    const std::size_t close = authority.find(']');
    hp.host = authority.substr(1, close == std::string::npos ? std::string::npos : close - 1);
    if (close != std::string::npos && close + 1 < authority.size() && authority[close + 1] == ':')
      hp.port = authority.substr(close + 2);
    return hp;
  }
  const std::size_t colon = authority.rfind(':');
  hp.host = authority.substr(0, colon);
  if (colon != std::string::npos) hp.port = authority.substr(colon + 1);
  return hp;
}

// Whether something accepts a TCP connection at host:port within the timeout; the reason when not.
std::optional<std::string> unanswered(const HostPort& hp, double timeout_s) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int e = ::getaddrinfo(hp.host.c_str(), hp.port.c_str(), &hints, &found); e != 0)
    return "the host \"" + hp.host + "\" is not known (" + ::gai_strerror(e) + ")";
  std::string why = "no answer";
  for (addrinfo* a = found; a; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    int error = 0;
    if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      error = errno;
      if (error == EINPROGRESS) {
        pollfd p{fd, POLLOUT, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(timeout_s * 1000));
        socklen_t n = sizeof error;
        if (ready <= 0)
          error = ETIMEDOUT;
        else
          ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &n);
      }
    }
    ::close(fd);
    if (error == 0) {
      ::freeaddrinfo(found);
      return std::nullopt;
    }
    why = error == ECONNREFUSED ? "connection refused" : error == ETIMEDOUT ? "no answer" : std::strerror(error);
  }
  ::freeaddrinfo(found);
  return why + " at " + hp.host + ":" + hp.port;
}

bool is_rtsp(const std::string& url) {
  return url.size() > 7 && std::tolower(static_cast<unsigned char>(url[0])) == 'r' &&
         std::tolower(static_cast<unsigned char>(url[1])) == 't';
}

// Low-latency demuxing for the opening only (the variable is read when a capture opens). Guarded:
// two cameras opening at once do not see each other's half-set environment.
std::mutex g_environment_mutex;

class NetworkStream final : public LiveStream {
 public:
  NetworkStream(const CameraAddress& address, const NetworkStreamOptions& options, std::shared_ptr<LiveClock> clock)
      : name_(address.description()), clock_(std::move(clock)) {
    if (auto why = unanswered(host_and_port(address.target), options.open_timeout_s))
      throw io::InputError(name_, "",
                           "does not answer: " + *why + " (is the camera's app serving, on the same network?)");
    const std::vector<int> params = {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, static_cast<int>(options.open_timeout_s * 1000),
                                     cv::CAP_PROP_READ_TIMEOUT_MSEC, static_cast<int>(options.read_timeout_s * 1000)};
    bool opened = false;
    {
      std::lock_guard lock(g_environment_mutex);
      const char* kVariable = "OPENCV_FFMPEG_CAPTURE_OPTIONS";
      // RTSP: over TCP (no lost UDP packets smearing frames), no buffering ahead of the decoder.
      // (Over HTTP, FFmpeg's defaults already hand each JPEG on as it arrives.)
      const bool set = std::getenv(kVariable) == nullptr && is_rtsp(address.target);
      if (set) ::setenv(kVariable, "rtsp_transport;tcp|fflags;nobuffer|flags;low_delay|max_delay;500000", 1);
      opened = capture_.open(address.target, cv::CAP_FFMPEG, params) && capture_.isOpened();
      if (set) ::unsetenv(kVariable);
    }
    if (!opened)
      throw io::InputError(
          name_, "",
          "answers, but sends no video FFmpeg can read (check the path in the URL: apps serve the stream at "
          "a path such as /video or /mjpeg, and their web page elsewhere)");
    size_ = {static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_WIDTH)),
             static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_HEIGHT))};
    const auto fourcc = static_cast<unsigned>(capture_.get(cv::CAP_PROP_FOURCC));
    std::string codec;
    for (int i = 0; i < 4; ++i) codec += static_cast<char>(std::tolower(static_cast<int>((fourcc >> (8 * i)) & 0xff)));
    // Multipart MJPEG has no timestamps and no rate: FFmpeg's are made up.
    stream_times_ = codec.rfind("mjp", 0) != 0;
    const double fps = capture_.get(cv::CAP_PROP_FPS);
    if (stream_times_ && std::isfinite(fps) && fps > 0 && fps < 1000) fps_ = fps;
    notes_.push_back(
        (stream_times_ ? "a stream with its own frame times" : "an MJPEG stream (frames timed as they arrive)") +
        std::string(", ") + std::to_string(size_.width) + "x" + std::to_string(size_.height));
  }

  std::optional<StreamFrame> read() override {
    // Timed as soon as it is received, before it is decoded.
    if (!capture_.grab()) return std::nullopt;
    const double now = clock_->now();
    StreamFrame f;
    if (!capture_.retrieve(f.image) || f.image.empty()) return std::nullopt;
    f.time = now;
    if (stream_times_) {
      const double ms = capture_.get(cv::CAP_PROP_POS_MSEC);
      if (std::isfinite(ms) && ms >= 0) {
        f.time = stream_clock_.place(ms / 1000.0, now);
      }
    }
    return f;
  }
  cv::Size size() const override { return size_; }
  double nominal_fps() const override { return fps_; }
  std::vector<std::string> notes() const override { return notes_; }

 private:
  std::string name_;
  std::shared_ptr<LiveClock> clock_;
  cv::VideoCapture capture_;
  cv::Size size_;
  double fps_ = 0;
  bool stream_times_ = false;
  StreamClock stream_clock_;  // the stream's own times, on the local clock
  std::vector<std::string> notes_;
};

}  // namespace

std::unique_ptr<LiveStream> open_network_stream(const CameraAddress& address, const NetworkStreamOptions& options,
                                                std::shared_ptr<LiveClock> clock) {
  return std::make_unique<NetworkStream>(address, options, std::move(clock));
}

}  // namespace diskref::vision

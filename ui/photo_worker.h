#pragma once
// The Photo tab's worker: reads a photo and rules on it (photo::load_photo, photo::rule_on_photo)
// on its own thread, so that the screen keeps drawing while a 48 Mpx photo is decoded and its tags
// are found (seconds). The screen asks and never waits: it reads the stage being worked on and
// takes the newest outcome when there is one. A request made while another is under way is done
// next; of several made meanwhile, only the newest (the user's last word).
//
// The photo last read is kept decoded: another question on it is answered without reading the
// file again.

#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"

namespace diskref::ui {

// What the worker is doing: nothing, reading (decoding) the file, or fitting the table and camera
// from the tags and answering.
enum class PhotoStage { idle, reading, ruling };
// The longest side of the picture the screen is given: larger than any panel it is drawn in.
inline constexpr int kPreviewSide = 2048;
const char* stage_text(PhotoStage stage);  // "reading the photo...", "finding the tags and fitting the table..."

struct PhotoOutcome {
  std::uint64_t request = 0;  // the open() / ask() it answers
  std::filesystem::path file;
  nlohmann::json questions;
  std::optional<photo::PhotoRuling> ruling;
  // The annotated photo made small enough to show (longest side at most kPreviewSide): a 48 Mpx
  // photo is shrunk here, off the screen's thread, not when it is uploaded.
  cv::Mat preview;
  cv::Size photo_size;  // the annotated photo's own size (preview's pixels scale to it)
  // Why there is no ruling, in words for the screen: the photo refused (not an image, too large,
  // too few tags), a question it cannot answer, a file that cannot be read.
  std::string refusal;
};

struct PhotoWorkStatus {
  PhotoStage stage = PhotoStage::idle;
  std::filesystem::path file;  // the photo being worked on
  int step = 0;                // 1: reading, 2: ruling (of kSteps)
  static constexpr int kSteps = 2;
  bool queued = false;  // another request waits for this one
};

class PhotoWorker {
 public:
  using Load = std::function<photo::Photo(const std::filesystem::path&)>;
  using Rule = std::function<photo::PhotoRuling(const photo::Photo&, const nlohmann::json& questions)>;

  // `nice`: the thread yields to the screen (as the tracking worker does) on a busy machine.
  PhotoWorker(Load load, Rule rule, int nice = 10);
  ~PhotoWorker();  // waits for the work under way to end (load and rule cannot be interrupted)
  PhotoWorker(const PhotoWorker&) = delete;
  PhotoWorker& operator=(const PhotoWorker&) = delete;

  // Read this photo and answer `questions` (spec §6's array; may be empty: the disks alone).
  // Returns the request's number.
  std::uint64_t open(std::filesystem::path file, nlohmann::json questions);
  // Other questions on the photo last opened (read again only when it was not kept: refused).
  std::uint64_t ask(nlohmann::json questions);

  PhotoWorkStatus status() const;
  // The newest outcome (null before the first).
  std::shared_ptr<const PhotoOutcome> latest() const;
  // Blocks until the outcome of request `request` (or a newer one) is there. For tests and the
  // screenshot of a scripted run; the screen's loop never calls it.
  std::shared_ptr<const PhotoOutcome> wait_for(std::uint64_t request) const;

 private:
  struct Request {
    std::uint64_t number = 0;
    std::filesystem::path file;
    nlohmann::json questions;
  };
  void run(std::stop_token stop);
  std::shared_ptr<PhotoOutcome> work(const Request& r);
  void set_stage(PhotoStage stage, const std::filesystem::path& file);

  Load load_;
  Rule rule_;
  int nice_;
  mutable std::mutex mutex_;
  mutable std::condition_variable_any changed_;
  std::optional<Request> pending_;
  std::uint64_t requests_ = 0;
  std::filesystem::path last_file_;
  PhotoWorkStatus status_;
  std::shared_ptr<const PhotoOutcome> latest_;
  // Only the worker's thread touches the kept photo.
  std::filesystem::path kept_file_;
  std::shared_ptr<const photo::Photo> kept_;
  std::jthread thread_;  // last: started once everything above is ready
};

}  // namespace diskref::ui

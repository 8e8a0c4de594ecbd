#include "ui/photo_worker.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <exception>

#include <opencv2/imgproc.hpp>

#include "engine/io/input_error.h"

namespace diskref::ui {

const char* stage_text(PhotoStage stage) {
  switch (stage) {
    case PhotoStage::idle:
      return "";
    case PhotoStage::reading:
      return "reading the photo...";
    case PhotoStage::ruling:
      return "finding the tags and fitting the table...";
  }
  return "";
}

PhotoWorker::PhotoWorker(Load load, Rule rule, int nice)
    : load_(std::move(load)), rule_(std::move(rule)), nice_(nice), thread_([this](std::stop_token s) { run(s); }) {}

PhotoWorker::~PhotoWorker() {
  thread_.request_stop();
  {
    std::lock_guard lock(mutex_);  // the stop is seen by a wait that has checked it, not missed between
  }
  changed_.notify_all();
}

std::uint64_t PhotoWorker::open(std::filesystem::path file, nlohmann::json questions) {
  std::lock_guard lock(mutex_);
  last_file_ = file;
  pending_ = Request{++requests_, std::move(file), std::move(questions)};
  changed_.notify_all();
  return requests_;
}

std::uint64_t PhotoWorker::ask(nlohmann::json questions) {
  std::lock_guard lock(mutex_);
  pending_ = Request{++requests_, last_file_, std::move(questions)};
  changed_.notify_all();
  return requests_;
}

PhotoWorkStatus PhotoWorker::status() const {
  std::lock_guard lock(mutex_);
  PhotoWorkStatus s = status_;
  s.queued = pending_.has_value();
  return s;
}

std::shared_ptr<const PhotoOutcome> PhotoWorker::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

std::shared_ptr<const PhotoOutcome> PhotoWorker::wait_for(std::uint64_t request) const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return latest_ && latest_->request >= request; });
  return latest_;
}

void PhotoWorker::set_stage(PhotoStage stage, const std::filesystem::path& file) {
  std::lock_guard lock(mutex_);
  status_.stage = stage;
  status_.file = file;
  status_.step = stage == PhotoStage::reading ? 1 : stage == PhotoStage::ruling ? 2 : 0;
}

std::shared_ptr<PhotoOutcome> PhotoWorker::work(const Request& r) {
  auto out = std::make_shared<PhotoOutcome>();
  out->request = r.number;
  out->file = r.file;
  out->questions = r.questions;
  if (r.file.empty()) {
    out->refusal = "open a photo first";
    return out;
  }
  // Each failure in the words of what failed; the file named once, at the front.
  try {
    if (!kept_ || kept_file_ != r.file) {
      kept_.reset();
      set_stage(PhotoStage::reading, r.file);
      kept_ = std::make_shared<const photo::Photo>(load_(r.file));
      kept_file_ = r.file;
    }
    set_stage(PhotoStage::ruling, r.file);
    out->ruling = rule_(*kept_, r.questions);
    const cv::Mat& shown = out->ruling->annotated.empty() ? kept_->image : out->ruling->annotated;
    out->photo_size = shown.size();
    const int side = std::max(shown.cols, shown.rows);
    if (side > kPreviewSide) {
      const double k = static_cast<double>(kPreviewSide) / side;
      cv::resize(shown, out->preview, cv::Size(), k, k, cv::INTER_AREA);
    } else {
      out->preview = shown.clone();
    }
  } catch (const photo::PhotoRefused& e) {
    out->refusal = e.what();
  } catch (const io::InputError& e) {
    out->refusal = e.what();
  } catch (const std::exception& e) {
    out->refusal = r.file.filename().string() + ": could not be ruled on: " + e.what();
  }
  return out;
}

void PhotoWorker::run(std::stop_token stop) {
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice_);
  while (true) {
    Request r;
    {
      std::unique_lock lock(mutex_);
      if (!changed_.wait(lock, stop, [&] { return pending_.has_value(); })) return;
      r = std::move(*pending_);
      pending_.reset();
    }
    std::shared_ptr<PhotoOutcome> out = work(r);
    std::lock_guard lock(mutex_);
    status_ = PhotoWorkStatus{};
    latest_ = std::move(out);
    changed_.notify_all();
  }
}

}  // namespace diskref::ui

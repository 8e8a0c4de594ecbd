#pragma once
// The vision library behind the worker's two seams (source_worker.h): its frame sources as a
// FrameFeed, its tracker as a TrackProducer.

#include <filesystem>
#include <memory>

#include "ui/source_worker.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::ui {

// Whether this build has the live tracker (vision/tracker.cpp); without it the screen shows a
// track file (a video's ground truth, or a recording) instead.
#ifdef DISKREF_UI_HAS_TRACKER
inline constexpr bool kTrackerAvailable = true;
#else
inline constexpr bool kTrackerAvailable = false;
#endif

// A video file; seeking reopens it and reads forward to the frame (vision's sources stream).
std::unique_ptr<FrameFeed> open_video_feed(const std::filesystem::path& file);
// A live camera (no seeking).
std::unique_ptr<FrameFeed> open_camera_feed(const vision::CameraOptions& options);

// The live tracker with its default options. Requires kTrackerAvailable.
std::unique_ptr<TrackProducer> make_tracker_producer(const model::TableSpec& table, const model::DiskRegistry& registry,
                                                     const std::optional<calib::CameraModel>& lens);

}  // namespace diskref::ui

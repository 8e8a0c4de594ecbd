#pragma once
// The vision library behind the worker's track seam (source_worker.h): its tracker as a
// TrackProducer. (Frames come straight from vision's sources.)

#include <filesystem>
#include <memory>

#include "ui/source_worker.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::ui {

// The live tracker with its default options.
std::unique_ptr<TrackProducer> make_tracker_producer(const model::TableSpec& table, const model::DiskRegistry& registry,
                                                     const std::optional<calib::CameraModel>& lens);

}  // namespace diskref::ui

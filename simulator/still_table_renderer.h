#pragma once
// Renders one still table scene (disks lying on the table; no hands, no boards) into linear radiance
// at a phone's full resolution (12-48 Mpx) in seconds.
//
// TableRenderer (table_renderer.h) is made for video: it keeps an exact ray (a Newton inverse of the
// lens) and the bare table traced at n x n samples for every pixel, to re-trace only what moves
// between frames: 44 bytes a pixel beside the picture, 2 GB at 48 Mpx, for a picture taken once.
// Here:
//   rays      exact at every 16th pixel, bilinear between (coarse_rays.h);
//   sampling  the table's textures are smooth on a pixel's scale (bilinear, a few texels a
//             millimetre), so a pixel where only the table is seen is sampled once, at its centre;
//             a pixel of a 16 x 16 tile that a disk or a corner marker can reach is sampled 2 x 2,
//             and again 8 x 8 (supersample_pattern.h) when those samples differ: an edge runs
//             through it, and is placed as a real pixel's area integral places it.

#include <opencv2/core.hpp>

#include "simulator/camera_rig.h"
#include "simulator/scene.h"

namespace diskref::simulator {

// CV_32FC3, the rig's image size; `instant` holds the disks lying still.
cv::Mat render_still_table(const SceneModel& model, const SceneInstant& instant, const CameraRig& rig);

}  // namespace diskref::simulator

#pragma once
// Renders one still table scene (disks lying on the table; no hands, no boards) into linear radiance
// at a phone's full resolution (12-48 Mpx) in seconds.
//
// TableRenderer (table_renderer.h) is made for video: it keeps the rays of every pixel, and the bare
// table traced at n x n samples, to re-trace only what moves between frames. At 48 Mpx that is
// gigabytes and a minute before the first frame, for a picture taken once. Here:
//   rays      exact (lens_rays.h's Newton inverse) at the nodes of a 16 px grid and bilinear between
//             them: the inverse lens map of a phone's lens bends by far less than a thousandth of a
//             pixel over 16 px (tests/simulator/phone_photo_test.cpp measures it);
//   sampling  the table's textures are smooth on a pixel's scale (bilinear, a few texels a
//             millimetre), so a pixel where only the table is seen is sampled once, at its centre;
//             a pixel of an 16 x 16 tile that a disk or a corner marker can reach is sampled 2 x 2,
//             and again 8 x 8 (supersample_pattern.h) when those samples differ: an edge runs
//             through it, and is placed as a real pixel's area integral places it.

#include <opencv2/core.hpp>

#include "simulator/camera_rig.h"
#include "simulator/scene.h"

namespace diskref::simulator {

// CV_32FC3, the rig's image size; `instant` holds the disks lying still.
cv::Mat render_still_table(const SceneModel& model, const SceneInstant& instant, const CameraRig& rig);

}  // namespace diskref::simulator

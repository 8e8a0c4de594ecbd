#pragma once
// The two places the screen touches OpenGL directly: uploading a camera frame as a texture, and
// reading the window back for a screenshot. Needs a current OpenGL context.

#include <opencv2/core.hpp>

namespace diskref::ui {

// Uploads an 8-bit BGR image into `texture` (created when 0), resizing it when the image size
// changed. Returns the texture name.
unsigned upload_bgr_texture(unsigned texture, const cv::Mat& bgr);
void delete_texture(unsigned texture);

// The current framebuffer (what was just rendered, before the buffer swap) as an 8-bit BGR image,
// top row first.
cv::Mat read_framebuffer_bgr(int width, int height);

}  // namespace diskref::ui

#include "ui/gl_texture.h"

#include <GL/gl.h>

#include <opencv2/core.hpp>

namespace diskref::ui {

unsigned upload_bgr_texture(unsigned texture, const cv::Mat& bgr) {
  CV_Assert(bgr.type() == CV_8UC3);
  cv::Mat img = bgr.isContinuous() ? bgr : bgr.clone();
  GLuint tex = texture;
  bool fresh = tex == 0;
  if (fresh) {
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  } else {
    glBindTexture(GL_TEXTURE_2D, tex);
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  GLint w = 0;
  GLint h = 0;
  if (!fresh) {
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
  }
  if (fresh || w != img.cols || h != img.rows) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, img.cols, img.rows, 0, GL_BGR, GL_UNSIGNED_BYTE, img.data);
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, img.cols, img.rows, GL_BGR, GL_UNSIGNED_BYTE, img.data);
  }
  return tex;
}

void delete_texture(unsigned texture) {
  GLuint tex = texture;
  if (tex != 0) glDeleteTextures(1, &tex);
}

cv::Mat read_framebuffer_bgr(int width, int height) {
  cv::Mat img(height, width, CV_8UC3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_BGR, GL_UNSIGNED_BYTE, img.data);
  cv::Mat flipped;
  cv::flip(img, flipped, 0);  // OpenGL's rows go bottom-up
  return flipped;
}

}  // namespace diskref::ui

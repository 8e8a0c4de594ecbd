#include "print/print_files.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <zlib.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/atomic_write.h"

namespace diskref::print {
namespace {

uint32_t read_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

void append_be32(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

struct PngChunk {
  std::string type;
  std::size_t data_offset = 0;
  std::size_t length = 0;
};

// The chunks of a PNG file (after the 8-byte signature).
std::vector<PngChunk> png_chunks(const std::vector<uint8_t>& png) {
  std::vector<PngChunk> chunks;
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    PngChunk c;
    c.length = read_be32(&png[at]);
    c.type.assign(reinterpret_cast<const char*>(&png[at + 4]), 4);
    c.data_offset = at + 8;
    chunks.push_back(c);
    at += 12 + c.length;
  }
  return chunks;
}

std::vector<uint8_t> encode_png(const cv::Mat& image) {
  std::vector<uint8_t> png;
  if (!cv::imencode(".png", image, png)) throw std::runtime_error("PNG encoding failed");
  return png;
}

void write_bytes(const std::filesystem::path& file, const std::vector<uint8_t>& bytes) {
  io::write_file_atomically(file, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace

std::vector<uint8_t> png_with_dpi(const cv::Mat& image, double dpi) {
  std::vector<uint8_t> png = encode_png(image);
  auto chunks = png_chunks(png);
  if (chunks.empty() || chunks[0].type != "IHDR") throw std::runtime_error("unexpected PNG layout from the encoder");
  // pHYs: pixels per metre in x and y, unit 1 (metre); placed right after IHDR.
  auto per_metre = static_cast<uint32_t>(std::lround(dpi / 0.0254));
  std::vector<uint8_t> chunk;
  append_be32(chunk, 9);
  for (char c : std::string("pHYs")) chunk.push_back(static_cast<uint8_t>(c));
  append_be32(chunk, per_metre);
  append_be32(chunk, per_metre);
  chunk.push_back(1);
  // The chunk CRC covers the type and the data (PNG spec 5.3), zlib's CRC-32.
  append_be32(chunk, static_cast<uint32_t>(::crc32(0, chunk.data() + 4, static_cast<uInt>(chunk.size() - 4))));
  std::size_t after_ihdr = chunks[0].data_offset + chunks[0].length + 4;
  std::vector<uint8_t> out(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(after_ihdr));
  for (const PngChunk& c : chunks)
    if (c.type == "pHYs") throw std::runtime_error("the PNG encoder already wrote a pHYs chunk");
  out.insert(out.end(), chunk.begin(), chunk.end());
  out.insert(out.end(), png.begin() + static_cast<std::ptrdiff_t>(after_ihdr), png.end());
  return out;
}

void write_png_with_dpi(const cv::Mat& image, double dpi, const std::filesystem::path& file) {
  write_bytes(file, png_with_dpi(image, dpi));
}

void write_pdf(const std::vector<cv::Mat>& pages, double dpi, const std::filesystem::path& file) {
  std::vector<uint8_t> pdf;
  std::vector<std::size_t> offsets;  // of objects 1..n
  auto put = [&](const std::string& s) { pdf.insert(pdf.end(), s.begin(), s.end()); };
  auto begin_object = [&](std::size_t number) {
    if (offsets.size() < number) offsets.resize(number);
    offsets[number - 1] = pdf.size();
    put(std::to_string(number) + " 0 obj\n");
  };
  put("%PDF-1.4\n%\xE2\xE3\xCF\xD3\n");
  // Objects: 1 catalog, 2 page tree, then per page: page, content stream, image.
  std::size_t n = pages.size();
  std::string kids;
  for (std::size_t i = 0; i < n; ++i) kids += std::to_string(3 + 3 * i) + " 0 R ";
  begin_object(1);
  put("<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
  begin_object(2);
  put("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(n) + " >>\nendobj\n");
  for (std::size_t i = 0; i < n; ++i) {
    cv::Mat rgb;
    if (pages[i].channels() == 1)
      cv::cvtColor(pages[i], rgb, cv::COLOR_GRAY2BGR);
    else
      rgb = pages[i];
    std::vector<uint8_t> png = encode_png(rgb);  // OpenCV writes RGB, 8 bit, not interlaced
    std::vector<uint8_t> idat;
    for (const PngChunk& c : png_chunks(png))
      if (c.type == "IDAT")
        idat.insert(idat.end(), png.begin() + static_cast<std::ptrdiff_t>(c.data_offset),
                    png.begin() + static_cast<std::ptrdiff_t>(c.data_offset + c.length));
    double w_pt = rgb.cols / dpi * 72.0, h_pt = rgb.rows / dpi * 72.0;
    std::string size = fmt::format("{:.4f} {:.4f}", w_pt, h_pt);
    std::size_t page = 3 + 3 * i, content = page + 1, image = page + 2;
    begin_object(page);
    put("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + size + "] /Resources << /XObject << /Im0 " +
        std::to_string(image) + " 0 R >> >> /Contents " + std::to_string(content) + " 0 R >>\nendobj\n");
    std::string draw = fmt::format("q {:.4f} 0 0 {:.4f} 0 0 cm /Im0 Do Q\n", w_pt, h_pt);
    begin_object(content);
    put("<< /Length " + std::to_string(draw.size()) + " >>\nstream\n" + draw + "endstream\nendobj\n");
    begin_object(image);
    put("<< /Type /XObject /Subtype /Image /Width " + std::to_string(rgb.cols) + " /Height " +
        std::to_string(rgb.rows) +
        " /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 "
        "/BitsPerComponent 8 /Columns " +
        std::to_string(rgb.cols) + " >> /Length " + std::to_string(idat.size()) + " >>\nstream\n");
    pdf.insert(pdf.end(), idat.begin(), idat.end());
    put("\nendstream\nendobj\n");
  }
  std::size_t xref = pdf.size();
  put("xref\n0 " + std::to_string(offsets.size() + 1) + "\n0000000000 65535 f \n");
  for (std::size_t off : offsets) put(fmt::format("{:010} 00000 n \n", off));
  put("trailer\n<< /Size " + std::to_string(offsets.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
      std::to_string(xref) + "\n%%EOF\n");
  write_bytes(file, pdf);
}

}  // namespace diskref::print

#include "net/photo_page.h"

#include "net/pages/photo_page.h"
#include "net/pages/photo_script_page.h"
#include "net/pages/photo_style_page.h"
#include "net/printable_text.h"

namespace diskref::net {
namespace {

UploadAnswer refusal(unsigned status, const std::string& why) {
  return {status, "application/json", nlohmann::json{{"error", std::to_string(status)}, {"why", why}}.dump()};
}

// What the page may ask about: every disk but the counters and the templates (neither is measured
// from nor to).
nlohmann::json disks_json(const model::DiskRegistry& registry, std::size_t max_upload_bytes) {
  nlohmann::json disks = nlohmann::json::array();
  for (const model::DiskSpec& d : registry.disks())
    if (d.kind != model::DiskKind::counter && d.kind != model::DiskKind::template_)
      disks.push_back({{"name", d.name}, {"kind", std::string(model::to_string(d.kind))}});
  return {{"disks", disks}, {"max_upload_bytes", max_upload_bytes}};
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kDigits[(v >> shift) & 63];
  }
  if (const std::size_t left = bytes.size() - i; left > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (left == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += left == 2 ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

UploadAnswer answer_photo_upload(const Upload& upload, const PhotoRuler& ruler) {
  const auto q = upload.query.find("question");
  if (q == upload.query.end())
    return refusal(400,
                   "no question: add ?question= and one question of spec §6 as JSON, e.g. "
                   "{\"id\":\"q\",\"overlap\":{\"a\":\"enterprise\",\"b\":\"tderet\"}}");
  // The query is at most 2 KiB (HttpLimits::max_target_bytes): parsed whole, its depth bounded by
  // its length.
  nlohmann::json question = nlohmann::json::parse(q->second, nullptr, false);
  if (question.is_discarded() || !question.is_object())
    return refusal(400, "the question is not a JSON object: " + printable(q->second, 120));
  if (!question.contains("id")) question["id"] = "phone";
  PhotoSubmission submission;
  submission.bytes = {reinterpret_cast<const std::uint8_t*>(upload.body.data()), upload.body.size()};
  submission.source = "upload from " + upload.client;
  submission.questions = nlohmann::json::array({question});
  const PhotoReply reply = ruler(submission);
  if (reply.status != 200) return refusal(reply.status, reply.refusal);
  nlohmann::ordered_json body;
  body["ruling"] = reply.ruling;
  body["picture"] = base64(reply.picture);
  body["picture_type"] = reply.picture_type;
  return {200, "application/json", body.dump()};
}

void add_photo_page(HttpFeedServer& server, const model::DiskRegistry& registry, PhotoRuler ruler,
                    const PhotoPageOptions& options) {
  // The page shows the photo it chose and the picture it was answered as blob: URLs.
  server.add_page("/photo", "text/html; charset=utf-8", kPhotoPage, false, "blob:");
  if (options.at_root) server.add_page("/", "text/html; charset=utf-8", kPhotoPage, false, "blob:");
  server.add_page("/photo.js", "text/javascript; charset=utf-8", kPhotoScriptPage);
  server.add_page("/photo.css", "text/css; charset=utf-8", kPhotoStylePage);
  server.add_page("/photo/v1/disks", "application/json", disks_json(registry, options.max_upload_bytes).dump());
  UploadRoute route;
  route.max_body_bytes = options.max_upload_bytes;
  route.max_at_once = options.max_at_once;
  route.handler = [ruler = std::move(ruler)](const Upload& upload) { return answer_photo_upload(upload, ruler); };
  server.add_upload(kPhotoRulingPath, std::move(route));
}

}  // namespace diskref::net

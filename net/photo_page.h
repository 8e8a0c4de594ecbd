#pragma once
// The photo page (spec §14, "From a phone"): a dispute settled from one photograph taken at the
// table. Served by `diskref serve`, and beside the live feed by `diskref ui --serve` and
// `diskref referee --serve`:
//
//   GET  /photo              the page (/photo.js, /photo.css its script and style)
//   GET  /photo/v1/disks     {"disks": [{"name", "kind"}], "max_upload_bytes"}: what may be asked about
//   POST /photo/v1/ruling?question=Q
//                            the body is the photo's bytes (JPEG, PNG or WebP, as a phone's
//                            fetch() of a File sends them); Q is one spec §6 question as JSON.
//                            200: {"ruling": spec §14's answer, "picture": the annotated photo,
//                            base64, "picture_type"}; otherwise {"error": status, "why"}.
//
// The room's network rules are the server's (http_feed_server.h): beyond loopback every request
// needs the token, and an upload needs it even with --serve-public. The photo is ruled on by a
// function the program gives (the photo room is above net: cli/photo_upload.h), so this file
// knows the question and the answer's shape, never how a photo is read.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/model/disk_registry.h"
#include "net/http_feed_server.h"

namespace diskref::net {

struct PhotoSubmission {
  std::span<const std::uint8_t> bytes;  // the photo as uploaded
  std::string source;                   // "upload from 192.168.1.7", for its messages
  nlohmann::json questions;             // spec §6's "questions": one question, as the page asked it
};

struct PhotoReply {
  unsigned status = 200;  // 200: ruled; otherwise `refusal` says why (4xx: the photo or the question)
  std::string refusal;
  nlohmann::ordered_json ruling;  // spec §14's answer
  std::string picture;            // the photo with the disks and the measure drawn (JPEG bytes)
  std::string picture_type = "image/jpeg";
};

using PhotoRuler = std::function<PhotoReply(const PhotoSubmission&)>;

struct PhotoPageOptions {
  // A phone's photo: 12 Mpx JPEGs are 3-6 MiB, 48 Mpx ones up to 25 MiB.
  std::size_t max_upload_bytes = 32u << 20;
  // Photos being received or ruled on at once; each holds its body, its decoded pixels (up to
  // 3 bytes a pixel) and the ruling's work, so that a table's phones cannot exhaust the machine.
  int max_at_once = 2;
  // The page at / as well (`diskref serve`, which serves nothing else: the address printed with
  // its token, and its QR code, open the page).
  bool at_root = false;
};

inline constexpr const char* kPhotoRulingPath = "/photo/v1/ruling";

// Adds the page, its disks and its upload to `server`.
void add_photo_page(HttpFeedServer& server, const model::DiskRegistry& registry, PhotoRuler ruler,
                    const PhotoPageOptions& options = {});

// The answer to one upload (exposed for tests): the question read from the query, the ruler's
// reply as JSON with the picture inline.
UploadAnswer answer_photo_upload(const Upload& upload, const PhotoRuler& ruler);

std::string base64(std::string_view bytes);

}  // namespace diskref::net

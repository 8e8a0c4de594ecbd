#pragma once
// What the Photo tab shows of a photo's ruling (photo::PhotoRuling::answer, spec §14): each answer
// as the live dispute panel shows one — the call in large letters, the margin with its uncertainty,
// the figures below — and the photo's notes and unseen disks. Computed from the ruling's JSON
// alone, so that the words on the screen are the words `diskref photo` prints.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "referee/call.h"

namespace diskref::ui {

struct PhotoAnswerShown {
  std::string question;  // "range enterprise to ktinga", from the answer's own fields
  // nullopt: "cannot tell" (a disk it needs is not in the photo).
  std::optional<referee::Call> call;
  std::string headline;            // "IN RANGE", "OUT OF RANGE", "OVERLAPPING", "TOO CLOSE TO CALL", "CANNOT TELL", ...
  std::string detail;              // "margin +3.20 mm ± 0.80" (± kCallSigmas sigma, as the live banner)
  std::vector<std::string> lines;  // the figures: gap, reach, separation, landings, contacts
};

struct PhotoShown {
  std::string source;                   // the photo
  std::string size;                     // "4000 x 3000 px"
  std::string camera;                   // "Pixel 7; focal 3120 px (exif); 32 deg from above, 640 mm away"
  std::string frame;                    // where x, y are measured from: "origin at enterprise's centre, ..."
  std::vector<std::string> disks_seen;  // the registry's disks found in the photo, in its order
  std::vector<std::string> unseen;      // the registry's disks not in it
  std::vector<PhotoAnswerShown> answers;
  std::vector<std::string> notes;  // "hold the phone closer", ...
};

// Throws nothing: a field missing from the ruling is left out of what is shown.
PhotoShown photo_shown(const nlohmann::json& ruling);

// "yes" / "no" / "too close to call" (and spec §9's "too_close") as a call; nullopt for other text.
std::optional<referee::Call> parse_call(const std::string& text);

}  // namespace diskref::ui

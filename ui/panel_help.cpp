#include "ui/panel_help.h"

#include <array>
#include <utility>

namespace diskref::ui {

std::string_view panel_help(std::string_view id) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kHelp{{
      {"camera",
       "What the camera sees, with every disk outlined where diskref measures it (green: still, blue: moving, amber "
       "dashed: hidden, last place kept). White: the play area's edge; yellow: tags read. Warnings about the "
       "calibration appear across the top, each with what to do. Click two disks to measure between them; right-click "
       "a ship to see where its flips would take it."},
      {"table",
       "The table seen from above, in millimetres: the play area, the corner markers and every disk in its colour. "
       "Clicks work as in the camera view; \"zoom\" closes in on the disks being argued about."},
      {"dispute",
       "Settles an argument: the range between two disks for the chosen template (in, out, or too close to call when "
       "the margin is within the measurement's uncertainty), whether they overlap, and a ship's flip path with what it "
       "would hit. Pick the disks here or by clicking them in the views."},
      {"disks",
       "Every disk diskref knows: where it is (x, y in mm from marker 0's corner, heading in degrees), which face is "
       "up, whether it is seen now, and its position's uncertainty (sigma). Click a row to pick it."},
      {"side",
       "Playback (pause, step, speed, seek) and where the pictures and tracks come from; the event log (what happened "
       "on the table); the calibration's quality (lens error, table fit, markers used); with a game, the game's log of "
       "rulings."},
      {"ships",
       "The books of the game: each ship's speed, shields and hull against their maxima, criticals, its orders "
       "(\"face down\" until revealed), crew and tech. The ship whose turn it is is framed."},
      {"turn",
       "Where the game is (turn, step, phase, who has the initiative) and what the referee must enter next: the "
       "buttons give the inputs the rules expect; any input can also be typed as JSON."},
      {"setup_view",
       "The step's picture: the table drawn from above with the camera's field of view (camera step), the kit's pages "
       "(kit step), or the camera's picture with what diskref finds in it (the board's corners, the corner markers, "
       "the disks, named)."},
      {"setup_panel",
       "The step: what it is for, its settings, what diskref found and, for every problem, what to do about it. Next "
       "saves the step in the setup's folder; Back goes over an earlier one."},
      {"photo",
       "Settles a dispute from one photo of the table, taken by hand from any angle: drop the photo on the window (or "
       "name the file and press Open), pick the question (range, overlap, a ship's move) from the disks it shows. The "
       "tags on the disks are the rulers: the table and the camera are fitted from them, and the answer comes with its "
       "margin and uncertainty, or \"too close to call\". The photo is read on a thread of its own: the screen goes on "
       "meanwhile."},
      {"feed_access",
       "The live feed is open to the network (--serve beyond this machine): a phone that scans the code opens the "
       "overlay with the token, which its browser then keeps. Anyone who has the address sees the game; close this "
       "window before showing the screen to an audience ([Q] shows it again)."},
  }};
  for (const auto& [key, text] : kHelp)
    if (key == id) return text;
  return {};
}

}  // namespace diskref::ui

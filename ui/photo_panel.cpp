// The Photo tab: the picture, scaled to fit, and beside it the file, the question, the progress
// and the answer. Everything it shows comes from PhotoDispute (ui/photo_dispute.h); it edits only
// the file named and the question.

#include "ui/photo_panel.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "ui/gl_texture.h"
#include "ui/imgui_draw.h"

namespace diskref::ui {
namespace {

ScreenRect rect_of(ImVec2 at, ImVec2 size) {
  return {static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(size.x),
          static_cast<double>(size.y)};
}

void disk_combo(const char* label, const std::vector<std::string>& choices, std::optional<std::string>& chosen,
                float width, bool& changed) {
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(label, chosen ? chosen->c_str() : "(choose)")) {
    for (const std::string& name : choices)
      if (ImGui::Selectable(name.c_str(), chosen == name)) {
        chosen = name;
        changed = true;
      }
    ImGui::EndCombo();
  }
}

// The picture: the annotated photo when there is one, else what to do.
void picture(PhotoTab& tab, const ScreenRect& area) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(im(area.min()), im(area.max()), IM_COL32(24, 27, 31, 255));
  tab.image_drawn.reset();
  if (tab.texture != 0 && tab.texture_size.x > 0) {
    const ImageViewTransform view = fit_image(tab.texture_size, area);
    const ScreenRect img = view.image_rect();
    dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(tab.texture)), im(img.min()), im(img.max()));
    tab.image_drawn = img;
  } else if (!tab.dispute.busy()) {  // while a photo is read, its progress stands here instead
    const char* hint = "Drop a photo of the table here,\nor name it on the right and press Open.";
    const ImVec2 size = ImGui::CalcTextSize(hint);
    dl->AddText(
        ImVec2(static_cast<float>(area.center().x) - size.x / 2, static_cast<float>(area.center().y) - size.y / 2),
        IM_COL32(170, 175, 185, 255), hint);
  }
  // The worker's progress over the picture: the screen keeps drawing while it works.
  const PhotoDispute& d = tab.dispute;
  if (d.busy()) {
    const PhotoWorkStatus st = d.status();
    const std::string line = st.stage == PhotoStage::idle ? std::string("waiting for the photo before...")
                                                          : fmt::format("{} (step {} of {})", stage_text(st.stage),
                                                                        st.step, PhotoWorkStatus::kSteps);
    const std::vector<ColoredLine> lines{{IM_COL32(255, 255, 255, 255), line},
                                         {IM_COL32(190, 195, 205, 255), st.file.filename().string()}};
    const Vec2 box = text_box_size(lines);
    draw_text_box(dl, {area.center().x - box.x / 2, area.center().y - box.y / 2}, lines);
  }
}

void file_row(PhotoTab& tab) {
  PhotoDispute& d = tab.dispute;
  ImGui::TextUnformatted("Photo");
  const float open_w = ImGui::CalcTextSize("Open").x + 2 * ImGui::GetStyle().FramePadding.x;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - open_w - ImGui::GetStyle().ItemSpacing.x);
  std::string& path = d.path_typed();
  char buffer[1024];
  const std::size_t n = std::min(path.size(), sizeof buffer - 1);
  std::copy_n(path.data(), n, buffer);
  buffer[n] = '\0';
  const bool entered = ImGui::InputTextWithHint("##photo_file", "a file: /home/me/dispute.jpg", buffer, sizeof buffer,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
  path = buffer;
  ImGui::SameLine();
  if (ImGui::Button("Open") || entered) d.open(path);
  if (!d.problem().empty()) ImGui::TextColored(im_color4(verdict_color(referee::Call::no)), "%s", d.problem().c_str());
}

void question_rows(PhotoTab& tab) {
  PhotoDispute& d = tab.dispute;
  PhotoQuestion& q = d.question();
  bool changed = false;
  int kind = static_cast<int>(q.kind);
  changed |= ImGui::RadioButton("range", &kind, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("overlap", &kind, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("move", &kind, 2);
  q.kind = static_cast<PhotoQuestion::Kind>(kind);
  const float w = ImGui::GetContentRegionAvail().x;
  if (q.kind == PhotoQuestion::Kind::move) {
    ImGui::TextUnformatted("Ship");
    ImGui::SameLine();
    disk_combo("##photo_mover", d.disk_choices(true), q.a, w * 0.45f, changed);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(w * 0.30f);
    changed |= ImGui::SliderInt("flips", &q.flips, 1, 8);
  } else {
    ImGui::TextColored(im_color4(colors::kSelectA), "A");
    ImGui::SameLine();
    const std::vector<std::string> choices = d.disk_choices(false);
    disk_combo("##photo_a", choices, q.a, w * 0.38f, changed);
    ImGui::SameLine();
    ImGui::TextColored(im_color4(colors::kSelectB), "B");
    ImGui::SameLine();
    disk_combo("##photo_b", choices, q.b, w * 0.38f, changed);
    if (q.kind == PhotoQuestion::Kind::range && !d.templates().empty()) {
      std::vector<const char*> names;
      for (const RangeTemplateChoice& t : d.templates()) names.push_back(t.label.c_str());
      ImGui::SetNextItemWidth(w * 0.7f);
      changed |= ImGui::Combo("template", &d.template_index(), names.data(), static_cast<int>(names.size()));
    }
  }
  if (changed) d.question_changed();
  if (!d.question_missing().empty()) ImGui::TextDisabled("%s", d.question_missing().c_str());
}

void answer_rows(PhotoTab& tab) {
  const PhotoDispute& d = tab.dispute;
  tab.banner_drawn.reset();
  const std::shared_ptr<const PhotoOutcome>& out = d.outcome();
  if (d.busy()) {
    const PhotoWorkStatus st = d.status();
    ImGui::ProgressBar(st.step == 0 ? 0.0f : (static_cast<float>(st.step) - 0.5f) / PhotoWorkStatus::kSteps,
                       ImVec2(-1, 0), st.stage == PhotoStage::idle ? "waiting..." : stage_text(st.stage));
  }
  if (!out) return;
  ImGui::PushTextWrapPos(0.0f);
  if (!out->ruling) {
    // A refusal: said plainly, in the colour of "no".
    ImGui::Spacing();
    tab.banner_drawn = word_banner(colors::kVerdictNo, "NO RULING", "", 1.6f);
    ImGui::TextColored(im_color4(Rgb{255, 150, 140}), "%s", out->refusal.c_str());
    ImGui::PopTextWrapPos();
    return;
  }
  const PhotoShown& s = d.shown();
  if (!d.answers_current_question() && !d.busy()) ImGui::TextDisabled("the answer below is to an earlier question");
  for (const PhotoAnswerShown& a : s.answers) {
    ImGui::Spacing();
    ImGui::TextUnformatted(question_text(d.question()).c_str());
    tab.banner_drawn = a.call ? verdict_banner(*a.call, a.headline.c_str(), a.headline.c_str(), a.detail, 1.8f)
                              : word_banner(colors::kLost, a.headline.c_str(), a.detail, 1.8f);
    for (const std::string& l : a.lines) ImGui::TextUnformatted(l.c_str());
  }
  ImGui::Spacing();
  ImGui::Separator();
  if (!s.disks_seen.empty()) {
    std::string seen = "In the photo:";
    for (const std::string& n : s.disks_seen) seen += " " + n;
    ImGui::TextUnformatted(seen.c_str());
  }
  if (!s.unseen.empty()) {
    std::string unseen = "Not in the photo:";
    for (const std::string& n : s.unseen) unseen += " " + n;
    ImGui::TextColored(im_color4(colors::kStale), "%s", unseen.c_str());
  }
  for (const std::string& n : s.notes) ImGui::TextColored(im_color4(colors::kStale), "%s", n.c_str());
  const std::string about =
      s.size.empty() ? s.source : s.source + ", " + s.size + (s.camera.empty() ? "" : ", " + s.camera);
  if (!about.empty()) ImGui::TextDisabled("%s", about.c_str());
  // The photo shows no table's corners: its x, y are the photo's own, from one disk.
  if (!s.frame.empty()) ImGui::TextDisabled("x, y: %s", s.frame.c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace

PhotoTab::~PhotoTab() {
  delete_texture(texture);
}

void refresh_photo_tab(PhotoTab& tab) {
  if (!tab.dispute.refresh()) return;
  const std::shared_ptr<const PhotoOutcome>& out = tab.dispute.outcome();
  if (!out->ruling || out->preview.empty()) return;  // a refusal keeps the picture it had
  tab.texture = upload_bgr_texture(tab.texture, out->preview);
  tab.texture_size = {static_cast<double>(out->preview.cols), static_cast<double>(out->preview.rows)};
}

void draw_photo_panel(PhotoTab& tab, const ScreenRect& rect, bool* open) {
  tab.panel_drawn = rect;
  ImGui::SetNextWindowBgAlpha(1.0f);  // over the views: nothing of them shows through
  if (!begin_panel("Dispute from a photo###photo", rect, 0, open)) {
    ImGui::End();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
  // The column of words at least wide enough for the banner; the picture takes the rest.
  const float column =
      std::clamp(avail.x * 0.36f, std::min(avail.x * 0.5f, ImGui::GetFontSize() * 24), ImGui::GetFontSize() * 34);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  picture(tab, rect_of(origin, ImVec2(avail.x - column - gap, avail.y)));
  ImGui::SetCursorScreenPos(ImVec2(origin.x + avail.x - column, origin.y));
  ImGui::BeginChild("##photo_words", ImVec2(column, avail.y), false);
  file_row(tab);
  ImGui::Separator();
  question_rows(tab);
  ImGui::Separator();
  answer_rows(tab);
  ImGui::EndChild();
  ImGui::End();
}

nlohmann::json photo_tab_json(const PhotoTab& tab) {
  const PhotoDispute& d = tab.dispute;
  auto rect = [](const std::optional<ScreenRect>& r) {
    return r ? nlohmann::json{r->x, r->y, r->w, r->h} : nlohmann::json();
  };
  nlohmann::json j = {{"file", d.file().string()},
                      {"busy", d.busy()},
                      {"stage", stage_text(d.status().stage)},
                      {"question", question_text(d.question())},
                      {"problem", d.problem()},
                      {"panel", rect(tab.panel_drawn)},
                      {"image_rect", rect(tab.image_drawn)},
                      {"banner_rect", rect(tab.banner_drawn)}};
  if (const auto& out = d.outcome()) {
    j["refusal"] = out->refusal;
    if (out->ruling) j["ruling"] = out->ruling->answer;
    nlohmann::json answers = nlohmann::json::array();
    for (const PhotoAnswerShown& a : d.shown().answers)
      answers.push_back({{"call", a.call ? referee::to_key(*a.call) : "cannot_tell"},
                         {"headline", a.headline},
                         {"detail", a.detail},
                         {"lines", a.lines}});
    j["shown"] = {{"answers", answers},
                  {"notes", d.shown().notes},
                  {"unseen", d.shown().unseen},
                  {"disks_seen", d.shown().disks_seen}};
  }
  return j;
}

}  // namespace diskref::ui

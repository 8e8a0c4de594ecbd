#include "calibration/lens_calibration.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "calibration/view_quality.h"

namespace diskref::calib {
namespace {

double median(std::vector<double> values) {
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

void refuse_unless_covered(const std::vector<BoardView>& views, cv::Size image_size,
                           const LensCalibrationOptions& options, LensCalibration& out) {
  out.area_coverage = image_coverage(views, image_size);
  out.cell_coverage = corner_cell_coverage(views, image_size, 4);
  if (out.area_coverage >= options.min_area_coverage && out.cell_coverage >= options.min_cell_coverage) return;
  throw CalibrationRefused(fmt::format(
      "the views do not cover the image: the boards cover {:.0f} % of its area (need {:.0f} %) and their corners "
      "reach {:.0f} % of the cells of a 4x4 grid over it (need {:.0f} %); show the board near the image's edges and "
      "corners too",
      100 * out.area_coverage, 100 * options.min_area_coverage, 100 * out.cell_coverage,
      100 * options.min_cell_coverage));
}

LensFit fit_or_refuse(const std::vector<BoardView>& views, cv::Size image_size, LensModel model) {
  try {
    return fit_lens(views, image_size, model);
  } catch (const LensFitFailed& e) {
    // Degenerate views (all boards parallel, too few corners): OpenCV's assertion says why.
    throw CalibrationRefused(e.what());
  }
}

// The other views' held-out error, k-fold over them, with `suspect` in every training set or not.
struct SuspectTrial {
  HeldOutError with, without;
};

SuspectTrial try_suspect(const std::vector<BoardView>& views, std::size_t suspect, cv::Size image_size, LensModel model,
                         int folds, const CameraModel& start) {
  std::vector<BoardView> others;
  for (std::size_t i = 0; i < views.size(); ++i)
    if (i != suspect) others.push_back(views[i]);
  const std::vector<int> fold = fold_of_views(others.size(), folds);
  const int k = *std::max_element(fold.begin(), fold.end()) + 1;
  SuspectTrial trial;
  for (int f = 0; f < k; ++f) {
    std::vector<BoardView> train, test;
    for (std::size_t i = 0; i < others.size(); ++i) (fold[i] == f ? test : train).push_back(others[i]);
    try {
      trial.without += held_out_error(fit_lens_from(train, image_size, model, start).camera, test);
      train.push_back(views[suspect]);
      trial.with += held_out_error(fit_lens_from(train, image_size, model, start).camera, test);
    } catch (const LensFitFailed&) {
      return {};  // too few views to judge: the suspect stays
    }
  }
  return trial;
}

// Drops suspect views that make the others worse; returns the verdict of every view.
std::vector<std::string> judge_views(std::vector<BoardView>& views, cv::Size image_size, LensModel model,
                                     const LensCalibrationOptions& options, std::vector<DroppedView>& dropped) {
  std::vector<std::string> verdicts(views.size());
  const LensFit fit = fit_or_refuse(views, image_size, model);
  const double typical = median(fit.view_rms_px);
  const double limit = std::max(options.outlier_factor * typical, typical + options.outlier_margin_px);
  std::vector<std::size_t> suspects;
  for (std::size_t i = 0; i < views.size(); ++i) {
    if (fit.view_rms_px[i] > limit)
      suspects.push_back(i);
    else
      verdicts[i] = fmt::format("typical error ({:.3f} px; suspect above {:.3f} px)", fit.view_rms_px[i], limit);
  }
  std::sort(suspects.begin(), suspects.end(),
            [&](std::size_t a, std::size_t b) { return fit.view_rms_px[a] > fit.view_rms_px[b]; });
  std::vector<bool> drop(views.size(), false);
  for (std::size_t rank = 0; rank < suspects.size(); ++rank) {
    const std::size_t s = suspects[rank];
    if (static_cast<int>(rank) >= options.max_suspects || static_cast<int>(views.size()) <= options.min_views + 1) {
      verdicts[s] =
          fmt::format("kept untried: error {:.3f} px above {:.3f} px, but only the worst {} suspects are tried",
                      fit.view_rms_px[s], limit, options.max_suspects);
      continue;
    }
    const SuspectTrial trial = try_suspect(views, s, image_size, model, options.folds, fit.camera);
    const double with = trial.with.rms_px(), without = trial.without.rms_px();
    if (trial.with.corners && with > without * (1 + options.suspect_harm)) {
      drop[s] = true;
      dropped.push_back({views[s].name, "outlier",
                         fmt::format("outlier: view error {:.3f} px (suspect above {:.3f} px; median view {:.3f} px), "
                                     "and the other views, held out, are predicted worse with it ({:.3f} px) than "
                                     "without it ({:.3f} px)",
                                     fit.view_rms_px[s], limit, typical, with, without)});
    } else {
      verdicts[s] = trial.with.corners
                        ? fmt::format(
                              "error {:.3f} px is high (above {:.3f} px), but the other views, held out, are "
                              "predicted about as well with it ({:.3f} px) than without ({:.3f} px)",
                              fit.view_rms_px[s], limit, with, without)
                        : fmt::format("error {:.3f} px is high, but too few views to judge it", fit.view_rms_px[s]);
    }
  }
  std::vector<BoardView> kept;
  std::vector<std::string> kept_verdicts;
  for (std::size_t i = 0; i < views.size(); ++i)
    if (!drop[i]) {
      kept.push_back(std::move(views[i]));
      kept_verdicts.push_back(std::move(verdicts[i]));
    }
  views = std::move(kept);
  return kept_verdicts;
}

// Whether `richer` predicts the views better than `simpler` beyond chance: the mean of the paired
// per-view differences is above t standard errors (both from the same folds, in the same order).
bool clearly_better(const std::vector<double>& simpler, const std::vector<double>& richer, double t) {
  if (simpler.size() != richer.size() || simpler.size() < 3) return false;
  const double n = static_cast<double>(simpler.size());
  double mean = 0, sq = 0;
  for (std::size_t i = 0; i < simpler.size(); ++i) mean += (simpler[i] - richer[i]) / n;
  for (std::size_t i = 0; i < simpler.size(); ++i) sq += std::pow(simpler[i] - richer[i] - mean, 2);
  const double standard_error = std::sqrt(sq / (n - 1) / n);
  return mean > 0 && mean > t * standard_error;
}

// Every model's held-out error; a richer model replaces the choice when it is clearly better on
// the held-out views (clearly_better). The thin-prism and tilted models refine the rational one: they are
// tried only while each richer model was chosen (they cost the most and rarely help a webcam).
LensModel choose_model(const std::vector<BoardView>& views, cv::Size image_size, const LensCalibrationOptions& options,
                       std::vector<ModelScore>& scores) {
  std::optional<LensModel> chosen;
  std::vector<double> chosen_views;  // the chosen model's held-out squared error, view by view
  std::optional<CameraModel> start;
  std::vector<LensModel> candidates(std::begin(kLensModels), std::end(kLensModels));
  if (options.model) candidates = {*options.model};
  for (LensModel m : candidates) {
    if (!options.model && coefficient_count(m) > coefficient_count(LensModel::rational) && chosen &&
        *chosen != scores.back().model)
      break;
    ModelScore score{m, 0, 0};
    LensFit whole;
    try {
      // A richer model starts from the simpler ones' lens (its extra coefficients 0).
      whole = fit_lens(views, image_size, m, start ? &*start : nullptr);
    } catch (const LensFitFailed&) {
      continue;  // too few corners for this many parameters
    }
    start = whole.camera;
    score.fit_rms_px = whole.rms_px;
    HeldOutError held_out = cross_validated_error(views, image_size, m, options.folds, &whole.camera);
    score.held_out_rms_px = held_out.rms_px();
    scores.push_back(score);
    if (!chosen || clearly_better(chosen_views, held_out.view_sum_sq_px, options.richer_model_t)) {
      chosen = m;
      chosen_views = std::move(held_out.view_sum_sq_px);
    }
  }
  if (options.model) return *options.model;
  if (!chosen) throw CalibrationRefused("OpenCV cannot calibrate from these views with any lens model");
  return *chosen;
}

}  // namespace

std::vector<std::string> intrinsic_names(const CameraModel& camera) {
  std::vector<std::string> names{"fx", "fy", "cx", "cy"};
  for (std::size_t i = 0; i < camera.dist_coeffs.size(); ++i) names.emplace_back(distortion_name(i));
  return names;
}

LensCalibration calibrate_lens(const std::vector<BoardView>& views_in, cv::Size image_size,
                               const LensCalibrationOptions& options) {
  std::vector<BoardView> views = views_in;
  if (static_cast<int>(views.size()) < options.min_views)
    throw CalibrationRefused("only " + std::to_string(views.size()) + " usable view(s) of the board; at least " +
                             std::to_string(options.min_views) + " are needed");
  LensCalibration out;
  refuse_unless_covered(views, image_size, options, out);

  // Views are judged with the forced model, else with k1 k2 p1 p2 k3 (OpenCV's default).
  std::vector<std::string> verdicts =
      judge_views(views, image_size, options.model.value_or(LensModel::k3), options, out.outliers);
  refuse_unless_covered(views, image_size, options, out);

  out.model = choose_model(views, image_size, options, out.models);
  const LensFit fit = fit_or_refuse(views, image_size, out.model);
  out.rms_px = fit.rms_px;
  out.camera = fit.camera;
  out.covariance = lens_covariance(fit, views);
  for (int i = 0; i < out.covariance.intrinsics.rows; ++i)
    out.intrinsic_std.push_back(std::sqrt(std::max(0.0, out.covariance.intrinsics.at<double>(i, i))));
  out.camera.uncertainty = uncertainty_grid(out.camera, out.covariance, options.grid_cols, options.grid_rows);
  out.uncertainty_central =
      spread_of(projection_sigma_px(out.camera, out.covariance, central_grid(image_size, 32, 18, 0.8)));
  out.uncertainty_whole = spread_of(projection_sigma_px(out.camera, out.covariance, grid_nodes(image_size, 32, 18)));
  for (std::size_t i = 0; i < views.size(); ++i)
    out.views.push_back(
        {views[i].name, static_cast<int>(views[i].image_points.size()), fit.view_rms_px[i], verdicts[i]});
  return out;
}

double reprojection_rms_px(const CameraModel& camera, const std::vector<BoardView>& views) {
  return held_out_error(camera, views).rms_px();
}

}  // namespace diskref::calib

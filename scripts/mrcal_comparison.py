#!/usr/bin/python3
# diskref's lens calibration measured against mrcal's on the same views (issue 37): is it the
# model or the data that makes two halves of one set of real photographs disagree beyond their
# predicted projection uncertainty? Prints Markdown; run it through scripts/figures.sh so that
# docs/figures/mrcal_comparison.md is written by it:
#
#   scripts/figures.sh mrcal_comparison scripts/mrcal_comparison.py [TESTDATA [EXPORTER]]
#
# TESTDATA is the real-calibration folder (GPL-3.0 photographs, read here and never committed): the
# argument when given, else $DISKREF_REAL_CALIBRATION, else ../shared/testdata/real-calibration
# beside the checkout. Give it through the variable, not the argument, so that the figures' header
# (which repeats the command's arguments) names no folder of this machine. EXPORTER writes the
# corners diskref itself finds (examine_view, as `diskref calibrate` and calibration_bench) as
# mrcal's corners.vnl: mrcal is fed diskref's corners, not its own detector's. By default it is
# build/bench/export_board_corners, or build-dev/bench/export_board_corners (the dev preset with
# DISKREF_BUILD_BENCH=ON) when only that one is built. Everything mrcal writes goes to a temporary
# folder.
#
# For each set, three lens models, each fitted by mrcal-calibrate-cameras (mrcal's own seeding,
# outlier rejection and board-warp fit) on all the views and on the even and the odd views (the
# halves calibration_bench uses: alternate views in file-name order):
#   LENSMODEL_OPENCV5 - the model diskref chooses on most of these sets (docs/figures/calibration.md),
#   LENSMODEL_OPENCV8 - OpenCV's rational model,
#   LENSMODEL_SPLINED_STEREOGRAPHIC - mrcal's flexible model, whose uncertainty mrcal says should
#                       cover the model's own error where a lean model's cannot.
# The halves are compared as mrcal-show-projection-diff does (mrcal.projection_diff: a rotation
# fitted between the camera frames at infinity, points weighted by their uncertainty), against the
# predicted one sigma of the difference sqrt(sa^2 + sb^2), where sa and sb are each half's
# mrcal.projection_uncertainty (what mrcal-show-projection-uncertainty draws; at infinity, worst
# direction), over the same grid as calibration_bench: 32 x 18 points over the central 80 % of the
# image. "within 2 sigma" is the share of those points whose difference is at most 2 predicted
# sigma; a predicted uncertainty that is honest puts about 95 % there.

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import mrcal

SETS = [
    # (name, folder, exporter's board arguments, object-width-n, object-height-n, splined Nx, Ny)
    ("chessboard 1280x720", "chessboard_1280x720", ["chessboard", "10x10", "25.4"], 10, 10, 16, 9),
    ("ChArUco 1280x720", "charuco_1280x720", ["charuco", "8x8", "25.4", "19.05", "DICT_4X4_1000"], 7, 7, 16, 9),
    ("chessboard 640x480", "chessboard_640x480", ["chessboard", "10x10", "25.4"], 10, 10, 12, 9),
    ("ChArUco 640x480", "charuco_640x480", ["charuco", "8x8", "25.4", "19.05", "DICT_4X4_1000"], 7, 7, 12, 9),
]
SPACING_M = 0.0254


def fail(message):
    sys.stderr.write(f"mrcal_comparison: {message}\n")
    sys.exit(1)


def read_vnl(path):
    """The corners.vnl rows grouped by image, in file-name order."""
    by_image = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            by_image.setdefault(line.split()[0], []).append(line)
    return dict(sorted(by_image.items()))


def write_vnl(path, rows_by_image):
    with open(path, "w") as f:
        f.write("# filename x y level\n")
        for rows in rows_by_image.values():
            f.writelines(rows)


def image_size_of(folder):
    """The most common image size in the folder (the exporter uses the same rule)."""
    import cv2

    sizes = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith((".jpg", ".png")):
            image = cv2.imread(os.path.join(folder, name), cv2.IMREAD_GRAYSCALE)
            if image is not None:
                sizes[(image.shape[1], image.shape[0])] = sizes.get((image.shape[1], image.shape[0]), 0) + 1
    if not sizes:
        fail(f"{folder}: no image")
    return max(sizes, key=sizes.get)


def calibrate(vnl, lensmodel, size, width_n, height_n, focal, outdir):
    os.makedirs(outdir, exist_ok=True)
    command = ["mrcal-calibrate-cameras", "--corners-cache", vnl, "--lensmodel", lensmodel, "--focal", f"{focal:.1f}",
               "--object-spacing", str(SPACING_M), "--object-width-n", str(width_n), "--object-height-n",
               str(height_n), "--imagersize", str(size[0]), str(size[1]), "--outdir", outdir, "*"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{' '.join(command)} failed:\n{run.stderr[-2000:]}")
    model = mrcal.cameramodel(os.path.join(outdir, "camera-0.cameramodel"))
    inputs = model.optimization_inputs()
    observations = inputs["observations_board"]
    used = observations[..., 2] > 0
    # The residuals of the corners the fit used (mrcal leaves outliers and missing corners out).
    residuals = mrcal.residuals_chessboard(inputs).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum(residuals ** 2, axis=-1) / 2)))
    warp = inputs.get("calobject_warp")
    outliers = int(np.sum(observations[..., 2] <= 0) - np.sum(observations[..., 0] < 0))
    return {"model": model, "rms": rms, "used": int(np.sum(used)), "outliers": max(outliers, 0),
            "warp_mm": None if warp is None else [1000.0 * float(w) for w in warp]}


def central_grid(size, cols=32, rows=18, fraction=0.8):
    """calibration_bench's grid: cols x rows points whose outer ones lie on the central fraction's edge."""
    w, h = size
    xs = (w - 1) / 2 + (np.linspace(0, 1, cols) - 0.5) * fraction * (w - 1)
    ys = (h - 1) / 2 + (np.linspace(0, 1, rows) - 0.5) * fraction * (h - 1)
    return np.array([[x, y] for y in ys for x in xs])


def compare(a, b, size):
    """Halves (or two sets) compared as mrcal-show-projection-diff does, against their uncertainty."""
    ma, mb = a["model"], b["model"]
    _, _, _, rt_ba = mrcal.projection_diff((ma, mb), distance=None, use_uncertainties=True)
    q = central_grid(size)
    va = mrcal.unproject(q, *ma.intrinsics(), normalize=True)
    qb = mrcal.project(mrcal.rotate_point_R(rt_ba[:3, :], va), *mb.intrinsics())
    apart = np.linalg.norm(qb - q, axis=-1)
    sa = mrcal.projection_uncertainty(va, model=ma, atinfinity=True, what="worstdirection-stdev")
    vb = mrcal.unproject(q, *mb.intrinsics(), normalize=True)
    sb = mrcal.projection_uncertainty(vb, model=mb, atinfinity=True, what="worstdirection-stdev")
    sigma = np.hypot(sa, sb)
    ok = np.isfinite(apart) & np.isfinite(sigma)
    return {"apart_median": float(np.median(apart[ok])), "apart_p90": float(np.percentile(apart[ok], 90)),
            "sigma_median": float(np.median(sigma[ok])), "sigma_p90": float(np.percentile(sigma[ok], 90)),
            "within": 100.0 * float(np.mean(apart[ok] <= 2 * sigma[ok])), "ratio": float(np.median(apart[ok] / sigma[ok]))}


def leave_one_out(views, lensmodel, size, width_n, height_n, focal, work):
    """How far the lens moves when each view is left out, against what the corners' noise predicts.

    With i.i.d. corner noise around one true lens, the jackknife's spread,
    sqrt((n - 1) / n * sum_i d_i^2) per point (d_i: how far the fit without view i maps the point
    from the fit on all, rotation fitted as above), is about the full fit's predicted sigma. Views
    that each pull the lens their own way (a board bent differently in each, motion, a camera that
    refocused) make it larger, whatever the lens model."""
    os.makedirs(work, exist_ok=True)
    whole_vnl = os.path.join(work, "all.vnl")
    write_vnl(whole_vnl, views)
    whole = calibrate(whole_vnl, lensmodel, size, width_n, height_n, focal, os.path.join(work, "all"))
    q = central_grid(size)
    v = mrcal.unproject(q, *whole["model"].intrinsics(), normalize=True)
    predicted = mrcal.projection_uncertainty(v, model=whole["model"], atinfinity=True, what="worstdirection-stdev")
    shifts, sum_sq = [], np.zeros(len(q))
    for i, name in enumerate(views):
        vnl = os.path.join(work, f"without-{i}.vnl")
        write_vnl(vnl, {k: r for k, r in views.items() if k != name})
        without = calibrate(vnl, lensmodel, size, width_n, height_n, focal, os.path.join(work, f"without-{i}"))
        _, _, _, rt = mrcal.projection_diff((whole["model"], without["model"]), distance=None, use_uncertainties=True)
        qw = mrcal.project(mrcal.rotate_point_R(rt[:3, :], v), *without["model"].intrinsics())
        d = np.linalg.norm(qw - q, axis=-1)
        sum_sq += d ** 2
        shifts.append((float(np.median(d)), name))
    n = len(views)
    jackknife = np.sqrt((n - 1) / n * sum_sq)
    shifts.sort(reverse=True)
    return {"jackknife": float(np.median(jackknife)), "predicted": float(np.median(predicted)),
            "largest": shifts[0], "median_shift": float(np.median([d for d, _ in shifts]))}


CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER_VARIABLE = "DISKREF_REAL_CALIBRATION"
EXPORTERS = ["build/bench/export_board_corners", "build-dev/bench/export_board_corners"]


def real_calibration_folder(argument):
    """The photographs' folder: the argument, the variable, or the default beside the checkout."""
    if argument:
        folder, source = argument, "given as the argument"
    elif os.environ.get(FOLDER_VARIABLE):
        folder, source = os.environ[FOLDER_VARIABLE], f"from ${FOLDER_VARIABLE}"
    else:
        # Beside the checkout, as docs/development/mrcal.md says: found from any working directory.
        folder = os.path.normpath(os.path.join(CHECKOUT, "..", "shared", "testdata", "real-calibration"))
        source = f"the default beside the checkout, as {FOLDER_VARIABLE} is not set"
    if not os.path.isdir(folder):
        fail(f"{folder} ({source}): not a folder; the real-calibration photographs are needed "
             f"(set {FOLDER_VARIABLE} to their folder; docs/development/mrcal.md)")
    missing = [name for _, name, *_ in SETS if not os.path.isdir(os.path.join(folder, name))]
    if missing:
        fail(f"{folder} ({source}): not the real-calibration photographs: no {', '.join(missing)} in it")
    return folder


def corner_exporter(argument):
    """export_board_corners: the argument, or the first built of EXPORTERS in the checkout."""
    if argument:
        if not os.access(argument, os.X_OK):
            fail(f"{argument}: no such program (the corner exporter given as the second argument)")
        return argument
    for relative in EXPORTERS:
        path = os.path.join(CHECKOUT, relative)
        if os.access(path, os.X_OK):
            return path
    fail(f"export_board_corners is not built (looked for {' and '.join(EXPORTERS)}): "
         "cmake --build build --target export_board_corners")


def main():
    if len(sys.argv) > 3:
        fail("usage: scripts/mrcal_comparison.py [TESTDATA [EXPORTER]]")
    testdata = real_calibration_folder(sys.argv[1] if len(sys.argv) >= 2 else None)
    exporter = corner_exporter(sys.argv[2] if len(sys.argv) == 3 else None)

    work = tempfile.mkdtemp(prefix="diskref-mrcal-")
    print("# diskref's corners fitted by mrcal: do mrcal's models predict their own disagreement?\n")
    print(f"mrcal {subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'mrcal'], capture_output=True, text=True).stdout} "
          "(Debian), fed the corners diskref finds (build/bench/export_board_corners). Halves: even and odd views. "
          "`apart`: how far the halves map a pixel after mrcal's fitted rotation at infinity; `sigma`: predicted one "
          "sigma of that difference, sqrt(sa^2 + sb^2) of mrcal.projection_uncertainty (worst direction, at "
          "infinity); over 32 x 18 points of the central 80 % of the image. An honest uncertainty puts about 95 % "
          "within 2 sigma. diskref's own figures on the same views: docs/figures/calibration.md.\n")
    fits = {}
    rows, fit_rows, jackknife_rows = [], [], []
    for name, folder, board, width_n, height_n, nx, ny in SETS:
        path = os.path.join(testdata, folder)
        size = image_size_of(path)
        vnl = os.path.join(work, folder + ".vnl")
        with open(vnl, "w") as out:
            run = subprocess.run([exporter, path] + board, stdout=out, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            fail(f"{exporter} {path}: {run.stderr}")
        views = read_vnl(vnl)
        halves = [{k: v for i, (k, v) in enumerate(views.items()) if i % 2 == parity} for parity in (0, 1)]
        half_vnl = []
        for parity, half in enumerate(halves):
            half_vnl.append(os.path.join(work, f"{folder}-{'even' if parity == 0 else 'odd'}.vnl"))
            write_vnl(half_vnl[-1], half)

        # The splined model's field of view from a lean fit's focal length, with a margin.
        lean = calibrate(vnl, "LENSMODEL_OPENCV5", size, width_n, height_n, 0.9 * size[0], os.path.join(work, folder, "seed"))
        fx = float(lean["model"].intrinsics()[1][0])
        fov_x = 1.15 * np.degrees(2 * np.arctan(size[0] / 2 / fx))
        models = [("OPENCV5", "LENSMODEL_OPENCV5"), ("OPENCV8", "LENSMODEL_OPENCV8"),
                  ("splined", f"LENSMODEL_SPLINED_STEREOGRAPHIC_order=3_Nx={nx}_Ny={ny}_fov_x_deg={fov_x:.0f}")]
        for short, lensmodel in models:
            base = os.path.join(work, folder, short)
            whole = calibrate(vnl, lensmodel, size, width_n, height_n, fx, base + "-all")
            parts = [calibrate(v, lensmodel, size, width_n, height_n, fx, base + f"-{i}") for i, v in enumerate(half_vnl)]
            fits[(name, short)] = whole
            c = compare(parts[0], parts[1], size)
            rows.append((name, short if short != "splined" else lensmodel.replace("LENSMODEL_", ""), len(views),
                         f"{len(halves[0])} + {len(halves[1])}", c))
            warp = whole["warp_mm"]
            fit_rows.append((name, short, whole["rms"], whole["outliers"], whole["used"],
                             "-" if warp is None else f"{warp[0]:.2f} / {warp[1]:.2f}"))
        jackknife_rows.append((name, len(views), leave_one_out(views, "LENSMODEL_OPENCV5", size, width_n, height_n, fx,
                                                               os.path.join(work, folder, "jackknife"))))

    print("## Halves of each set\n")
    print("| set | model | views | halves | apart median / p90 px | predicted sigma median / p90 px | median apart / sigma | within 2 sigma |")
    print("|---|---|---|---|---|---|---|---|")
    for name, model, n, halves, c in rows:
        print(f"| {name} | {model} | {n} | {halves} | {c['apart_median']:.3f} / {c['apart_p90']:.3f} | "
              f"{c['sigma_median']:.3f} / {c['sigma_p90']:.3f} | {c['ratio']:.1f} | {c['within']:.0f} % |")

    print("\n## Chessboard against ChArUco of the same mode (all views of each)\n")
    print("| compared | model | apart median / p90 px | predicted sigma median / p90 px | median apart / sigma | within 2 sigma |")
    print("|---|---|---|---|---|---|")
    for mode, size in (("1280x720", (1280, 720)), ("640x480", (640, 480))):
        for short in ("OPENCV5", "OPENCV8", "splined"):
            c = compare(fits[(f"chessboard {mode}", short)], fits[(f"ChArUco {mode}", short)], size)
            print(f"| chessboard vs ChArUco {mode} | {short} | {c['apart_median']:.3f} / {c['apart_p90']:.3f} | "
                  f"{c['sigma_median']:.3f} / {c['sigma_p90']:.3f} | {c['ratio']:.1f} | {c['within']:.0f} % |")

    print("\n## The fits on all views\n")
    print("The board's flatness as mrcal fits it (calobject_warp: a parabolic bow of the board, its middle's "
          "height in x / y, mm; a flat board gives about 0), and the corners mrcal threw out as outliers. "
          "The RMS is for reference only.\n")
    print("| set | model | fit RMS px | corners used | outliers thrown out | board warp x / y mm |")
    print("|---|---|---|---|---|---|")
    for name, short, rms, outliers, used, warp in fit_rows:
        print(f"| {name} | {short} | {rms:.3f} | {used} | {outliers} | {warp} |")


    print("\n## Each view left out in turn (OPENCV5)\n")
    print("How far the lens moves (median over the central 80 %) when one view is left out of the fit on all views, "
          "and the jackknife's one sigma from those moves, sqrt((n - 1) / n * sum of squares), against the full fit's "
          "predicted sigma. With only the corners' noise, the two are about equal; views that each pull the lens "
          "their own way make the jackknife larger whatever the model.\n")
    print("| set | views | jackknife sigma median px | predicted sigma median px | jackknife / predicted | move median px | largest move px (view) |")
    print("|---|---|---|---|---|---|---|")
    for name, n, j in jackknife_rows:
        print(f"| {name} | {n} | {j['jackknife']:.3f} | {j['predicted']:.3f} | {j['jackknife'] / j['predicted']:.1f} | "
              f"{j['median_shift']:.3f} | {j['largest'][0]:.3f} ({j['largest'][1]}) |")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()

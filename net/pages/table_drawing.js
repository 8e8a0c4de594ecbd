// diskref's pages draw the table alike (the overlay, the hall): the play area seen from above and
// each disk's outline turned to its heading, from the feed's setup (shapes, colours) and a frame.
// Table frame: mm, y up (spec §1); SVG: y down, so y is drawn as H - y.
"use strict";
const SVG_NS = "http://www.w3.org/2000/svg";
const KIND_COLOUR = { ship: "#9e9e9e", torpedo: "#ff7043", planet: "#8d6e63", terrain: "#6d4c41",
                      obstruction: "#5d4037", template: "#b0bec5" };

// An HTML element with a class and a text, appended to `parent` (both pages build their panels so).
function html(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function diskColour(spec) { return (spec && spec.color) || KIND_COLOUR[spec ? spec.kind : "ship"]; }

// A disk's outline in the table frame, as a polygon: a circle, a circle with its front and back
// cut flat (flatted_circle), or a rectangle, turned to its heading.
function diskOutline(shape, x, y, headingDeg) {
  const h = headingDeg * Math.PI / 180, c = Math.cos(h), s = Math.sin(h);
  let local = [];
  if (shape.type === "rect") {
    const l = shape.length_mm / 2, w = shape.width_mm / 2;
    local = [[l, w], [-l, w], [-l, -w], [l, -w]];
  } else {
    const r = shape.diameter_mm / 2, f = shape.type === "flatted_circle" ? shape.flat_to_flat_mm / 2 : r;
    for (let i = 0; i < 64; i++) {
      const a = 2 * Math.PI * i / 64;
      local.push([Math.max(-f, Math.min(f, r * Math.cos(a))), r * Math.sin(a)]);
    }
  }
  return local.map(([u, v]) => [x + u * c - v * s, y + u * s + v * c]);
}

function svgPoints(poly, H) { return poly.map(([x, y]) => `${x.toFixed(1)},${(H - y).toFixed(1)}`).join(" "); }

// One disk (spec: the setup's entry for it) at pose {x, y, heading}, with a line to its front.
function drawDisk(svg, spec, pose, H, style) {
  if (!spec) return null;
  const g = svgEl("g", { "data-disk": spec.name }, svg);
  svgEl("polygon", Object.assign({ points: svgPoints(diskOutline(spec.shape, pose.x, pose.y, pose.heading), H),
                                   fill: diskColour(spec), stroke: "#fff", "stroke-width": 1.5 }, style || {}), g);
  const h = pose.heading * Math.PI / 180;
  const r = spec.shape.type === "rect" ? spec.shape.length_mm / 2 : spec.shape.diameter_mm / 2;
  svgEl("line", { x1: pose.x, y1: H - pose.y, x2: pose.x + r * Math.cos(h), y2: H - (pose.y + r * Math.sin(h)),
                  stroke: "#fff", "stroke-width": 3 }, g);
  return g;
}

// The play area and every disk of the frame that has a pose (stale ones faded).
function drawTable(svg, setup, frame) {
  svg.replaceChildren();
  if (!setup) return;
  const [W, H] = setup.play_area_mm;
  svg.setAttribute("viewBox", `-10 -10 ${W + 20} ${H + 20}`);
  svgEl("rect", { x: 0, y: 0, width: W, height: H, fill: "#1b5e20", stroke: "#e0e0e0", "stroke-width": 3 }, svg);
  if (!frame) return;
  for (const d of frame.disks) {
    if (d.x === undefined) continue;
    drawDisk(svg, setup.disks.find(s => s.name === d.name), d, H, d.state === "stale" ? { opacity: 0.5 } : {});
  }
}

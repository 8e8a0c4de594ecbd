// diskref's overlay page's code (served as /overlay.js: the page's CSP allows no inline script).
"use strict";
if (new URLSearchParams(location.search).get("backdrop")) document.body.classList.add("backdrop");
const feed = { setup: null, frame: null, game: null, status: null, rulings: new Map() };
// For tests and for the latency figure: what the page has shown, and how long each ruling took
// from its publication (sent_ms, the referee's clock) to being on the page.
window.diskref = { events: 0, shownEntry: -1, latencies: [], connected: false };
let dirty = false, fresh = [];

function diskSpec(name) { return feed.setup && feed.setup.disks.find(d => d.name === name); }
function colourOf(name) { return diskColour(diskSpec(name)); }
function drawNamed(svg, name, pose, H, style) { return drawDisk(svg, diskSpec(name), pose, H, style); }

function renderTable() { drawTable(document.getElementById("table"), feed.setup, feed.frame); }

function renderGame() {
  const g = feed.game;
  if (!g) return;
  const t = g.turn;
  let line = `Turn ${t.turn} · ${t.step}`;
  if (t.phase) line += ` · phase ${t.phase}`;
  if (t.winner !== undefined && t.winner !== null) line += ` · won by ${t.winner || "no side"}`;
  document.getElementById("turn-line").textContent = line;
  document.getElementById("expecting").textContent =
    (t.option ? `${t.option} to act. ` : "") + (t.expecting ? `Next: ${t.expecting}` : "");
  const box = document.getElementById("ships");
  box.replaceChildren();
  for (const s of g.ships) {
    const p = html("div", "panel ship" + (s.acting ? " acting" : "") + (s.destroyed ? " destroyed" : ""), undefined, box);
    p.dataset.ship = s.id;
    p.style.borderLeftColor = colourOf(s.id);
    html("div", "name", `${s.id}${s.destroyed ? " — DESTROYED" : ""}`, p);
    html("div", "muted", `${s.name} · ${s.controller}${s.cloaked ? " · cloaked" : ""}`, p);
    const bars = html("div", "bars", undefined, p);
    html("span", "", `speed ${s.speed}/${s.max_speed}`, bars);
    html("span", "", `shields ${s.shields}/${s.max_shields}`, bars);
    html("span", "", `hull ${s.hull}/${s.max_hull}`, bars);
    if (s.orders && s.orders.length) html("div", "orders", "orders: " + s.orders.join(" · "), p);
    if (s.crits && s.crits.length) html("div", "orders", "criticals: " + s.crits.join(", "), p);
  }
}

function renderStatus() {
  const box = document.getElementById("status");
  const s = feed.status;
  const text = s && s.text ? s.text : "";
  box.textContent = text;
  box.style.display = text && s.ok === false ? "block" : "none";
}

// The last ruling: its text, its verdicts, and its picture: the part of the table where it
// happened, with the legal landings dashed and the landings seen numbered.
function renderRuling() {
  let last = null;
  for (const r of feed.rulings.values()) if (r.tone !== "setup" && (!last || r.entry > last.entry)) last = r;
  if (!last) return;
  const box = document.getElementById("ruling-box");
  box.className = "panel " + last.tone;
  box.dataset.entry = last.entry;
  document.getElementById("ruling-when").textContent = `ruling ${last.entry} · ${last.t.toFixed(1)} s`;
  document.getElementById("ruling-text").textContent = last.text;
  const vbox = document.getElementById("verdicts");
  vbox.replaceChildren();
  const pic = document.getElementById("ruling-picture");
  pic.replaceChildren();
  const o = last.observed;
  if (!o || !feed.setup) { pic.style.display = "none"; return; }
  pic.style.display = "block";
  for (const v of o.verdicts || [])
    if (!(v.kind === "edge" && v.call === "no"))
      html("div", "verdict " + v.call, `${v.kind} ${v["with"]}: ${v.margin_mm.toFixed(1)} ± ${v.sigma_mm.toFixed(1)} mm → ${v.call === "too_close" ? "too close to call" : v.call.toUpperCase()}`, vbox);
  const H = feed.setup.play_area_mm[1];
  const poses = [o.start, o.end, o.placed, ...(o.landings || []), ...(o.legal_landings || [])].filter(p => p);
  if (!poses.length) { pic.style.display = "none"; return; }
  const xs = poses.map(p => p.x), ys = poses.map(p => H - p.y), m = 70;
  let x0 = Math.min(...xs) - m, x1 = Math.max(...xs) + m, y0 = Math.min(...ys) - m, y1 = Math.max(...ys) + m;
  const w = Math.max(x1 - x0, (y1 - y0) * 5 / 3), h = w * 3 / 5;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  pic.setAttribute("viewBox", `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
  // The other disks where they lie now; the mover's legal landings, its landings seen, its end.
  if (feed.frame)
    for (const d of feed.frame.disks)
      if (d.x !== undefined && d.name !== o.disk) drawNamed(pic, d.name, d, H, { opacity: 0.7 });
  for (const p of o.legal_landings || [])
    drawNamed(pic, o.disk, p, H, { "fill-opacity": 0, stroke: "#ffffff", "stroke-dasharray": "6 5", "stroke-width": 2 });
  (o.landings || []).forEach((p, i) => {
    if (!p) return;
    drawNamed(pic, o.disk, p, H, { "fill-opacity": 0.35 });
    const t = svgEl("text", { x: p.x, y: H - p.y + 6, fill: "#fff", "font-size": 20, "text-anchor": "middle" }, pic);
    t.textContent = String(i + 1);
  });
  const end = o.placed || o.end;
  if (end) drawNamed(pic, o.disk, end, H, {});
}

function render() {
  dirty = false;
  renderStatus();
  renderGame();
  renderTable();
  renderRuling();
  // Shown now (the page's next paint): the latency of each ruling that arrived since the last.
  const now = Date.now();
  for (const r of fresh) window.diskref.latencies.push(now - r.sent_ms);
  for (const r of fresh) window.diskref.shownEntry = Math.max(window.diskref.shownEntry, r.entry);
  fresh = [];
}
function changed() { if (!dirty) { dirty = true; requestAnimationFrame(render); } }

const source = new EventSource("/feed/v1/events");
source.addEventListener("open", () => { window.diskref.connected = true; });
source.addEventListener("error", () => { window.diskref.connected = false; });
source.addEventListener("snapshot", e => {
  const m = JSON.parse(e.data);
  feed.setup = m.setup; feed.frame = m.frame; feed.game = m.game; feed.status = m.status;
  feed.rulings = new Map(m.rulings.map(r => [r.entry, r]));
  for (const r of m.rulings) window.diskref.shownEntry = Math.max(window.diskref.shownEntry, r.entry);
  window.diskref.events++;
  changed();
});
for (const type of ["setup", "table", "game", "status", "ruling"])
  source.addEventListener(type, e => {
    const m = JSON.parse(e.data);
    window.diskref.events++;
    if (type === "setup") feed.setup = m;
    if (type === "table") feed.frame = m;
    if (type === "game") feed.game = m;
    if (type === "status") feed.status = m;
    if (type === "ruling") { feed.rulings.set(m.entry, m); fresh.push(m); }
    changed();
  });

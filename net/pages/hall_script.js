// diskref's hall page's code (served as /hall.js: the page's CSP allows no inline script).
"use strict";
// The hall: the broker and the tables' names and whether each is online ("hall" messages), and
// each table's latest state or why it cannot be shown ("hall_table", one table at a time). Only
// the card of the table that changed is drawn again. Whatever a table's state holds (anyone who
// can publish to the broker can send anything), drawing it may fail: that card then says so,
// and the other cards are untouched.
// For tests: what the page shows; `hold` keeps it still (a screenshot and the places on it agree).
window.diskref = { events: 0, tables: 0, broker: "", hold: false, failed: 0 };
const tables = new Map();  // name -> { online, received_ms, state, error }
let broker = "connecting", dirtyNames = new Set(), dirtyHall = false, scheduled = false;

function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
function num(v) { return typeof v === "number" && isFinite(v) ? v : NaN; }
function str(v) { return typeof v === "string" || typeof v === "number" ? String(v) : ""; }

function tableOf(name) {
  if (!tables.has(name)) tables.set(name, { online: false, received_ms: 0, state: null, error: "" });
  return tables.get(name);
}

function fillCard(card, t) {
  const s = isObject(t.state) ? t.state : {};
  const svg = svgEl("svg", { viewBox: "0 0 100 100" }, card);
  if (t.error) {
    html("div", "error", "cannot show this table: " + t.error, card);
    return;
  }
  drawTable(svg, isObject(s.setup) ? s.setup : null, isObject(s.frame) ? s.frame : null);
  const info = html("div", "", undefined, card);
  const g = s.game;
  if (isObject(g)) {
    const turn = isObject(g.turn) ? g.turn : {};
    html("div", "turn", `Turn ${str(turn.turn)} · ${str(turn.step)}${turn.phase ? " · phase " + str(turn.phase) : ""}`, info);
    if (turn.option) html("div", "muted", `${str(turn.option)} to act`, info);
    for (const ship of Array.isArray(g.ships) ? g.ships : []) {
      if (!isObject(ship)) continue;
      const line = html("div", "ship", `${str(ship.id)} (${str(ship.controller)}): shields ${str(ship.shields)}/${str(ship.max_shields)}, ` +
                                       `hull ${str(ship.hull)}/${str(ship.max_hull)}${ship.destroyed ? " — DESTROYED" : ""}`, info);
      line.dataset.ship = str(ship.id);
    }
  } else {
    html("div", "muted", "no game yet", info);
  }
  const r = isObject(s.last_ruling) ? s.last_ruling : null;
  const when = r ? num(r.t) : NaN;
  const ruling = html("div", "ruling", r ? `${isNaN(when) ? "?" : when.toFixed(1)} s: ${str(r.text)}` : "", card);
  ruling.dataset.entry = r && Number.isInteger(r.entry) ? r.entry : -1;
}

function makeCard(name) {
  const t = tableOf(name);
  const card = document.createElement("div");
  card.className = "card" + (t.online ? "" : " offline");
  card.dataset.table = name;
  const h = html("h2", "", name, card);
  html("span", "badge", t.online ? "live" : "offline", h);
  try {
    fillCard(card, t);
  } catch (e) {
    // What the state holds could not be drawn: this card says so, the others are untouched.
    window.diskref.failed++;
    card.replaceChildren(h);
    html("div", "error", "cannot show this table: its state is not one this page can draw (" + str(e && e.message) + ")", card);
    card.classList.add("broken");
  }
  return card;
}

function cardOf(name) {
  for (const c of document.getElementById("tables").children) if (c.dataset.table === name) return c;
  return null;
}

function render() {
  scheduled = false;
  if (window.diskref.hold) { setTimeout(changed, 50); return; }
  const box = document.getElementById("tables");
  if (dirtyHall) {
    const b = document.getElementById("broker");
    b.textContent = broker === "lost" ? "broker lost: reconnecting; the states below are the last received" : "broker " + broker;
    b.className = broker === "lost" ? "lost" : "";
    window.diskref.broker = broker;
    document.getElementById("count").textContent = `${tables.size} table(s)`;
    // Cards in name order; a card whose table's online changed is drawn again.
    const names = [...tables.keys()].sort();
    names.forEach((name, i) => {
      let card = cardOf(name);
      const online = tables.get(name).online;
      if (!card || card.classList.contains("offline") === online) dirtyNames.add(name);
      if (!card) { card = document.createElement("div"); card.dataset.table = name; }
      if (box.children[i] !== card) box.insertBefore(card, box.children[i] || null);
    });
    dirtyHall = false;
  }
  for (const name of dirtyNames) {
    const old = cardOf(name);
    if (old) old.replaceWith(makeCard(name));
  }
  dirtyNames.clear();
  window.diskref.tables = tables.size;
}
function changed() { if (!scheduled) { scheduled = true; requestAnimationFrame(render); } }

function takeHall(m) {
  if (!isObject(m)) return;
  broker = str(m.broker);
  for (const t of Array.isArray(m.tables) ? m.tables : [])
    if (isObject(t) && typeof t.name === "string") tableOf(t.name).online = t.online === true;
  dirtyHall = true;
}
function takeTable(m) {
  if (!isObject(m) || typeof m.name !== "string") return;
  const t = tableOf(m.name);
  t.state = m.state;
  t.error = str(m.error);
  t.received_ms = num(m.received_ms);
  dirtyNames.add(m.name);
  dirtyHall = true;
}
// A message that is not JSON is dropped (it cannot come from diskref); the page goes on.
function parsed(e) { try { return JSON.parse(e.data); } catch (err) { return null; } }

const source = new EventSource("/feed/v1/events");
source.addEventListener("snapshot", e => {
  const m = parsed(e);
  window.diskref.events++;
  if (!isObject(m)) return;
  takeHall(m.hall);
  for (const t of Array.isArray(m.hall_tables) ? m.hall_tables : []) takeTable(t);
  changed();
});
source.addEventListener("hall", e => { takeHall(parsed(e)); window.diskref.events++; changed(); });
source.addEventListener("hall_table", e => { takeTable(parsed(e)); window.diskref.events++; changed(); });

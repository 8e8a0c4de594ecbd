// diskref's photo page's code (served as /photo.js: the page's CSP allows no inline script).
// Asks /photo/v1/disks for the registry's disks and the upload limit, builds one spec §6
// question from the choices, posts the photo as the request's body (its raw bytes: what fetch()
// sends for a File) and shows the answer: the call in letters, the margin ± sigma, the notes, and
// the photo with the measure drawn on it.
"use strict";
// For tests: what the page is doing and what it was told.
window.diskref = { disks: null, state: "loading", answer: null, error: null };
const $ = id => document.getElementById(id);
let maxUploadBytes = Infinity, pictureUrl = null, lastFile = null;

function kind() { return document.querySelector("input[name=kind]:checked").value; }

function say(text, refused) {
  $("status").textContent = text;
  $("status").className = refused ? "refused" : "";
}

function mib(bytes) { return (bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0) + " MiB"; }

function showKind() {
  const k = kind();
  $("label-a").textContent = k === "range" ? "From" : k === "overlap" ? "Disk" : "Disk";
  $("label-b").textContent = k === "range" ? "To" : "And";
  $("row-b").hidden = k === "move";
  $("row-flips").hidden = k !== "move";
  $("row-template").hidden = k !== "range";
}

// The question as spec §6 writes it (the id is the page's own).
function question() {
  const a = $("disk-a").value, b = $("disk-b").value, k = kind();
  if (k === "range")
    return { id: "phone", range: { from: a, to: b, template: {
      length_mm: Number($("template-length").value), width_mm: Number($("template-width").value) } } };
  if (k === "overlap") return { id: "phone", overlap: { a, b } };
  return { id: "phone", move: { disk: a, flips: Number($("flips").value) } };
}

function fill(select, disks, chosen) {
  select.replaceChildren();
  for (const d of disks) {
    const o = document.createElement("option");
    o.value = d.name;
    o.textContent = d.kind === "ship" ? d.name : `${d.name} (${d.kind})`;
    select.appendChild(o);
  }
  if (disks.length > chosen) select.selectedIndex = chosen;
}

async function loadDisks() {
  try {
    const r = await fetch("/photo/v1/disks", { credentials: "same-origin" });
    const j = await r.json();
    if (!r.ok) throw new Error(j.why || r.statusText);
    maxUploadBytes = j.max_upload_bytes || Infinity;
    window.diskref.disks = j.disks;
    fill($("disk-a"), j.disks, 0);
    fill($("disk-b"), j.disks, 1);
    window.diskref.state = "ready";
  } catch (e) {
    window.diskref.state = "refused";
    window.diskref.error = String(e.message || e);
    say("The disks could not be read: " + window.diskref.error +
        ". Open the address diskref printed (with its ?token=...).", true);
  }
}

function number(v) { return typeof v === "number" ? (Math.round(v * 10) / 10).toFixed(1) : "?"; }

// The call in letters, by the question's kind (spec §14's "call": yes, no, too close to call, or
// cannot tell when a disk it names is not in the photo; for a move, yes is touching a torpedo or
// ending on a disk).
function callText(k, a) {
  if (a.call === "too close to call") return ["TOO CLOSE TO CALL", "close"];
  if (a.call === "cannot tell")
    return ["CANNOT TELL", "close", a.unseen && a.unseen.length ? `not in the photo: ${a.unseen.join(", ")}` : ""];
  if (k === "range") return a.call === "yes" ? ["IN RANGE", "yes"] : ["OUT OF RANGE", "no"];
  if (k === "overlap") return a.call === "yes" ? ["OVERLAP", "no"] : ["NO OVERLAP", "yes"];
  if (a.end_overlaps && a.end_overlaps.length) return ["ENDS ON " + a.end_overlaps.join(", ").toUpperCase(), "no"];
  if (a.torpedo_contacts && a.torpedo_contacts.length) return ["TOUCHES A TORPEDO", "no"];
  return ["ENDS CLEAR", "yes"];
}

function showAnswer(k, reply) {
  const ruling = reply.ruling, a = (ruling.answers || [])[0] || {};
  const [text, tone, why] = callText(k, a);
  $("call").textContent = text;
  $("call").className = tone;
  // The band the call was made on (spec §14: ± call_sigmas sigma), as the screen shows it.
  const sigmas = ruling.call_sigmas || 1;
  const sigma = a.sigma_mm !== undefined ? ` ± ${number(sigmas * a.sigma_mm)} mm (${sigmas}σ)` : "";
  $("margin").textContent = why ||
    (k === "range" ? `margin ${number(a.margin_mm)} mm${sigma}` :
     k === "overlap" ? `separation ${number(a.separation_mm)} mm${sigma}` :
     `closest ${number(a.decisive_margin_mm)} mm${sigma}`);
  const notes = $("notes");
  notes.replaceChildren();
  for (const n of ruling.notes || []) {
    const li = document.createElement("li");
    li.textContent = n;
    notes.appendChild(li);
  }
  if (pictureUrl) URL.revokeObjectURL(pictureUrl);
  pictureUrl = null;
  if (reply.picture) {
    const bytes = Uint8Array.from(atob(reply.picture), c => c.charCodeAt(0));
    pictureUrl = URL.createObjectURL(new Blob([bytes], { type: reply.picture_type || "image/jpeg" }));
  }
  $("picture").hidden = !pictureUrl;
  if (pictureUrl) $("picture").src = pictureUrl;
  $("numbers").textContent = JSON.stringify(ruling, null, 1);
  $("answer").hidden = false;
}

async function send(file) {
  if (!file) return;
  lastFile = file;
  $("again").disabled = false;
  $("answer").hidden = true;
  if (file.size > maxUploadBytes) {
    window.diskref.state = "refused";
    window.diskref.error = `the photo is ${mib(file.size)}, more than the ${mib(maxUploadBytes)} diskref takes`;
    say("Refused: " + window.diskref.error + ".", true);
    return;
  }
  const k = kind();
  window.diskref.state = "sending";
  say(`Sending the photo (${mib(file.size)}) and measuring…`);
  try {
    const r = await fetch("/photo/v1/ruling?question=" + encodeURIComponent(JSON.stringify(question())), {
      method: "POST", body: file, credentials: "same-origin",
      headers: { "Content-Type": file.type || "application/octet-stream" } });
    const reply = await r.json();
    if (!r.ok) throw new Error(reply.why || `${r.status} ${r.statusText}`);
    window.diskref.answer = reply;
    window.diskref.state = "answered";
    showAnswer(k, reply);
    say("Measured from the photo" + (reply.ruling.photo && reply.ruling.photo.source ? ` (${reply.ruling.photo.source}).` : "."));
    // A phone shows the call and the picture, not the form it filled (again once the picture has
    // its height).
    $("answer").scrollIntoView({ block: "start" });
    $("picture").onload = () => $("answer").scrollIntoView({ block: "start" });
  } catch (e) {
    window.diskref.state = "refused";
    // fetch() itself failed: the server closed the connection (it refuses an upload at its head,
    // and may close before the phone has sent it all) or the network is gone.
    window.diskref.error = e instanceof TypeError ? "the upload was cut off (" + e.message +
      "): is the phone still on the table's network?" : String(e.message || e);
    say("Refused: " + window.diskref.error, true);
  }
}

for (const r of document.querySelectorAll("input[name=kind]")) r.addEventListener("change", showKind);
$("photo").addEventListener("change", () => send($("photo").files[0]));
$("ask").addEventListener("submit", e => { e.preventDefault(); send(lastFile); });
showKind();
loadDisks();

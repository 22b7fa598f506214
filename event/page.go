package event

// postJS is the script both the arbiter's page and the desk use to change
// the event: $, the token asked once and kept in the browser, and post,
// which shows the answer (each board's set, when the answer lists them) in
// #msg and refreshes the page's view.
const postJS = `"use strict";
const $ = (s) => document.querySelector(s);
function token() {
  let t = localStorage.getItem("eventToken");
  if (!t) { t = prompt("The event's token") || ""; localStorage.setItem("eventToken", t); }
  return t;
}
async function post(path, body) {
  const r = await fetch("/api/event/" + path, {method: "POST", headers: {"Authorization": "Bearer " + token(), "Content-Type": "application/json"}, body: JSON.stringify(body || {})});
  const j = await r.json().catch(() => ({}));
  if (r.status === 401) localStorage.removeItem("eventToken");
  $("#msg").textContent = r.ok ? "Done." : (j.error || r.statusText);
  if (r.ok && j.boards && j.boards.length) $("#msg").textContent = j.boards.map(b => "board " + b.board + " (" + (b.set || "waits") + "): " + (b.ok ? (b.table ? "on a table" : "sent") : b.waiting ? "waits for a board" : b.error)).join("; ");
  refresh();
  return r.ok ? j : null;
}
`

// arbiterPage is the arbiter's page: every board's status, clock and result,
// the standings, and the arbiter's actions (pair, start, results, clocks,
// replay). It polls /api/event; actions POST with the token it asks for once
// and keeps in the browser. Large type: it is read from across a hall.
const arbiterPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Event</title>
<style>
body{font:1.25rem system-ui,sans-serif;margin:0;padding:1rem;background:#111;color:#eee}
h1{margin:.2em 0;font-size:2rem} h2{font-size:1.4rem;margin:1em 0 .3em}
table{border-collapse:collapse;width:100%} th,td{padding:.35em .5em;border-bottom:1px solid #333;text-align:left}
.off{color:#f88} .ok{color:#8f8} button,select,input{font:inherit;padding:.2em .6em;margin:.1em}
#msg{min-height:1.5em;color:#fc6} a{color:#9cf} .grid{display:flex;flex-wrap:wrap;gap:2rem} .grid>section{flex:1 1 28rem}
</style></head><body>
<h1 id="title">Event</h1>
<div><button id="pair">Pair next round</button> <button id="start">Start round</button>
<button id="pause">Pause every clock</button> <button id="resume">Resume every clock</button> <button id="byhand">Pair by hand</button> <button id="addset">Add a set</button> <button id="rmset">Remove a set</button>
<a href="crosstable.html">Crosstable</a> · <a href="tournament.trf">TRF</a> · <a href="desk">Desk</a> · <a href="print/pairings">Print pairings</a> · <a href="print/standings">Print standings</a></div>
<div id="msg" role="status" aria-live="polite"></div>
<div id="journal" class="off"></div>
<div class="grid">
<section><h2 id="roundTitle">Round</h2><table id="games"><thead><tr><th>Board</th><th>White</th><th>Black</th><th>Set</th><th>Status</th><th>Result</th><th></th></tr></thead><tbody></tbody></table></section>
<section><h2>Standings</h2><table id="standings"><thead></thead><tbody></tbody></table></section>
</div>
<script>
` + postJS + `let ev = null;
function name(no) { const p = ev.players.find(p => p.no === no); return p ? p.name : "bye"; }
function setOf(id) { return (ev.sets || []).find(s => s.set === id) || {}; }
function render() {
  $("#title").textContent = ev.name;
  $("#journal").textContent = (ev.journal_damage || []).map(d => "The journal was damaged: record " + d.record + " (" + d.what + ") was cut out, " +
    d.bytes + " bytes; the damaged file is kept as " + d.aside.split("/").pop() + ((d.skipped || []).length ? "; no longer applying: " + d.skipped.join("; ") : "")).join(" ");
  const rd = ev.paired && ev.paired[ev.paired.length - 1];
  $("#roundTitle").textContent = rd ? "Round " + rd.no + " of " + ev.rounds + (rd.started ? "" : " (paired, not started)") : "No round paired yet";
  const tb = $("#games tbody"); tb.textContent = "";
  for (const g of (rd ? rd.games : [])) {
    const tr = document.createElement("tr");
    const s = setOf(g.set);
    const table = (ev.tables || []).includes(g.set);
    const status = g.black === 0 ? "" : !g.set ? (rd.started && !g.result ? "waits for a board" : "") : table ? "table: enter the result" :
      !s.online ? "offline" : s.plays_pairing ? (s.sensors === "mismatch" ? "pieces out of place" : "playing") + " · " + s.moves + " plies" : "not on its game";
    for (const v of [g.board, name(g.white), g.black ? name(g.black) : "bye", g.set || "", status, (g.result || "*") + (g.reason ? " (" + g.reason + ")" : "")]) {
      const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
    }
    if (status === "offline" || status === "not on its game" || status.startsWith("pieces")) tr.children[4].className = "off";
    const td = document.createElement("td");
    if (g.black !== 0 && !rd.started) {
      const sw = document.createElement("button"); sw.textContent = "Swap colours";
      sw.onclick = () => { const why = prompt("Why swap the colours of board " + g.board + "? (journaled)"); if (why) post("rounds/" + rd.no + "/swap", {board: g.board, reason: why}); };
      td.append(sw);
    }
    if (g.black !== 0 && rd.started) {
      const sel = document.createElement("select");
      sel.setAttribute("aria-label", "result of board " + g.board);
      for (const o of ["", "1-0", "0-1", "1/2-1/2", "+-", "-+", "--"]) { const op = document.createElement("option"); op.value = o; op.textContent = o || "result…"; sel.appendChild(op); }
      sel.onchange = () => { const why = prompt("Reason (journaled)"); if (why) post("results", {round: rd.no, board: g.board, result: sel.value, reason: why}); };
      const rp = document.createElement("button"); rp.textContent = "Replay";
      rp.onclick = () => { const set = prompt("Replay on set", g.set); if (set) post("rounds/" + rd.no + "/boards/" + g.board + "/replay", {set, reason: "replayed"}); };
      td.append(sel, rp);
      if (!g.result) {
        const mv = document.createElement("button"); mv.textContent = "Move";
        mv.onclick = () => { const to = prompt("Move the game to set or table (empty: wait)", ""); if (to !== null) post("rounds/" + rd.no + "/boards/" + g.board + "/assign", {to, reason: "moved by the arbiter"}); };
        td.append(mv);
      }
    }
    tr.appendChild(td); tb.appendChild(tr);
  }
  const sh = $("#standings thead"); sh.textContent = "";
  const hr = document.createElement("tr");
  for (const h of ["#", "Player", "Points", ...ev.tiebreaks]) { const th = document.createElement("th"); th.textContent = h; hr.appendChild(th); }
  sh.appendChild(hr);
  const sb = $("#standings tbody"); sb.textContent = "";
  for (const s of ev.standings) {
    const tr = document.createElement("tr");
    for (const v of [s.rank, s.player.name, s.points, ...s.tiebreaks]) { const td = document.createElement("td"); td.textContent = v; tr.appendChild(td); }
    sb.appendChild(tr);
  }
}
async function refresh() {
  try { ev = await (await fetch("/api/event")).json(); render(); } catch (e) { $("#msg").textContent = "The event does not answer: " + e; }
}
$("#pair").onclick = () => post("rounds/" + ((ev.paired || []).length + 1) + "/pair");
$("#start").onclick = () => post("rounds/" + (ev.paired || []).length + "/start");
// Pairings by hand: "1-4, 2-3, 5 bye, 6 half, 7 zero" (pairing numbers,
// White first), for the round paired last (not started) or the next one.
$("#byhand").onclick = () => {
  const rd = ev.paired && ev.paired[ev.paired.length - 1];
  const n = rd && !rd.started ? rd.no : (ev.paired || []).length + 1;
  const text = prompt("Round " + n + " by hand: white-black, ... ('5 bye', '6 half', '7 zero' for byes)");
  if (!text) return;
  const games = [];
  for (const part of text.split(/[,\n]+/).map(x => x.trim()).filter(x => x)) {
    let m = part.match(/^(\d+)\s*-\s*(\d+)$/);
    if (m) { games.push({white: +m[1], black: +m[2]}); continue; }
    m = part.match(/^(\d+)\s+(bye|half|zero)$/);
    if (m) { games.push({white: +m[1], black: 0, result: {bye: "bye", half: "bye-1/2", zero: "bye-0"}[m[2]]}); continue; }
    $("#msg").textContent = "Not a pairing: " + part; return;
  }
  const why = prompt("Why by hand? (journaled; start with 'override:' to pair two who met)");
  if (why) post("rounds/" + n + "/pairings", {games, reason: why});
};
$("#addset").onclick = () => { const id = prompt("The new set's board id"); if (id) post("sets", {set: id, reason: "added by the arbiter"}); };
$("#rmset").onclick = () => { const id = prompt("The board id of the set to take out"); if (id) post("sets/" + encodeURIComponent(id) + "/remove", {reason: "removed by the arbiter"}); };
$("#pause").onclick = () => post("clock", {action: "pause"});
$("#resume").onclick = () => post("clock", {action: "resume"});
refresh(); setInterval(refresh, 2000);
</script></body></html>`

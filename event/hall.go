package event

// hallPage is the event for the hall's screens: the round's pairings with
// each board's result and the standings, in type large enough to read
// across the room, refreshed every few seconds. It changes nothing.
const hallPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Standings</title>
<style>
html{font-size:clamp(16px,1.6vw,40px)}
body{font-family:system-ui,sans-serif;margin:0;padding:1.5rem;background:#000;color:#fff}
h1{font-size:2.4rem;margin:0 0 .5rem} h2{font-size:1.6rem;margin:.6rem 0}
.cols{display:flex;gap:3rem;flex-wrap:wrap} .cols>section{flex:1 1 30rem}
table{border-collapse:collapse;width:100%;font-size:1.3rem} td,th{padding:.25em .5em;border-bottom:1px solid #333;text-align:left}
td.num,th.num{text-align:right} .res{font-weight:bold;color:#ffd54a}
</style></head><body>
<h1 id="title"></h1>
<div class="cols">
<section><h2 id="round"></h2><table id="pairings" aria-label="pairings"><tbody></tbody></table></section>
<section><h2>Standings</h2><table id="standings" aria-label="standings"><thead></thead><tbody></tbody></table></section>
</div>
<script>
"use strict";
const $ = (s) => document.querySelector(s);
function cell(tr, v, cls) { const td = document.createElement("td"); td.textContent = v; if (cls) td.className = cls; tr.appendChild(td); }
async function refresh() {
  let ev;
  try { ev = await (await fetch("/api/event")).json(); } catch (e) { return; }
  document.title = ev.name + ": standings";
  $("#title").textContent = ev.name;
  const rd = ev.paired && ev.paired[ev.paired.length - 1];
  $("#round").textContent = rd ? "Round " + rd.no + " of " + ev.rounds : "Pairings to come";
  const name = (no) => { const p = ev.players.find(p => p.no === no); return p ? p.name : ""; };
  const pb = $("#pairings tbody"); pb.textContent = "";
  for (const g of rd ? rd.games : []) {
    const tr = document.createElement("tr");
    cell(tr, g.board, "num"); cell(tr, name(g.white));
    cell(tr, g.black ? (g.result || "–") : "bye", "res"); cell(tr, g.black ? name(g.black) : "");
    pb.appendChild(tr);
  }
  const sh = $("#standings thead"); sh.textContent = "";
  const hr = document.createElement("tr");
  for (const h of ["#", "Player", "Pts", ...ev.tiebreaks]) { const th = document.createElement("th"); th.textContent = h; if (h !== "Player") th.className = "num"; hr.appendChild(th); }
  sh.appendChild(hr);
  const sb = $("#standings tbody"); sb.textContent = "";
  for (const s of ev.standings) {
    const tr = document.createElement("tr");
    cell(tr, s.rank, "num"); cell(tr, (s.player.title ? s.player.title + " " : "") + s.player.name);
    cell(tr, s.points, "num"); for (const v of s.tiebreaks) cell(tr, v, "num");
    sb.appendChild(tr);
  }
}
refresh(); setInterval(refresh, 3000);
</script></body></html>`

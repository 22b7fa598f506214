package event

// hallPage is the event for the hall's screens. It pages by itself, a
// screen every 8 seconds: the round's pairings with each board's result,
// the standings, and on the exhibition days the free sets, the games in
// progress and the leaderboard. Each screen holds as many rows as fit the
// screen at a size read from across a hall (a row is a 14th of its height,
// at least 40 px), so nothing is cut off and nothing scrolls. It changes
// nothing.
const hallPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Standings</title>
<style>
html,body{margin:0;height:100%;overflow:hidden;background:#000;color:#fff;font-family:system-ui,sans-serif}
#screen{box-sizing:border-box;height:100vh;padding:2vh 3vw;display:flex;flex-direction:column}
header{display:flex;justify-content:space-between;align-items:baseline;font-size:var(--head)}
h1{font-size:1em;margin:0} #what{color:#ffd54a} #page{color:#999;font-size:.6em}
table{border-collapse:collapse;width:100%;font-size:var(--font);margin-top:1vh} td,th{padding:0 .4em;height:var(--row);border-bottom:1px solid #333;text-align:left;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:40vw}
th{color:#aaa;font-weight:normal} td.num,th.num{text-align:right} .res{font-weight:bold;color:#ffd54a;text-align:center}
</style></head><body>
<div id="screen"><header><h1 id="title"></h1><div><span id="what"></span> <span id="page"></span></div></header>
<table id="table" aria-live="polite"><thead></thead><tbody></tbody></table></div>
<script>
"use strict";
const $ = (s) => document.querySelector(s);
let screens = [], at = 0, ev = null, ex = null;
function rowsPerScreen() {
  const row = Math.max(40, Math.floor(innerHeight / 14));
  document.documentElement.style.setProperty("--row", row + "px");
  document.documentElement.style.setProperty("--font", Math.floor(row * 0.6) + "px");
  document.documentElement.style.setProperty("--head", Math.floor(row * 0.8) + "px");
  const free = innerHeight * 0.96 - row * 1.3 - row; // header, table head
  return Math.max(1, Math.floor(free / row));
}
function build() {
  const n = rowsPerScreen(), out = [];
  const name = (no) => { const p = ev.players.find(p => p.no === no); return p ? p.name : ""; };
  const rd = ev.paired && ev.paired[ev.paired.length - 1];
  const chunk = (title, head, num, rows) => {
    if (!rows.length) return;
    const k = Math.ceil(rows.length / n);
    for (let i = 0; i < k; i++) out.push({title, head, num, rows: rows.slice(i * n, (i + 1) * n), page: k > 1 ? (i + 1) + "/" + k : ""});
  };
  if (rd) {
    const rows = [];
    for (const g of rd.games) {
      if (g.black === 0) rows.push([g.board, name(g.white), g.result === "bye-1/2" ? "½ bye" : g.result === "bye-0" ? "absent" : "bye", "", ""]);
      else rows.push([g.board, name(g.white), g.result ? g.result.replace("1/2-1/2", "½-½") : (rd.started && !g.set ? "waits" : "–"), name(g.black), g.set || ""]);
    }
    chunk("Round " + rd.no + " of " + ev.rounds, ["Bd", "White", "", "Black", "Set"], [true, false, false, false, false], rows);
  }
  if (ev.paired && ev.paired.length) chunk("Standings", ["#", "Player", "Pts", ...ev.tiebreaks], [true, false, true, ...ev.tiebreaks.map(() => true)],
    ev.standings.map(s => [s.rank, (s.player.title ? s.player.title + " " : "") + s.player.name, s.points, ...s.tiebreaks]));
  const roundOn = rd && rd.started && !rd.games.every(g => g.result);
  if (ex && !roundOn && (ex.games.length || ex.playing.length || ex.free_sets.length)) {
    const rows = ex.playing.map(g => [g.set, g.white, g.black, g.moves]);
    for (const s of ex.free_sets) rows.push([s, "free: sit down and play", "", ""]);
    chunk("Exhibition", ["Set", "White", "Black", "Plies"], [false, false, false, true], rows);
    chunk("Exhibition leaderboard", ["#", "Player", "Rating", "Games"], [true, false, true, true], ex.leaderboard.map(l => [l.rank, l.name, Math.round(l.rating), l.games]));
  }
  if (!out.length) out.push({title: "Welcome", head: [], num: [], rows: [["Pairings to come"]], page: ""});
  screens = out;
}
function show() {
  if (!screens.length) return;
  at %= screens.length;
  const s = screens[at];
  $("#what").textContent = s.title; $("#page").textContent = s.page;
  const th = $("#table thead"); th.textContent = "";
  const hr = document.createElement("tr");
  s.head.forEach((h, i) => { const c = document.createElement("th"); c.textContent = h; if (s.num[i]) c.className = "num"; hr.appendChild(c); });
  th.appendChild(hr);
  const tb = $("#table tbody"); tb.textContent = "";
  for (const r of s.rows) {
    const tr = document.createElement("tr");
    r.forEach((v, i) => { const c = document.createElement("td"); c.textContent = v; if (s.num[i]) c.className = "num"; if (s.head[i] === "" && i === 2) c.className = "res"; tr.appendChild(c); });
    tb.appendChild(tr);
  }
}
async function refresh() {
  try { ev = await (await fetch("/api/event")).json(); } catch (e) { return; }
  try { ex = await (await fetch("/api/event/exhibition")).json(); } catch (e) { ex = null; }
  document.title = ev.name + ": standings";
  $("#title").textContent = ev.name;
  build(); show();
}
function next() { at++; show(); }
addEventListener("resize", () => { if (ev) { build(); show(); } });
refresh(); setInterval(refresh, 4000); setInterval(next, 8000);
</script></body></html>`

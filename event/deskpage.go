package event

// deskPage is the organiser's desk: register players (name, festival id,
// rating, category), check them in for the next round, byes asked for,
// withdrawals, the tournament's settings and prizes, the exhibition's free
// sets, games in progress and leaderboard, starting an exhibition game at a
// set, and the sets' keys (compare a set's fingerprint with its page, enrol,
// re-enrol, forget; add a set with its key). It polls /api/event/desk; changes POST with the token it asks
// for once.
const deskPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Desk</title>
<style>
body{font:1.15rem system-ui,sans-serif;margin:0;padding:1rem;background:#111;color:#eee}
h1{margin:.2em 0;font-size:1.8rem} h2{font-size:1.3rem;margin:1em 0 .3em}
table{border-collapse:collapse;width:100%} th,td{padding:.3em .45em;border-bottom:1px solid #333;text-align:left}
button,select,input{font:inherit;padding:.2em .5em;margin:.1em} input{width:9em;background:#222;color:#eee;border:1px solid #555}
#msg{min-height:1.5em;color:#fc6} a{color:#9cf} .grid{display:flex;flex-wrap:wrap;gap:2rem} .grid>section{flex:1 1 30rem}
.free{color:#8f8} .warn{color:#f88} .fp{font-family:ui-monospace,monospace;white-space:nowrap}
</style></head><body>
<h1 id="title">Desk</h1>
<div id="msg" role="status" aria-live="polite"></div>
<div id="journal" class="warn"></div>
<div class="grid">
<section>
<h2>Register a player</h2>
<form id="reg"><input name="name" placeholder="Name" aria-label="name" required> <input name="festival_id" placeholder="Festival ID" aria-label="festival id">
<input name="rating" placeholder="Rating" aria-label="rating" inputmode="numeric"> <input name="category" placeholder="Category" aria-label="category">
<button>Register</button></form>
<h2 id="playersTitle">Players</h2>
<table id="players"><thead><tr><th>No</th><th>Name</th><th>ID</th><th>Rating</th><th>Category</th><th>Checked in</th><th>Bye</th><th></th></tr></thead><tbody></tbody></table>
</section>
<section>
<h2>Exhibition</h2>
<p>Free sets: <span id="free"></span></p>
<p>Round's games waiting for a board: <span id="waiting"></span></p>
<form id="ex"><select name="set" aria-label="set"></select> <input name="white" placeholder="White (ID)" aria-label="white">
<input name="black" placeholder="Black (ID)" aria-label="black"> <select name="engine" aria-label="engine"><option value="0">no engine</option><option value="1">engine 1 as Black</option><option value="3">engine 3 as Black</option><option value="5">engine 5 as Black</option></select>
<input name="remote" placeholder="Black at set (remote)" aria-label="black plays at set">
<button>Start the game</button></form>
<table id="playing"><thead><tr><th>Set</th><th>White</th><th>Black</th><th>Plies</th></tr></thead><tbody></tbody></table>
<h2>Leaderboard (<span id="exgames">0</span> games)</h2>
<table id="leaders"><thead><tr><th>#</th><th>Name</th><th>Rating</th><th>RD</th><th>Games</th><th>W-D-L</th></tr></thead><tbody></tbody></table>
<p><button id="seed">Seed the tournament by these ratings</button></p>
<h2>Sets and their keys</h2>
<p>Enrol a set once its page (or <code>tridboard doctor</code> on it) shows the same fingerprint as here: type that fingerprint and press Enrol.</p>
<table id="keys"><thead><tr><th>Set</th><th>Announces</th><th>Trusted</th><th>Status</th><th></th></tr></thead><tbody></tbody></table>
<form id="addset"><input name="set" placeholder="Set id" aria-label="new set"> <input name="fingerprint" placeholder="Fingerprint (its page)" aria-label="new set's fingerprint"> <button>Add the set</button></form>
<h2>Tournament settings</h2>
<form id="settings"><select name="system" aria-label="system"><option value="">system…</option><option>swiss</option><option>round-robin</option></select>
<input name="rounds" placeholder="Rounds" aria-label="rounds" inputmode="numeric"> <input name="time_control" placeholder="Time control" aria-label="time control">
<input name="tiebreaks" placeholder="Tie-breaks: BH-C1, BH, DE" aria-label="tie-breaks">
<label><input type="checkbox" name="check_in" style="width:auto"> pair only players checked in</label>
<br><input name="prizes" placeholder="Prizes: 1=Trophy, 2=Book, newcomer 1=Medal" aria-label="prizes" style="width:95%"> <button>Save</button></form>
<p>Print: <a href="print/pairings">pairings</a> · <a href="print/pairings-alpha">by name</a> · <a href="print/cards">pairing cards</a> · <a href="print/standings">standings</a> · <a href="print/crosstable">crosstable</a> · <a href="print/prizes">prizes</a> · <a href="print/exhibition">leaderboard</a> · <a href="./">arbiter</a> · <a href="hall">hall screen</a></p>
</section>
</div>
<script>
` + postJS + `let dv = null, lastKeys = "";
function td(tr, v) { const c = document.createElement("td"); if (v instanceof Node) c.append(v); else c.textContent = v; tr.appendChild(c); return c; }
function btn(text, f) { const b = document.createElement("button"); b.type = "button"; b.textContent = text; b.onclick = f; return b; }
function render() {
  $("#playersTitle").textContent = "Players (" + dv.players.length + ")" + (dv.next_round <= dv.rounds ? ", round " + dv.next_round + (dv.check_in ? ": check-in required" : "") : ": every round is paired");
  $("#journal").textContent = (dv.messages || []).join(" ");
  const tb = $("#players tbody"); tb.textContent = "";
  for (const p of dv.players) {
    const tr = document.createElement("tr");
    td(tr, p.no); td(tr, p.name + (p.withdrawn ? " (withdrawn)" : "")); td(tr, p.festival_id || ""); td(tr, p.rating || ""); td(tr, p.category || "");
    const ck = document.createElement("input"); ck.type = "checkbox"; ck.style.width = "auto"; ck.checked = p.checked_in; ck.disabled = p.withdrawn;
    ck.setAttribute("aria-label", "check in " + p.name);
    ck.onchange = () => post("desk/players/" + p.no + "/checkin", {round: dv.next_round, in: ck.checked});
    td(tr, ck);
    const by = document.createElement("select"); by.setAttribute("aria-label", "bye for " + p.name);
    for (const [v, t] of [["none", "—"], ["half", "½ bye"], ["zero", "0 bye"]]) { const o = document.createElement("option"); o.value = v; o.textContent = t; by.appendChild(o); }
    by.value = p.bye === "bye-1/2" ? "half" : p.bye === "bye-0" ? "zero" : "none"; by.disabled = p.withdrawn;
    by.onchange = () => post("desk/players/" + p.no + "/bye", {round: dv.next_round, bye: by.value, reason: "asked at the desk"});
    td(tr, by);
    td(tr, p.withdrawn ? "" : btn("Withdraw", () => { const why = prompt("Why does " + p.name + " withdraw? (journaled)"); if (why) post("players/" + p.no + "/withdraw", {reason: why}); }));
    tb.appendChild(tr);
  }
  $("#free").textContent = dv.free_sets.length ? dv.free_sets.join(", ") : "none";
  $("#waiting").textContent = dv.waiting.length ? "boards " + dv.waiting.join(", ") : "none";
  const sel = $("#ex select[name=set]"), cur = sel.value; sel.textContent = "";
  for (const s of dv.free_sets) { const o = document.createElement("option"); o.textContent = s; sel.appendChild(o); }
  if (dv.free_sets.includes(cur)) sel.value = cur;
  const pb = $("#playing tbody"); pb.textContent = "";
  for (const g of dv.exhibition_playing) { const tr = document.createElement("tr"); td(tr, g.set); td(tr, g.white); td(tr, g.black); td(tr, g.moves); pb.appendChild(tr); }
  // The keys' table is redrawn only when they change: a fingerprint being
  // typed stays where it is.
  const kb = $("#keys tbody"), typing = {};
  if (JSON.stringify(dv.keys) !== lastKeys) { lastKeys = JSON.stringify(dv.keys);
  for (const i of kb.querySelectorAll("input")) if (i.value) typing[i.dataset.set] = i.value;
  kb.textContent = "";
  const said = {"enrolled": "enrolled", "first use": "trusted at first use: compare and enrol", "announced": "not trusted: compare and enrol", "differs": "announces another key than the trusted one!", "none": "no key seen yet"};
  for (const k of dv.keys) {
    const tr = document.createElement("tr"); tr.dataset.set = k.set;
    td(tr, k.set); td(tr, k.announced_fingerprint || "—").className = "fp"; td(tr, k.trusted_fingerprint || "—").className = "fp";
    const st = td(tr, said[k.status] || k.status); st.className = "status" + (k.status === "differs" || k.status === "announced" ? " warn" : "");
    const fp = document.createElement("input"); fp.placeholder = "fingerprint"; fp.dataset.set = k.set; fp.value = typing[k.set] || ""; fp.setAttribute("aria-label", "fingerprint of " + k.set);
    const c = td(tr, fp);
    c.append(btn(k.trusted ? "Re-enrol" : "Enrol", async () => { if (await post("sets/" + encodeURIComponent(k.set) + "/key", {fingerprint: fp.value.trim(), reason: "compared at the desk"})) fp.value = ""; }));
    if (k.trusted) c.append(btn("Forget", () => { const why = prompt("Why forget " + k.set + "'s key? (journaled)"); if (why) post("sets/" + encodeURIComponent(k.set) + "/key/forget", {reason: why}); }));
    kb.appendChild(tr);
  } }
  $("#exgames").textContent = dv.exhibition_games;
  const lb = $("#leaders tbody"); lb.textContent = "";
  for (const l of dv.leaderboard) { const tr = document.createElement("tr"); td(tr, l.rank); td(tr, l.name); td(tr, Math.round(l.rating)); td(tr, Math.round(l.rd)); td(tr, l.games); td(tr, l.won + "-" + l.drawn + "-" + l.lost); lb.appendChild(tr); }
}
async function refresh() {
  try { dv = await (await fetch("/api/event/desk")).json(); render(); } catch (e) { $("#msg").textContent = "The event does not answer: " + e; }
  try { const ev = await (await fetch("/api/event")).json(); $("#title").textContent = ev.name + ": desk"; document.title = ev.name + ": desk"; } catch (e) {}
}
$("#reg").onsubmit = async (e) => {
  e.preventDefault(); const f = new FormData(e.target);
  const body = {name: f.get("name").trim(), festival_id: f.get("festival_id").trim(), category: f.get("category").trim()};
  if (f.get("rating").trim()) body.rating = parseInt(f.get("rating"), 10);
  if (await post("desk/players", body)) e.target.reset();
};
$("#ex").onsubmit = (e) => {
  e.preventDefault(); const f = new FormData(e.target); const engine = parseInt(f.get("engine"), 10);
  post("exhibition", {set: f.get("set"), white: f.get("white"), black: engine ? "" : f.get("black"), engine: engine, engine_side: "black", remote: f.get("remote").trim()});
};
$("#addset").onsubmit = async (e) => {
  e.preventDefault(); const f = new FormData(e.target);
  if (await post("sets", {set: f.get("set").trim(), fingerprint: f.get("fingerprint").trim(), reason: "added at the desk"})) e.target.reset();
};
$("#seed").onclick = () => post("desk/seed", {reason: "seeded by the exhibition's ratings"});
$("#settings").onsubmit = (e) => {
  e.preventDefault(); const f = new FormData(e.target); const s = {};
  if (f.get("system")) s.system = f.get("system");
  if (f.get("rounds").trim()) s.rounds = parseInt(f.get("rounds"), 10);
  if (f.get("time_control").trim()) s.time_control = f.get("time_control").trim();
  s.check_in = f.get("check_in") === "on";
  if (f.get("tiebreaks").trim()) s.tiebreaks = f.get("tiebreaks").split(",").map(x => x.trim().toUpperCase()).filter(x => x);
  if (f.get("prizes").trim()) s.prizes = f.get("prizes").split(",").map(x => { const m = x.trim().match(/^(?:(\S+)\s+)?(\d+)\s*=\s*(.+)$/); return m ? {category: m[1] || "", place: parseInt(m[2], 10), prize: m[3].trim()} : {place: 0, prize: x}; });
  post("desk/settings", s);
};
refresh(); setInterval(refresh, 2000);
</script></body></html>`

// walkupPage is a set's exhibition page, for the players who sit down at
// it (a phone, or the set's own screen): they give their festival ids and
// start a game; no token.
const walkupPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Play</title>
<style>
body{font:1.4rem system-ui,sans-serif;margin:0;padding:1rem;background:#111;color:#eee;max-width:40rem}
input,button{font:inherit;padding:.3em .6em;margin:.3em 0;width:100%;box-sizing:border-box} #msg{min-height:1.5em;color:#fc6}
</style></head><body>
<h1 id="title">Play</h1>
<p>Give your festival IDs (from your badge) and start.</p>
<form id="f"><label>White <input name="white" aria-label="white" autocomplete="off" required></label>
<label>Black <input name="black" aria-label="black" autocomplete="off" required></label><button>Start the game</button></form>
<div id="msg" role="status" aria-live="polite"></div>
<script>
"use strict";
const set = decodeURIComponent(location.pathname.split("/").pop());
document.querySelector("#title").textContent = "Play at " + set;
document.querySelector("#f").onsubmit = async (e) => {
  e.preventDefault(); const f = new FormData(e.target);
  const r = await fetch("/api/event/play/" + encodeURIComponent(set), {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({white: f.get("white"), black: f.get("black")})});
  const j = await r.json().catch(() => ({}));
  document.querySelector("#msg").textContent = r.ok ? j.white + " – " + j.black + ": the game has started. Good luck!" : (j.error || r.statusText);
};
</script></body></html>`

// One board's page: the game pushed over SSE (/boards/<id>/events), drawn
// flat and in 3D, the move list in the system's notation with stepping.
import {FlatBoard, layout, clockText, clockLeft, statusText} from '/static/flat.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const params = new URLSearchParams(location.search);
const overlay = params.get('overlay') === '1';
if (overlay) document.body.classList.add('overlay');
const $ = s => document.getElementById(s);

const st = {shown: {}, game: '', epoch: 0, seq: -1, status: null, start: {pieces: {}}, moves: [], view: null, flip: params.get('flip') === '1', offset: 0};
let flat = null, view3d = null, variant = '', want3d = params.get('flat') !== '1', dirty = false;
window.tridboard = st; // for tests and the curious

$('board-id').textContent = id;
$('pgnlink').href = `/boards/${encodeURIComponent(id)}/game.pgn`;

function schedule() { if (!dirty) { dirty = true; requestAnimationFrame(render); } }

async function setVariant(v) {
  variant = v;
  let lay;
  try { lay = await layout(v); } catch (e) {
    // The server went away meanwhile: try again with the next update.
    if (variant === v) variant = '';
    return;
  }
  if (variant !== v) return;
  $('flat').replaceChildren();
  flat = new FlatBoard($('flat'), lay);
  flat.setFlip(st.flip);
  if (view3d) { view3d.dispose(); view3d = null; }
  schedule();
  if (want3d) { await start3d(lay); schedule(); }
}

async function start3d(lay) {
  try {
    const m = await import('/static/view3d.js');
    if (view3d || !want3d) return;
    document.body.classList.add('has3d');
    view3d = new m.View3D($('view3d'), lay);
    view3d.setFlip(st.flip);
    document.body.classList.add('has3d');
  } catch (e) {
    console.warn('3D view:', e);
    $('view3d').querySelector('.nogl').hidden = false;
  }
}

function apply(v) {
  const full = v.full || v.game !== st.game || v.epoch !== st.epoch && !v.full;
  if (v.full) {
    st.moves = v.moves; st.start = v.start;
    if (st.view !== null && st.view > st.moves.length) st.view = null;
  } else {
    for (const m of v.moves) if (!st.moves.length || m.seq > st.moves[st.moves.length - 1].seq) st.moves.push(m);
  }
  st.game = v.game; st.epoch = v.epoch; st.seq = v.seq; st.status = v;
  if (v.now) st.offset = Date.parse(v.now) - Date.now();
  renderMoves(v.full || full);
  if (v.variant && v.variant !== variant) setVariant(v.variant);
  schedule();
}

let es = null, retry = 0;
function connect() {
  let url = `/boards/${encodeURIComponent(id)}/events`;
  if (st.seq >= 0) url += `?game=${encodeURIComponent(st.game)}&after=${st.seq}`;
  es = new EventSource(url);
  es.addEventListener('open', () => { retry = 0; setConn(true); });
  es.addEventListener('view', e => apply(JSON.parse(e.data)));
  es.addEventListener('error', () => {
    es.close(); setConn(false);
    setTimeout(connect, Math.min(5000, 500 * ++retry));
  });
}
function setConn(ok) {
  $('conn').textContent = ok ? 'live' : 'reconnecting';
  $('conn').classList.toggle('down', !ok);
}

// The move list: one row per move number, appended as moves come.
let listed = 0;
function renderMoves(rebuild) {
  const ol = $('moves');
  if (rebuild) { ol.replaceChildren(); listed = 0; }
  for (; listed < st.moves.length; listed++) {
    const m = st.moves[listed];
    let li = ol.lastElementChild;
    const black = m.num.endsWith('...');
    if (!black || !li || li.dataset.full) {
      li = document.createElement('li');
      const n = document.createElement('span'); n.className = 'num'; n.textContent = black ? m.num : m.num;
      li.appendChild(n);
      if (black) { const gap = document.createElement('span'); gap.className = 'move gap'; gap.textContent = '\u2026'; li.appendChild(gap); }
      ol.appendChild(li);
    }
    const s = document.createElement('span');
    s.className = 'move'; s.textContent = m.short; s.dataset.ply = m.ply; s.dataset.seq = m.seq; s.title = m.long;
    s.addEventListener('click', () => { st.view = m.ply === st.moves.length ? null : m.ply; schedule(); });
    li.appendChild(s);
    if (black) li.dataset.full = '1';
  }
}

function marks(ply) {
  const s = st.status || {};
  const m = ply > 0 ? st.moves[ply - 1] : null;
  const mk = {from: m && m.from, to: m && m.to, check: m ? m.check : s.check};
  if (st.view === null) Object.assign(mk, {check: s.check, lifted: s.lifted, targets: s.targets, captures: s.captures, pinTargets: s.pin_targets, fix: s.fix});
  return mk;
}

function render() {
  dirty = false;
  const s = st.status;
  if (!s) return;
  const ply = st.view === null ? st.moves.length : st.view;
  const pos = ply > 0 ? st.moves[ply - 1] : st.start;
  const mk = marks(ply);
  if (flat) flat.draw(pos, mk);
  const lastMove = st.moves[st.moves.length - 1];
  if (flat && lastMove && !st.shown[lastMove.seq]) st.shown[lastMove.seq] = performance.timeOrigin + performance.now();
  if (view3d) view3d.draw(pos, mk);
  document.querySelectorAll('#moves .move.current').forEach(e => e.classList.remove('current'));
  const cur = document.querySelector(`#moves .move[data-ply="${ply}"]`);
  if (cur) { cur.classList.add('current'); if (st.view === null) cur.scrollIntoView({block: 'nearest'}); }
  document.body.classList.toggle('stepping', st.view !== null);
  $('live').classList.toggle('on', st.view === null);
  const tags = s.tags || {};
  $('white-name').textContent = tags.White || 'White';
  $('black-name').textContent = tags.Black || 'Black';
  $('event-round').textContent = [tags.Event, tags.Round && 'round ' + tags.Round].filter(Boolean).join(', ');
  document.title = `${tags.White || 'White'} - ${tags.Black || 'Black'} (${id})`;
  const stx = s.online === false ? 'offline' : (statusText[s.board] || s.board) + (s.board === 'needs_choice' && s.choices ? ': ' + s.choices.join(' ') : '');
  $('status').textContent = stx;
  $('status').className = 'badge status-' + (s.online === false ? 'offline' : s.board);
  $('result').textContent = s.result !== '*' ? s.result + (s.termination ? ' (' + s.termination + ')' : '') : '';
  $('result').hidden = s.result === '*';
  $('turn').textContent = s.result !== '*' ? 'game over' : (s.turn === 'white' ? 'White' : 'Black') + ' to move' + (s.check ? ', check' : '');
  $('lesson').hidden = !s.lesson;
  if (s.lesson) $('lesson').textContent = lessonText(s.lesson);
  const fix = s.fix && s.fix.length || s.board === 'mismatch' || s.board === 'sensor_fault';
  $('fix').hidden = !fix;
  if (fix) $('fix').textContent = 'Fix ' + ((s.fix || []).join(', ') || 'the board') + ': ' + (s.fix_reason || s.fault || '') + (s.fix_hint ? ' \u2014 to do: ' + s.fix_hint : '');
  $('error').hidden = !s.error; $('error').textContent = s.error || '';
  const peer = s.peer && (!s.peer.online || s.peer.detail) ? s.peer.detail || `set ${s.peer.set} is offline` : '';
  $('peer').hidden = !peer; $('peer').textContent = peer;
  const ev = s.event;
  $('lastevent').textContent = ev ? `${ev.type}${ev.cells ? ' ' + ev.cells.join(' ') : ''}${ev.cell ? ' ' + ev.cell : ''}${ev.detail ? ': ' + ev.detail : ''}` : '';
  tickClocks();
}

// lessonText says what the set gives each side: "White: full assistance
// (hints 1/3) · Black: no assistance", and the teacher's lock.
function lessonText(l) {
  const names = {full: 'full assistance', explain: 'explanations only', none: 'no assistance'};
  const side = k => {
    const a = (l.assist || {})[k] || 'full', lim = (l.hints || {})[k], used = (l.hints_used || {})[k] || 0;
    let t = (k === 'white' ? 'White: ' : 'Black: ') + (names[a] || a);
    if (a === 'full') t += lim < 0 ? ` (hints ${used})` : ` (hints ${used}/${lim})`;
    return t;
  };
  return side('white') + ' \u00b7 ' + side('black') + (l.locked ? ' \u00b7 teacher\u2019s lock' : '');
}

function tickClocks() {
  const c = st.status && st.status.clock;
  for (const side of ['white', 'black']) {
    const e = $(side + '-clock');
    if (!c) { e.textContent = ''; continue; }
    const ms = clockLeft(c, side, st.offset);
    e.textContent = clockText(ms);
    e.classList.toggle('running', c.running === side && !c.paused);
    e.classList.toggle('low', c.low === side || ms < 10000);
    e.classList.toggle('flag', c.flag === side);
  }
}
setInterval(tickClocks, 100);

function step(d) {
  const n = st.moves.length;
  let p = st.view === null ? n : st.view;
  p = Math.max(0, Math.min(n, p + d));
  st.view = p === n ? null : p; schedule();
}
$('first').onclick = () => { st.view = 0; schedule(); };
$('back').onclick = () => step(-1);
$('fwd').onclick = () => step(1);
$('live').onclick = () => { st.view = null; schedule(); };
$('flipbtn').onclick = () => { st.flip = !st.flip; if (flat) flat.setFlip(st.flip); if (view3d) view3d.setFlip(st.flip); schedule(); };
$('toggle3d').onclick = async () => {
  want3d = !want3d;
  if (!want3d && view3d) { view3d.dispose(); view3d = null; document.body.classList.remove('has3d'); }
  if (want3d && variant) await start3d(await layout(variant));
  schedule();
};
document.addEventListener('keydown', e => {
  if (e.target.tagName === 'INPUT') return;
  if (e.key === 'ArrowLeft') step(-1);
  if (e.key === 'ArrowRight') step(1);
  if (e.key === 'f') $('flipbtn').click();
});

// Game actions: POSTs with the command token; the server checks it.
document.querySelectorAll('#actions button[data-cmd]').forEach(b => b.addEventListener('click', async () => {
  const cmd = b.dataset.cmd, body = {};
  if (cmd === 'new_game') {
    body.variant = variant || 'st3d';
    const tags = {White: $('ng-white').value, Black: $('ng-black').value, Event: $('ng-event').value, Round: $('ng-round').value};
    for (const k in tags) if (tags[k]) body[k.toLowerCase()] = tags[k];
    if ($('ng-tc').value) body.time_control = $('ng-tc').value;
    body.assist = {white: $('ng-assist-white').value, black: $('ng-assist-black').value};
  }
  if (b.dataset.lock) body.lock = b.dataset.lock === 'true';
  if (b.dataset.clock) body.action = b.dataset.clock;
  if (b.dataset.plies) body.plies = Number(b.dataset.plies);
  if (b.dataset.answer) body.answer = b.dataset.answer;
  if (b.dataset.side) body.side = b.dataset.side;
  if (b.dataset.action) { body.action = b.dataset.action; body.side = st.status && st.status.turn || 'white'; }
  const r = await fetch(`/boards/${encodeURIComponent(id)}/command/${cmd}`, {method: 'POST', headers: {'Authorization': 'Bearer ' + $('token').value, 'Content-Type': 'application/json'}, body: JSON.stringify(body)});
  const text = await r.text();
  let shown = cmd + ': ok';
  try { const d = JSON.parse(text); if (d && d.piece !== undefined) shown = 'hint: ' + (d.move || ('move the piece on ' + d.piece)); } catch (e) {}
  $('cmd-reply').textContent = r.ok ? shown : text;
}));

connect();

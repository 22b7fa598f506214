// One board's page: the game pushed over SSE (/boards/<id>/events), drawn
// flat and in 3D, the move list in the system's notation with stepping.
import {FlatBoard, layout, clockText, clockLeft, statusText, renderReserves, pieceURL, pieceNames} from '/static/flat.js';
import {spokenMove, eventText, describe, useLayout} from '/static/words.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const params = new URLSearchParams(location.search);
const overlay = params.get('overlay') === '1';
if (overlay) document.body.classList.add('overlay');
const $ = s => document.getElementById(s);
// Hall mode: a screen 1700 px wide or more (or ?hall=1) reads from across
// the room (app.css: body.hall).
const hallScreen = matchMedia('(min-width: 1700px) and (min-height: 700px)');
function setHall() {
  const on = params.get('hall') === '1' || params.get('hall') !== '0' && hallScreen.matches;
  document.body.classList.toggle('hall', on);
  document.documentElement.classList.toggle('hall-root', on && !overlay); // the root's type (app.css)
}
setHall();
hallScreen.addEventListener('change', setHall);

const st = {shown: {}, game: '', epoch: 0, seq: -1, status: null, start: {pieces: {}}, moves: [], view: null, flip: params.get('flip') === '1', offset: 0, spoken: [], announced: 0};
let flat = null, view3d = null, variant = '', want3d = params.get('flat') !== '1', dirty = false;
window.tridboard = st; // for tests and the curious

$('board-id').textContent = id;
$('pgnlink').href = `/boards/${encodeURIComponent(id)}/game.pgn`;
// ?game=<id>: an archived game of the board, replayed from its record
// (no live updates).
const archivedGame = params.get('game');
$('tolive').href = `/boards/${encodeURIComponent(id)}` + (overlay ? '?overlay=1' : '');

// A phone stacks the levels (the highest on top), each level full width;
// wider screens put them side by side.
const narrow = matchMedia('(max-width: 600px)');
function arrangement() { return narrow.matches && !overlay ? 'column' : 'row'; }
narrow.addEventListener('change', () => refit());
// The overlay, and a wide screen (the 3D and flat views side by side, the
// page's height), fit the flat view to its box.
const wide = matchMedia('(min-width: 1200px) and (min-aspect-ratio: 4/3)');
const landscape = matchMedia('(orientation: landscape) and (max-height: 560px) and (max-width: 1199px)');
function fitted() { return overlay || (wide.matches || landscape.matches) && !narrow.matches; }
landscape.addEventListener('change', refit);
function refit() {
  if (!flat) return;
  if (fitted()) flat.fit($('flat').clientWidth, $('flat').clientHeight);
  else flat.setArrange(arrangement());
}
new ResizeObserver(refit).observe($('flat'));
wide.addEventListener('change', refit);

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
  useLayout(lay);
  relabelMoves();
  $('flat').replaceChildren();
  flat = new FlatBoard($('flat'), lay, {arrange: arrangement()});
  st.flat = flat;
  flat.setFlip(st.flip);
  refit();
  if (view3d) { view3d.dispose(); view3d = null; }
  // The flat board, its pieces and the last move now, before the 3D view
  // (three.js is 687 KB and WebGL slow to start on a phone): it starts
  // once this frame is painted.
  if (st.status) render();
  if (want3d) { await painted(); await start3d(lay); schedule(); }
}

// painted resolves once the current frame is on the screen.
function painted() { return new Promise(r => requestAnimationFrame(() => setTimeout(r, 0))); }

async function start3d(lay) {
  try {
    const m = await import('/static/view3d.js');
    if (view3d || !want3d) return;
    document.body.classList.add('has3d');
    view3d = new m.View3D($('view3d'), lay);
    st.view3d = view3d;
    view3d.setFlip(st.flip);
    $('turn3d').setAttribute('aria-pressed', 'false'); $('turn3d').classList.remove('on');
    st.started3d = performance.now();
  } catch (e) {
    // No WebGL: no empty box above the flat view, a line saying why.
    console.warn('3D view:', e);
    document.body.classList.remove('has3d');
    document.querySelector('.nogl').hidden = false;
    want3d = false;
  }
}

function apply(v) {
  const full = v.full || v.game !== st.game || v.epoch !== st.epoch && !v.full;
  if (v.full) {
    st.moves = v.moves; st.start = v.start;
    if (st.view !== null && st.view > st.moves.length) st.view = null;
  } else {
    for (const m of v.moves) {
      if (!st.moves.length || m.seq > st.moves[st.moves.length - 1].seq) st.moves.push(m);
      else {
        // An earlier move again: its evaluation came.
        const k = st.moves.findIndex(x => x.seq === m.seq);
        if (k >= 0) st.moves[k].eval = m.eval;
      }
    }
  }
  st.startEval = v.start_eval || (v.full ? null : st.startEval);
  st.game = v.game; st.epoch = v.epoch; st.seq = v.seq; st.status = v;
  if (document.body.classList.contains('missing')) { document.body.classList.remove('missing'); $('notfound').hidden = true; }
  announce(v.full || full);
  if (v.now) st.offset = Date.parse(v.now) - Date.now();
  renderMoves(v.full || full);
  if (v.variant && v.variant !== variant) setVariant(v.variant);
  schedule();
}

// The views of the hall serve the same boards (docs/hall.md): when the
// stream fails the page resumes on the next (this one, then /api/peers).
let es = null, retry = 0, views = [''];
fetch('/api/peers').then(r => r.ok ? r.json() : []).then(p => {
  if (Array.isArray(p)) views = [''].concat(p.filter(u => typeof u === 'string' && /^https?:\/\//.test(u)));
}).catch(() => {});
function connect() {
  let url = views[retry % views.length] + `/boards/${encodeURIComponent(id)}/events`;
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

// announce says each new move in words: in the live region for a screen
// reader, aloud when "speak the moves" is on. The moves a page loads with
// are not said.
function announce(reload) {
  if (reload && st.announced === 0 || st.moves.length < st.announced) { st.announced = st.moves.length; return; }
  for (; st.announced < st.moves.length; st.announced++) {
    const i = st.announced, m = st.moves[i];
    const before = i > 0 ? st.moves[i - 1] : st.start;
    const text = spokenMove(m, before);
    $('announce').textContent = text;
    if ($('speak').checked) say(text);
  }
}
function say(text) {
  st.spoken.push(text);
  if (window.speechSynthesis) speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}
$('speak').checked = localStorage.getItem('tridboard.speak') === '1';
$('speak').addEventListener('change', () => localStorage.setItem('tridboard.speak', $('speak').checked ? '1' : '0'));

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
      li = document.createElement('li'); li.setAttribute('role', 'presentation');
      const n = document.createElement('span'); n.className = 'num'; n.textContent = m.num; n.setAttribute('aria-hidden', 'true');
      li.appendChild(n);
      if (black) { const gap = document.createElement('span'); gap.className = 'move gap'; gap.textContent = '\u2026'; gap.setAttribute('aria-hidden', 'true'); li.appendChild(gap); }
      ol.appendChild(li);
    }
    const s = document.createElement('span');
    s.className = 'move'; s.textContent = m.short;
    const prev = st.moves[listed - 1];
    if (prev && prev.ts && m.ts) {
      // The time the move took: from the move before it to it.
      s.dataset.spent = spentText(Date.parse(m.ts) - Date.parse(prev.ts));
    } s.dataset.ply = m.ply; s.dataset.seq = m.seq; s.title = m.long;
    s.id = 'ply-' + m.ply; s.setAttribute('role', 'option'); s.tabIndex = -1;
    s.setAttribute('aria-label', moveWords(listed) + ' (' + m.short + ')');
    s.addEventListener('click', () => show(m.ply === st.moves.length ? null : m.ply));
    li.appendChild(s);
    if (black) li.dataset.full = '1';
  }
}

// relabelMoves says the moves listed again, in the words of the layout
// that came after them.
function relabelMoves() {
  document.querySelectorAll('#moves .move[data-ply]').forEach((s, i) => {
    if (st.moves[i]) s.setAttribute('aria-label', moveWords(i) + ' (' + st.moves[i].short + ')');
  });
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
  // When the first pieces were drawn (ms from the page's start), for tests.
  if (flat && !st.firstPieces && Object.keys(pos.pieces || {}).length) st.firstPieces = performance.now();
  document.querySelectorAll('.reserves').forEach(e => renderReserves(e, pos.reserve));
  renderMaterial(pos);
  renderEval(ply);
  $('flat').firstChild && $('flat').firstChild.setAttribute('aria-label', describe(pos));
  const lastMove = st.moves[st.moves.length - 1];
  if (flat && lastMove && !st.shown[lastMove.seq]) st.shown[lastMove.seq] = performance.timeOrigin + performance.now();
  if (view3d) view3d.draw(pos, mk);
  // The move shown is the listbox's selected option and its one tab stop;
  // while the list has the focus, the focus moves with it.
  const had = $('moves').contains(document.activeElement);
  document.querySelectorAll('#moves .move.current').forEach(e => { e.classList.remove('current'); e.setAttribute('aria-selected', 'false'); e.tabIndex = -1; });
  const cur = document.querySelector(`#moves .move[data-ply="${Math.max(ply, 1)}"]`);
  if (cur) {
    cur.tabIndex = 0;
    if (ply > 0) { cur.classList.add('current'); cur.setAttribute('aria-selected', 'true'); }
    scrollList(cur);
    if (had && document.activeElement !== cur) cur.focus({preventScroll: true});
  }
  document.body.classList.toggle('stepping', st.view !== null);
  const shownMove = ply > 0 ? st.moves[ply - 1] : null;
  $('lastmove').textContent = shownMove ? shownMove.num + ' ' + shownMove.short : '';
  // Stepping back: the live turn line gives way to what is shown.
  $('turn').hidden = st.view !== null;
  $('stepline').hidden = st.view === null;
  $('stepline').textContent = st.view === null ? '' : (shownMove ? 'after ' + shownMove.num + ' ' + shownMove.short : 'the start position') + ' (an earlier move: live shows the game now)';
  $('live').classList.toggle('on', st.view === null);
  const tags = s.tags || {};
  $('white-name').textContent = tags.White || 'White';
  $('black-name').textContent = tags.Black || 'Black';
  $('event-round').textContent = [tags.Event, tags.Round && 'round ' + tags.Round].filter(Boolean).join(', ');
  document.title = `${tags.White || 'White'} - ${tags.Black || 'Black'} (${id})`;
  const stx = s.online === false ? 'offline' : s.awaiting_press ? 'press your clock' : (statusText[s.board] || s.board) + (s.board === 'needs_choice' && s.choices ? ': ' + s.choices.join(' ') : '');
  $('status').textContent = stx;
  $('status').className = 'badge status-' + (s.online === false ? 'offline' : s.board);
  $('result').textContent = s.result !== '*' ? s.result + (s.termination ? ' (' + s.termination + ')' : '') : '';
  $('result').hidden = s.result === '*';
  $('turn').textContent = s.result !== '*' ? 'Game over: ' + resultWords(s) : (s.turn === 'white' ? 'White' : 'Black') + ' to move' + (s.check ? ', check' : '');
  for (const side of ['White', 'Black']) {
    $(side.toLowerCase() + '-info').textContent = [tags[side + 'Title'], tags[side + 'Elo']].filter(Boolean).join(' ');
  }
  $('lesson').hidden = !s.lesson;
  if (s.lesson) $('lesson').textContent = lessonText(s.lesson);
  const fix = s.fix && s.fix.length || s.board === 'mismatch' || s.board === 'sensor_fault';
  $('fix').hidden = !fix;
  if (fix) $('fix').textContent = 'Fix ' + ((s.fix || []).join(', ') || 'the board') + ': ' + (s.fix_reason || s.fault || '') + (s.fix_hint ? ' \u2014 to do: ' + s.fix_hint : '');
  $('error').hidden = !s.error; $('error').textContent = s.error || '';
  const peer = s.peer && (!s.peer.online || s.peer.detail) ? s.peer.detail || `set ${s.peer.set} is offline` : '';
  $('peer').hidden = !peer; $('peer').textContent = peer;
  // A desync of a remote game: the players resolve it here (the resolve
  // command, with the command token).
  const desync = s.peer && s.peer.desync;
  $('desync').hidden = !desync;
  if (desync) $('desync-what').textContent = `The two sets hold different games (${desync}). Take the other set's record here, or take both sets back to the last position they share:`;
  const ev = s.event;
  $('lastevent').textContent = ev ? eventText(ev) : '';
  tickClocks();
}

// scrollList brings a move into the list's view, scrolling the list only
// (never the page: a phone keeps the board in view).
function scrollList(e) {
  const ol = $('moves'), top = e.offsetTop, bottom = top + e.offsetHeight;
  if (top < ol.scrollTop) ol.scrollTop = top;
  else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
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
    e.classList.toggle('low', c.low === side || c.low === 'both' || ms < 10000);
    e.classList.toggle('flag', c.flag === side);
  }
}
setInterval(tickClocks, 100);

// spentText is the time a move took: "8s", "1:05", "1:02:03".
function spentText(ms) {
  if (!(ms >= 0)) return '';
  const s = Math.round(ms / 1000);
  if (s < 60) return s + 's';
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// The material: each side's pieces on the board and in reserve against
// the start's; what is missing was captured.
const VALUES = {P: 1, N: 3, B: 3, R: 5, Q: 9, K: 0};
function counts(pos) {
  const n = {};
  for (const l of Object.values(pos.pieces || {})) n[l] = (n[l] || 0) + 1;
  for (const [l, c] of Object.entries(pos.reserve || {})) n[l] = (n[l] || 0) + c;
  return n;
}
function renderMaterial(pos) {
  const start = counts(st.start), now = counts(pos);
  const el = $('material');
  const key = JSON.stringify(now);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren();
  let value = {white: 0, black: 0};
  for (const [l, c] of Object.entries(now)) value[l === l.toUpperCase() ? 'white' : 'black'] += VALUES[l.toUpperCase()] * c;
  // White took Black's missing pieces, and the other way round.
  for (const [side, lower] of [['white', true], ['black', false]]) {
    const took = [];
    for (const k of 'QRBNP') {
      const l = lower ? k.toLowerCase() : k;
      for (let i = (start[l] || 0) - (now[l] || 0); i > 0; i--) took.push(l);
    }
    if (!took.length) continue;
    const d = document.createElement('span'); d.className = 'took'; d.dataset.side = side;
    d.append((side === 'white' ? 'White' : 'Black') + ' took ');
    for (const l of took) {
      const b = document.createElement('b'); b.className = lower ? 'b' : 'w'; b.textContent = l.toUpperCase();
      b.style.setProperty('--img', `url(${pieceURL(l)})`); b.title = pieceNames[l.toUpperCase()];
      d.appendChild(b);
    }
    el.appendChild(d);
  }
  const diff = value.white - value.black;
  if (diff !== 0 && el.childElementCount) {
    const a = document.createElement('span'); a.className = 'adv';
    a.textContent = (diff > 0 ? 'White +' : 'Black +') + Math.abs(diff);
    el.appendChild(a);
  }
}

// The evaluation (the server's engine, HubOpts.Eval): a bar, the best
// line, the graph of the game; off with the toggle or &eval=0.
const wantEval = params.get('eval') !== '0';
$('evaltoggle').checked = localStorage.getItem('tridboard.eval') !== '0';
$('evaltoggle').addEventListener('change', () => { localStorage.setItem('tridboard.eval', $('evaltoggle').checked ? '1' : '0'); schedule(); });
function evalAt(ply) { return ply > 0 ? st.moves[ply - 1] && st.moves[ply - 1].eval : st.startEval; }
// share is White's share of the bar, 0..1.
function share(ev) {
  if (ev.result) return {'1-0': 1, '0-1': 0}[ev.result] ?? 0.5;
  if (ev.mate) return ev.mate > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh(ev.cp / 400);
}
function evalText(ev) {
  if (ev.result) return ev.result;
  if (ev.mate) return (ev.mate > 0 ? '#' : '#-') + Math.abs(ev.mate);
  return (ev.cp > 0 ? '+' : ev.cp < 0 ? '\u2212' : '') + (Math.abs(ev.cp) / 100).toFixed(2);
}
function renderEval(ply) {
  const any = !!st.startEval || st.moves.some(m => m.eval);
  $('evaltogglebox').hidden = !any || !wantEval;
  const box = $('evalbox');
  box.hidden = !any || !wantEval || !$('evaltoggle').checked;
  $('side').classList.toggle('noeval', box.hidden); // the overlay's column holds the evaluation only
  if (box.hidden) return;
  const ev = evalAt(ply);
  const bar = box.querySelector('.evalbar');
  box.querySelector('.evalfill').style.width = ev ? (100 * share(ev)).toFixed(1) + '%' : '50%';
  box.querySelector('.evaltext').textContent = ev ? evalText(ev) : '\u2026';
  bar.setAttribute('aria-valuenow', ev ? Math.round(100 * share(ev)) : 50);
  bar.setAttribute('aria-valuetext', ev ? evalText(ev) : 'not yet');
  box.querySelector('.bestline').textContent = ev && ev.best ? 'best: ' + ev.best.join(' ') + (ev.depth ? ` (depth ${ev.depth})` : '') : '';
  // The graph: White's share after each move, White's advantage above.
  const g = box.querySelector('.evalgraph'), n = st.moves.length;
  const pts = [];
  for (let i = 0; i <= n; i++) { const e = evalAt(i); if (e) pts.push([n ? 100 * i / n : 50, 30 * (1 - share(e))]); }
  const key = JSON.stringify(pts) + ply;
  if (g.dataset.key === key) return;
  g.dataset.key = key;
  const NS = 'http://www.w3.org/2000/svg';
  g.replaceChildren();
  const mk = (name, attrs) => { const e = document.createElementNS(NS, name); for (const k in attrs) e.setAttribute(k, attrs[k]); g.appendChild(e); return e; };
  if (pts.length) mk('polygon', {class: 'adv', points: `${pts[0][0]},30 ` + pts.map(p => p.join(',')).join(' ') + ` ${pts[pts.length - 1][0]},30`});
  mk('line', {class: 'zero', x1: 0, x2: 100, y1: 15, y2: 15});
  const cx = n ? 100 * ply / n : 50;
  mk('line', {class: 'cur', x1: cx, x2: cx, y1: 0, y2: 30});
  g.dataset.points = pts.length;
}
document.querySelector('.evalgraph').addEventListener('click', e => {
  const r = e.currentTarget.getBoundingClientRect(), n = st.moves.length;
  const p = Math.round((e.clientX - r.left) / r.width * n);
  show(p >= n ? null : Math.max(0, p));
});

// resultWords is the result in words: "White wins by checkmate (1-0)".
function resultWords(s) {
  const who = {'1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'draw'}[s.result] || s.result;
  return who + (s.termination ? ' by ' + s.termination.replace(/_/g, ' ') : '') + ' (' + s.result + ')';
}

// show steps to ply v (null: the game now) and says what is shown in the
// live region, as a screen reader reads it: "12... knight c6 Black to d4
// Black", "the start position".
function show(v) {
  st.view = v; schedule();
  const n = st.moves.length, ply = v === null ? n : v;
  $('announce').textContent = ply === 0 ? 'the start position' : moveWords(ply - 1) + (v === null ? ', the game now' : '');
}
// moveWords is move i (0-based) with its number, in words.
function moveWords(i) {
  const m = st.moves[i];
  return m.num + ' ' + spokenMove(m, i > 0 ? st.moves[i - 1] : st.start);
}

function step(d) {
  const n = st.moves.length;
  let p = st.view === null ? n : st.view;
  p = Math.max(0, Math.min(n, p + d));
  show(p === n ? null : p);
}
$('first').onclick = () => show(0);
$('back').onclick = () => step(-1);
$('fwd').onclick = () => step(1);
$('live').onclick = () => show(null);
$('sharebtn').onclick = async () => {
  const url = location.origin + '/boards/' + encodeURIComponent(id) + (st.flip ? '?flip=1' : '');
  $('shareurl').hidden = false; $('shareurl').value = url; $('shareurl').select();
  try {
    if (navigator.share && matchMedia('(pointer: coarse)').matches) await navigator.share({title: document.title, url});
    else await navigator.clipboard.writeText(url);
  } catch (e) { /* the link is shown, selected, to copy by hand */ }
};
// The 3D view's tools: one finger turns the set (else it scrolls the
// page), and the view as it came.
$('turn3d').onclick = () => {
  if (!view3d) return;
  view3d.setTouchTurn(!view3d.touchTurn);
  $('turn3d').setAttribute('aria-pressed', String(view3d.touchTurn));
  $('turn3d').classList.toggle('on', view3d.touchTurn);
};
$('reset3d').onclick = () => { if (view3d) view3d.reset(); };
$('flipbtn').onclick = () => { st.flip = !st.flip; if (flat) flat.setFlip(st.flip); if (view3d) view3d.setFlip(st.flip); schedule(); };
$('toggle3d').onclick = async () => {
  want3d = !want3d;
  if (!want3d && view3d) { view3d.dispose(); view3d = null; document.body.classList.remove('has3d'); }
  if (want3d && variant) await start3d(await layout(variant));
  schedule();
};
// The move list by keyboard: arrows step, Home and End go to the start
// and to the game now.
$('moves').addEventListener('keydown', e => {
  const k = {ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1}[e.key];
  if (k) step(k);
  else if (e.key === 'Home') show(0);
  else if (e.key === 'End') show(null);
  else return;
  e.preventDefault(); e.stopPropagation();
});
document.addEventListener('keydown', e => {
  if (e.target.tagName === 'INPUT') return;
  if (e.key === 'ArrowLeft') step(-1);
  if (e.key === 'ArrowRight') step(1);
  if (e.key === 'f') $('flipbtn').click();
});

// Game actions: POSTs with the command token; the server checks it.
document.querySelectorAll('#actions button[data-cmd], #desync button[data-cmd]').forEach(b => b.addEventListener('click', async () => {
  const cmd = b.dataset.cmd, body = {};
  const out = b.closest('#desync') ? $('desync-reply') : $('cmd-reply');
  if (b.dataset.resolve) {
    if (!$('token').value) { $('actions').open = true; $('token').focus(); out.textContent = 'enter the command token (game actions) first'; return; }
    body.action = b.dataset.resolve;
  }
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
  out.textContent = r.ok ? shown : text;
}));

// The board's games (its journal): listed when the list opens; a click
// replays one on this page.
$('archive').addEventListener('toggle', async () => {
  if (!$('archive').open) return;
  const r = await fetch(`/api/boards/${encodeURIComponent(id)}/games`);
  if (!r.ok) { $('gamelist').textContent = 'no games'; return; }
  const games = await r.json();
  $('gamelist').replaceChildren(...games.map(g => {
    const li = document.createElement('li'); li.dataset.game = g.game; li.className = g.live ? 'live' : '';
    const a = document.createElement('a');
    a.href = g.live ? `/boards/${encodeURIComponent(id)}` : `/boards/${encodeURIComponent(id)}?game=${encodeURIComponent(g.game)}`;
    a.textContent = `${g.white} - ${g.black}, ${g.result}${g.termination ? ' (' + g.termination + ')' : ''}, ${Math.ceil(g.plies / 2)} moves${g.date ? ', ' + g.date : ''}${g.live ? ' (now)' : ''}`;
    const p = document.createElement('a'); p.href = `/boards/${encodeURIComponent(id)}/games/${encodeURIComponent(g.game)}.pgn`; p.textContent = ' record';
    li.append(a, p);
    return li;
  }));
});

async function loadArchived() {
  const r = await fetch(`/api/boards/${encodeURIComponent(id)}/games/${encodeURIComponent(archivedGame)}`);
  const text = r.ok ? null : await r.text();
  document.body.classList.remove('missing'); $('notfound').hidden = true;
  $('archived').hidden = false;
  $('conn').textContent = 'archive';
  $('pgnlink').href = `/boards/${encodeURIComponent(id)}/games/${encodeURIComponent(archivedGame)}.pgn`;
  if (!r.ok) { $('archived-what').textContent = archivedGame + ': ' + text; return; }
  const v = await r.json();
  const t = v.tags || {};
  $('archived-what').textContent = `${t.White || '?'} - ${t.Black || '?'}, ${v.result}${v.termination ? ' (' + v.termination + ')' : ''}`;
  apply(v);
}

if (archivedGame) loadArchived(); else connect();

// The set's own Wi-Fi, while its access point is up (it knows no Wi-Fi):
// the QR code another phone joins with. /setup/hotspot answers the set's
// own network and screen only (package setup); elsewhere nothing shows.
fetch('/setup/hotspot', {cache: 'no-store'}).then((r) => r.ok ? r.json() : null).then((j) => {
  if (!j || !j.up) return;
  $('joinap-ssid').textContent = j.ssid;
  $('joinap-qr').innerHTML = j.svg;
  $('joinap').hidden = false;
}).catch(() => {});

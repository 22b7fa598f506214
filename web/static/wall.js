// The wall: every board as a small live board. Updates arrive over SSE
// (/events) and are applied once per animation frame, only to the boards
// that changed, and only to the cells that changed.
import {MiniBoard, layout, clockText, clockLeft, statusText} from '/static/flat.js';

const wall = document.getElementById('wall');
const cards = new Map(); // id -> {el, flat, variant, sum}
const pending = new Map();
let frameQueued = false, offset = 0;
const params = new URLSearchParams(location.search);
const measure = params.get('measure') === '1';
// Kiosk mode (?kiosk=1, a hall screen): large cards, as many as fit the
// screen, a page at a time, the next page every ?every= seconds (12).
const kiosk = params.get('kiosk') === '1';
const every = Math.max(1, +params.get('every') || 12);
const paging = {page: 0, pages: 1, per: 0};
if (kiosk) document.body.classList.add('kiosk');
// The root's type (app.css: html.wall-root, html.kiosk-root).
document.documentElement.classList.add('wall-root');
if (kiosk) document.documentElement.classList.add('kiosk-root');
window.tridboardWall = {cards, frames: [], work: [], applied: 0};

function card(id) {
  let c = cards.get(id);
  if (c) return c;
  const a = document.createElement('a');
  a.className = 'card'; a.href = '/boards/' + encodeURIComponent(id); a.dataset.board = id;
  a.innerHTML = '<div class="card-head"><span class="bid"></span><span class="cround"></span><span class="cstatus badge"></span></div>' +
    '<div class="players"><div class="pl white"><span class="swatch white"></span><span class="name"></span><span class="clock"></span></div>' +
    '<div class="pl black"><span class="swatch black"></span><span class="name"></span><span class="clock"></span></div></div>' +
    '<div class="mini"></div><div class="card-foot"><span class="last"></span><span class="res"></span></div>';
  a.querySelector('.bid').textContent = id;
  c = {el: a, flat: null, variant: '', sum: null, q: s => a.querySelector(s)};
  // Keep the wall in the natural order of the ids: load-2 before load-10.
  let before = null;
  for (const [oid, oc] of cards) if (natural(oid, id) > 0 && (!before || natural(oid, before.el.dataset.board) < 0)) before = oc;
  wall.insertBefore(a, before ? before.el : null);
  cards.set(id, c);
  document.getElementById('count').textContent = cards.size + (cards.size === 1 ? ' board' : ' boards');
  return c;
}

// natural compares board ids as the server orders them (web/natural.go):
// runs of digits by value, the rest by character.
function natural(a, b) {
  const ra = a.match(/\d+|\D/g) || [], rb = b.match(/\d+|\D/g) || [];
  for (let i = 0; i < ra.length && i < rb.length; i++) {
    const x = ra[i], y = rb[i], dx = /\d/.test(x[0]), dy = /\d/.test(y[0]);
    if (dx && dy) {
      const tx = x.replace(/^0+(?=\d)/, ''), ty = y.replace(/^0+(?=\d)/, '');
      if (tx.length !== ty.length) return tx.length - ty.length;
      if (tx !== ty) return tx < ty ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length;
    } else if (x !== y) return x < y ? -1 : 1;
  }
  return ra.length - rb.length;
}

function update(c, s) {
  c.sum = s;
  if (s.variant && s.variant !== c.variant) {
    c.variant = s.variant;
    layout(s.variant).then(lay => {
      c.q('.mini').replaceChildren();
      c.flat = new MiniBoard(c.q('.mini'), lay);
      if (c.sum) draw(c, c.sum);
      relayout(); // the card's height is known now
    }, () => { c.variant = ''; }); // the server went away: again with the next update
  }
  draw(c, s);
}

function draw(c, s) {
  const tags = s.tags || {};
  set(c.q('.cround'), tags.Round ? 'round ' + tags.Round : '');
  set(c.q('.pl.white .name'), tags.White || 'White');
  set(c.q('.pl.black .name'), tags.Black || 'Black');
  const stx = s.online === false ? 'offline' : statusText[s.board] || s.board;
  set(c.q('.cstatus'), stx);
  c.q('.cstatus').className = 'cstatus badge status-' + (s.online === false ? 'offline' : s.board);
  set(c.q('.last'), s.last ? s.last.num + ' ' + s.last.short : '');
  set(c.q('.res'), s.result !== '*' ? s.result + (s.termination ? ' ' + s.termination : '') : (s.turn === 'white' ? 'White to move' : 'Black to move'));
  c.el.classList.toggle('over', s.result !== '*');
  c.el.classList.toggle('alert', s.board === 'mismatch' || s.board === 'sensor_fault');
  if (c.flat) c.flat.draw(s.pos, {from: s.last && s.last.from, to: s.last && s.last.to, check: s.check, fix: s.fix});
  clocks(c);
}

function set(e, t) { if (e.textContent !== t) e.textContent = t; }

function clocks(c) {
  const k = c.sum && c.sum.clock;
  for (const side of ['white', 'black']) {
    const e = c.q(`.pl.${side} .clock`);
    if (!k) { set(e, ''); continue; }
    set(e, clockText(clockLeft(k, side, offset)));
    e.classList.toggle('running', k.running === side && !k.paused);
  }
}
setInterval(() => { for (const c of cards.values()) if (c.sum && c.sum.clock) clocks(c); }, 200);

let last = 0;
function frame(t) {
  frameQueued = false;
  if (measure && last) window.tridboardWall.frames.push(t - last);
  last = t;
  const w0 = performance.now();
  const grew = [...pending.keys()].some(id => !cards.has(id));
  for (const [id, s] of pending) { update(card(id), s); window.tridboardWall.applied++; }
  if (grew) relayout();
  if (measure && pending.size) window.tridboardWall.work.push(performance.now() - w0);
  pending.clear();
  if (measure) { frameQueued = true; requestAnimationFrame(frame); }
}

// The cards' type is a share of the card's width (app.css: --cw), so a
// card's height is its width times a ratio the layout measures. CLOCK is
// the clock's type as a share of the card's width in the kiosk.
const CLOCK = 0.1;

// grid is the largest card width that puts n cards on a w x h area in
// some number of columns, and those columns.
function grid(n, w, h, gap, ratio) {
  let best = {cols: 1, width: 0};
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const width = Math.min((w - (cols - 1) * gap) / cols, ((h - (rows - 1) * gap) / rows) / ratio);
    if (width > best.width) best = {cols, width};
  }
  return best;
}

// paginate lays the cards out to fill the screen, whatever their number:
// the columns that draw them largest with every card on the screen. Where
// that makes them smaller than readable (the kiosk: a clock of 5 % of the
// screen's height, read from across a hall; the wall: 14 rem), the wall
// scrolls with cards that size and the kiosk shows as many as fit, a page
// at a time.
function paginate() {
  const all = [...wall.children];
  if (!all.length) return;
  const cs = getComputedStyle(wall), gap = parseFloat(cs.rowGap) || 0;
  const padX = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight), padY = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
  const w = wall.clientWidth - padX, h = innerHeight - wall.getBoundingClientRect().top - scrollY - padY - 2;
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  all.forEach(e => { e.hidden = false; });
  // Twice: the first pass sizes the cards, the second uses the height
  // they take at that width.
  for (let pass = 0; pass < 2; pass++) {
    const ratio = Math.max(0.5, ...all.map(e => e.offsetHeight / Math.max(1, e.offsetWidth)));
    // The clock's type as a share of the card's width (its padding and
    // border taken off), measured.
    const clock = all[0].querySelector('.pl .clock');
    const share = clock && all[0].offsetWidth ? parseFloat(getComputedStyle(clock).fontSize) / all[0].offsetWidth : CLOCK;
    const least = kiosk ? 0.0505 * innerHeight / Math.min(CLOCK, share || CLOCK) : Math.min(w, 14 * rem);
    let per = all.length, {cols, width} = grid(per, w, h, gap, ratio);
    if (!kiosk && w < 600) {
      cols = 1; width = w; // a phone: one column, full width, scrolling
    } else if (width < least) {
      if (kiosk) {
        // The most cards a page that stay readable.
        while (per > 1 && grid(per, w, h, gap, ratio).width < least) per--;
        ({cols, width} = grid(per, w, h, gap, ratio));
      } else {
        cols = Math.max(1, Math.floor((w + gap) / (least + gap)));
        width = (w - (cols - 1) * gap) / cols;
      }
    }
    paging.per = per; paging.cols = cols; paging.width = width;
    wall.style.gridTemplateColumns = `repeat(${cols}, ${Math.floor(width)}px)`;
    wall.style.setProperty('--cw', Math.floor(width) + 'px');
  }
  if (kiosk) wall.style.minHeight = Math.floor(innerHeight - wall.getBoundingClientRect().top - scrollY) + 'px';
  const pages = Math.max(1, Math.ceil(all.length / paging.per)), page = paging.page % pages;
  if (pages !== paging.pages || page !== paging.page || !paging.shownAt) paging.shownAt = performance.now();
  paging.pages = pages; paging.page = page;
  all.forEach((e, i) => { e.hidden = Math.floor(i / paging.per) !== paging.page; });
  document.getElementById('pageno').textContent = paging.pages > 1 ? `page ${paging.page + 1} of ${paging.pages}` : '';
}
// The next page every `every` seconds from when a page was shown, the
// first one too (however long the boards took to come).
if (kiosk) setInterval(() => {
  if (paging.pages < 2 || performance.now() - paging.shownAt < every * 1000) return;
  paging.page = (paging.page + 1) % paging.pages;
  paging.shownAt = performance.now();
  paginate();
}, 200);
addEventListener('resize', relayout);
// relayout lays the cards out once in the next frame, however many asked.
let relaying = false;
function relayout() {
  if (relaying) return;
  relaying = true;
  requestAnimationFrame(() => { relaying = false; paginate(); });
}
window.tridboardWall.paging = paging;

// The views of the hall serve the same boards (docs/hall.md): when the
// stream fails the page tries the next (this one first, then /api/peers).
let views = [''], viewAt = 0;
fetch('/api/peers').then(r => r.ok ? r.json() : []).then(p => {
  if (Array.isArray(p)) views = [''].concat(p.filter(u => typeof u === 'string' && /^https?:\/\//.test(u)));
}).catch(() => {});
// Never backwards: a summary older than the one shown (a game before it,
// or the same game stamped earlier: another view behind this one) is dropped.
const newest = new Map(); // id -> {game, at}
function older(s) {
  const h = newest.get(s.id);
  if (!h) return false;
  if (s.game !== h.game) return /^\d{8}-\d{6}/.test(s.game) && /^\d{8}-\d{6}/.test(h.game) && natural(s.game, h.game) < 0;
  return !!(s.at && h.at) && Date.parse(s.at) < Date.parse(h.at);
}
window.tridboardWall.dropped = 0;
function connect() {
  const es = new EventSource(views[viewAt % views.length] + '/events');
  const conn = document.getElementById('conn');
  es.addEventListener('open', () => { conn.textContent = 'live'; conn.classList.remove('down'); });
  es.addEventListener('board', e => {
    const s = JSON.parse(e.data);
    if (s.now) offset = Date.parse(s.now) - Date.now();
    if (older(s)) { window.tridboardWall.dropped++; return; }
    newest.set(s.id, {game: s.game, at: s.at});
    pending.set(s.id, s);
    if (!frameQueued) { frameQueued = true; requestAnimationFrame(frame); }
  });
  // The server's time after the first summaries (encoded when they changed).
  es.addEventListener('now', e => { offset = Date.parse(JSON.parse(e.data)) - Date.now(); });
  es.addEventListener('error', () => { conn.textContent = 'reconnecting'; conn.classList.add('down'); es.close(); viewAt++; setTimeout(connect, 1000); });
}
connect();

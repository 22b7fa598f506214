// The flat view: every level of a system side by side as the map, one SVG
// group per cell (data-cell) and a puck per piece (data-piece), shared by
// the board page and the wall.
const NS = 'http://www.w3.org/2000/svg';
const U = 10; // one square

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

const layouts = new Map();
// layout fetches (once) the layout of a variant.
export function layout(variant) {
  if (!layouts.has(variant)) {
    const p = fetch('/api/layouts/' + encodeURIComponent(variant)).then(r => {
      if (!r.ok) throw new Error('layout of ' + variant + ': ' + r.status);
      return r.json();
    });
    p.catch(() => layouts.delete(variant)); // fetch it again next time
    layouts.set(variant, p);
  }
  return layouts.get(variant);
}


// FlatBoard draws every level of a system as a panel of squares: side by
// side (arrange "row"), or one above the other, the highest on top and
// each cut to its own ranks (arrange "column", for a phone). Marks differ
// by shape as well as colour (app.css).
export class FlatBoard {
  constructor(container, lay, opts = {}) {
    this.lay = lay;
    this.small = !!opts.small;
    this.flip = false;
    this.arrange = opts.arrange || 'row';
    this.cells = new Map(); // name -> {g, geo, piece, marks}
    const maxW = Math.max(...lay.panels.map(p => p.w)), maxH = Math.max(...lay.panels.map(p => p.h));
    this.pw = maxW; this.ph = maxH;
    // The rows each panel uses, and the file letter of each of its columns
    // (the layout names them: panel.files, panel.ranks).
    this.rows = lay.panels.map(() => [1e9, -1e9]);
    this.files = lay.panels.map(p => new Map((p.files || []).map((f, px) => [px, f]).filter(([, f]) => f)));
    for (const geo of lay.cells) {
      if (geo.k) continue;
      const r = this.rows[geo.p];
      r[0] = Math.min(r[0], geo.py); r[1] = Math.max(r[1], geo.py);
    }
    this.svg = el('svg', {class: 'flat' + (this.small ? ' small' : ''), role: 'img', 'aria-label': 'the board, flat: every level side by side'});
    this.labels = el('g', {class: 'labels', 'aria-hidden': 'true'}, this.svg);
    const squares = el('g', {class: 'squares'}, this.svg);
    const c = U / 2;
    for (const geo of lay.cells) {
      if (geo.k) continue; // presence cells are not squares
      const g = el('g', {class: 'cell ' + (geo.d ? 'dark' : 'light') + (geo.s ? ' carried' : '') + (geo.i ? ' inverted' : ''), 'data-cell': geo.n}, squares);
      el('rect', {class: 'sq', width: U, height: U}, g);
      el('rect', {class: 'mark', x: 0.9, y: 0.9, width: U - 1.8, height: U - 1.8}, g);
      el('path', {class: 'cross', d: `M1.5 1.5L${U - 1.5} ${U - 1.5}M${U - 1.5} 1.5L1.5 ${U - 1.5}`}, g);
      el('circle', {class: 'ring', cx: c, cy: c, r: U * 0.45}, g);
      el('circle', {class: 'dot', cx: c, cy: c, r: U * 0.21}, g);
      const title = el('title', {}, g); title.textContent = geo.n;
      this.cells.set(geo.n, {g, geo, piece: null, pg: null});
    }
    this.place();
    container.appendChild(this.svg);
  }
  setArrange(a) { if (a !== this.arrange) { this.arrange = a; this.place(); } }
  // fit picks the arrangement that draws the squares largest in a box of
  // w x h pixels (the overlay, whose size the stream gives).
  fit(w, h) {
    if (!(w > 0 && h > 0)) return;
    const keep = this.arrange, size = {};
    for (const a of ['row', 'column']) {
      this.arrange = a;
      const d = this.panelOrigins();
      size[a] = Math.min(w / d.w, h / d.h);
    }
    this.arrange = keep;
    this.setArrange(size.column > size.row * 1.1 ? 'column' : 'row');
  }
  // panelOrigins is where each panel's (0, first row) lands, and the size
  // of the drawing.
  panelOrigins() {
    const {pw, ph} = this;
    const left = this.small ? 0 : U, top = this.small ? 0 : U * 1.2, foot = this.small ? 0 : U * 0.9;
    const o = [];
    if (this.arrange === 'column' && !this.small) {
      let y = 0;
      const order = this.lay.panels.map((_, i) => i).reverse();
      for (const i of order) {
        const [r0, r1] = this.rows[i];
        o[i] = {x: left, y: y + top, r0, r1};
        y += top + (r1 - r0 + 1) * U + foot;
      }
      return {o, w: left + pw * U + U * 0.3, h: y};
    }
    this.lay.panels.forEach((_, i) => { o[i] = {x: left + i * (pw + 1) * U, y: top, r0: 0, r1: ph - 1}; });
    return {o, w: left + this.lay.panels.length * (pw + 1) * U - U + (this.small ? 0 : U * 0.5), h: top + ph * U + foot};
  }
  // place puts every cell where the arrangement and the flip say.
  place() {
    const {pw} = this;
    const {o, w, h} = this.panelOrigins();
    this.svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    this.svg.dataset.arrange = this.arrange;
    const xy = (p, px, py) => {
      const panel = this.lay.panels[p], {x, y, r0, r1} = o[p];
      px += Math.floor((pw - panel.w) / 2);
      let row = py - r0;
      if (this.flip) { px = pw - 1 - px; row = r1 - py; }
      return [x + px * U, y + row * U];
    };
    for (const c of this.cells.values()) {
      const [x, y] = xy(c.geo.p, c.geo.px, c.geo.py);
      c.g.setAttribute('transform', `translate(${x} ${y})`);
    }
    if (this.small) return;
    this.labels.replaceChildren();
    const text = (x, y, t, cls) => { const e = el('text', {x, y, class: cls}, this.labels); e.textContent = t; };
    this.lay.panels.forEach((p, i) => {
      const {x, y, r0, r1} = o[i];
      text(x + pw * U / 2, y - U * 0.3, p.name, 'panel-name');
      // Ranks at the left of the first panel (all panels share their
      // rows when side by side), at the left of each when stacked.
      if (i === 0 || this.arrange === 'column') {
        for (let py = r0; py <= r1; py++) {
          const r = this.lay.panels.map(p => (p.ranks || [])[py]).find(Boolean);
          if (!r) continue;
          const [, ty] = xy(i, 0, py);
          text(U * 0.5, ty + U * 0.68, r, 'rank');
        }
      }
      // Files under each panel.
      for (const [px, f] of [...this.files[i]].sort((a, b) => a[0] - b[0])) {
        const [fx] = xy(i, px, r1);
        text(fx + U / 2, y + (r1 - r0 + 1) * U + U * 0.7, f, 'file');
      }
    });
  }
  setFlip(f) { if (this.flip !== !!f) { this.flip = !!f; this.place(); } }
  // draw shows a position ({pieces, pins}) with marks ({from, to, check,
  // lifted, targets, captures, pinTargets, fix}).
  draw(pos, marks = {}) {
    const pins = new Set(pos.pins || []);
    const pieces = pos.pieces || {};
    const sets = {
      lifted: new Set(marks.lifted || []), target: new Set(marks.targets || []),
      capture: new Set(marks.captures || []), fix: new Set(marks.fix || []),
    };
    const pinTargets = new Set(marks.pinTargets || []);
    for (const [name, c] of this.cells) {
      const present = !c.geo.s || pins.has(c.geo.s);
      const cls = ['cell', c.geo.d ? 'dark' : 'light'];
      if (c.geo.s) cls.push('carried');
      if (c.geo.i) cls.push('inverted');
      if (!present) cls.push('absent');
      if (c.geo.s && pinTargets.has(c.geo.s)) cls.push('pin-target');
      // A mark on a pin (a board move) shows on the board's squares.
      if (name === marks.from || c.geo.s && c.geo.s === marks.from) cls.push('last-from');
      if (name === marks.to || c.geo.s && c.geo.s === marks.to) cls.push('last-to');
      if (name === marks.check) cls.push('check');
      for (const k in sets) if (sets[k].has(name)) cls.push(k);
      const s = cls.join(' ');
      if (c.cls !== s) { c.g.setAttribute('class', s); c.cls = s; }
      const p = pieces[name] || null;
      if (p !== c.piece) {
        if (c.pg) { c.pg.remove(); c.pg = null; }
        if (p) c.pg = this.puck(c.g, p);
        c.piece = p;
      }
    }
  }
  puck(g, p) {
    const white = p === p.toUpperCase();
    const pg = el('g', {class: 'piece ' + (white ? 'white' : 'black'), 'data-piece': p}, g);
    el('image', {href: pieceURL(p), x: U * 0.04, y: U * 0.04, width: U * 0.92, height: U * 0.92}, pg);
    // The capture ring and the target dot stay on top of a piece.
    const ring = g.querySelector('.ring');
    if (ring) g.appendChild(ring);
    return pg;
  }
}

export const pieceNames = {P: 'pawn', N: 'knight', B: 'bishop', R: 'rook', Q: 'queen', K: 'king'};

// pieceURL is a piece's drawing (a letter, White's upper case): Colin M.L.
// Burnett's set, vendored under static/vendor/cburnett with its licence.
export function pieceURL(p) {
  return `/static/vendor/cburnett/${p === p.toUpperCase() ? 'w' : 'b'}${p.toUpperCase()}.svg`;
}

// pieceImage is a piece's drawing as an image (one per piece, all loaded
// once, piecesReady when they are), for the canvases: the wall's boards
// and the 3D view's sprites.
const pieceImages = new Map();
for (const p of 'KQRBNPkqrbnp') {
  const img = new Image(); img.src = pieceURL(p);
  pieceImages.set(p, img);
}
export function pieceImage(p) { return pieceImages.get(p); }

// pieceBitmap is a piece's drawing painted once per size on a canvas, or
// null while the drawing loads: a canvas is cheap to draw a hundred times
// a second, an SVG image is painted anew each time.
const bitmaps = new Map();
function pieceBitmap(p, s) {
  const key = p + s;
  let c = bitmaps.get(key);
  if (c) return c;
  const img = pieceImages.get(p);
  if (!img || !img.complete || !img.naturalWidth) return null;
  c = document.createElement('canvas'); c.width = c.height = s;
  c.getContext('2d').drawImage(img, 0, 0, s, s);
  bitmaps.set(key, c);
  return c;
}
export const piecesReady = Promise.all([...pieceImages.values()].map(img => img.decode().catch(() => {})));

// renderReserves fills el with each side's reserve (the pieces still to
// come in: {letter: count}), kind by kind with counts, labelled
// "reserve"; empty when there is none.
export function renderReserves(el, reserve) {
  const key = JSON.stringify(reserve || {});
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.replaceChildren();
  if (!reserve) return;
  for (const [side, upper] of [['white', true], ['black', false]]) {
    const kinds = 'KQRBNP'.split('').map(k => upper ? k : k.toLowerCase()).filter(l => reserve[l] > 0);
    if (!kinds.length) continue;
    const d = document.createElement('div');
    d.className = 'reserve ' + side; d.dataset.side = side;
    const words = kinds.map(l => `${reserve[l]} ${pieceNames[l.toUpperCase()]}${reserve[l] > 1 ? 's' : ''}`);
    d.setAttribute('aria-label', `${side === 'white' ? 'White' : 'Black'}'s reserve: ${words.join(', ')}`);
    const lab = document.createElement('span'); lab.className = 'rlabel';
    lab.textContent = (side === 'white' ? 'White' : 'Black') + ' reserve';
    d.appendChild(lab);
    for (const l of kinds) {
      const p = document.createElement('span'); p.className = 'rp'; p.dataset.piece = l; p.dataset.count = reserve[l];
      const b = document.createElement('b'); b.style.setProperty('--img', `url(${pieceURL(l)})`);
      p.append(b, '\u00d7' + reserve[l]);
      d.appendChild(p);
    }
    el.appendChild(d);
  }
}

// clockText is m:ss (h:mm:ss from an hour, tenths under 10 s).
export function clockText(ms) {
  if (ms < 0) ms = 0;
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// clockLeft is the time left of side ('white'/'black') at the browser's
// now, counted from the clock's at with the server's clock offset, so it
// never drifts.
export function clockLeft(clock, side, offset) {
  let ms = side === 'white' ? clock.white_ms : clock.black_ms;
  if (clock.running === side && !clock.paused && !clock.flag) {
    ms -= (Date.now() + offset) - Date.parse(clock.at);
  }
  return ms;
}

export const statusText = {
  in_sync: 'in sync', move_in_progress: 'move in progress', mismatch: 'MISMATCH',
  needs_choice: 'needs a choice', sensor_fault: 'SENSOR FAULT',
};


// MiniBoard is the wall's small board: the flat view painted on a canvas,
// cheaper to redraw for a hundred boards than SVG. Its data-pieces
// attribute holds the pieces drawn (cell -> letter), for tests and tools.
export class MiniBoard {
  constructor(container, lay) {
    this.lay = lay;
    this.pw = Math.max(...lay.panels.map(p => p.w));
    this.ph = Math.max(...lay.panels.map(p => p.h));
    this.cols = lay.panels.length * (this.pw + 1) - 1;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'mini-board';
    this.canvas.setAttribute('role', 'img');
    this.s = 0;
    this.cells = lay.cells.filter(c => !c.k);
    container.appendChild(this.canvas);
    this.size();
    // A square as many pixels as it has on the screen (12 to 96): sharp on
    // a 4K hall screen, cheap on a phone.
    this.ro = new ResizeObserver(() => { if (this.size() && this.last) this.draw(...this.last); });
    this.ro.observe(this.canvas);
  }
  size() {
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const s = Math.max(12, Math.min(96, Math.round((this.canvas.clientWidth || 12 * this.cols) * dpr / this.cols)));
    if (s === this.s) return false;
    this.s = s;
    this.canvas.width = this.cols * s; this.canvas.height = this.ph * s;
    return true;
  }
  draw(pos, marks = {}) {
    this.last = [pos, marks];
    const g = this.canvas.getContext('2d'), s = this.s, pins = new Set(pos.pins || []), pieces = pos.pieces || {};
    const fix = new Set(marks.fix || []);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const shown = [];
    for (const c of this.cells) {
      const present = !c.s || pins.has(c.s);
      const panel = this.lay.panels[c.p];
      const x = (c.p * (this.pw + 1) + c.px + Math.floor((this.pw - panel.w) / 2)) * s, y = c.py * s;
      if (!present) { g.strokeStyle = '#39434d'; g.lineWidth = 1; g.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1); continue; }
      // The flat view's colours (app.css).
      let fill = c.s ? (c.d ? '#666c72' : '#d4d8dc') : (c.d ? '#94704a' : '#ecdfc4');
      if (c.n === marks.from || c.s && c.s === marks.from) fill = '#001068';
      if (c.n === marks.to || c.s && c.s === marks.to) fill = '#56b4e9';
      if (fix.has(c.n)) fill = '#e69f00';
      if (c.n === marks.check) fill = '#801000';
      g.fillStyle = fill; g.fillRect(x, y, s, s);
      const p = pieces[c.n];
      if (!p) continue;
      shown.push([c.n, p]);
      const img = pieceBitmap(p, s);
      if (img) g.drawImage(img, x, y);
      else if (!this.waited) { this.waited = true; piecesReady.then(() => this.draw(...this.last)); }
    }
    shown.sort((a, b) => a[0] < b[0] ? -1 : 1);
    this.canvas.dataset.pieces = JSON.stringify(Object.fromEntries(shown));
  }
}

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

export class FlatBoard {
  constructor(container, lay, opts = {}) {
    this.lay = lay;
    this.small = !!opts.small;
    this.flip = false;
    this.cells = new Map(); // name -> {g, geo, piece, marks}
    const maxW = Math.max(...lay.panels.map(p => p.w)), maxH = Math.max(...lay.panels.map(p => p.h));
    this.pw = maxW; this.ph = maxH;
    const left = this.small ? 0 : U, top = this.small ? 0 : U * 1.2;
    this.left = left; this.top = top;
    const w = left + lay.panels.length * (maxW + 1) * U - U + (this.small ? 0 : U * 0.5);
    const h = top + maxH * U + (this.small ? 0 : U);
    this.svg = el('svg', {viewBox: `0 0 ${w} ${h}`, class: 'flat' + (this.small ? ' small' : ''), role: 'img'});
    this.labels = el('g', {class: 'labels'}, this.svg);
    const squares = el('g', {class: 'squares'}, this.svg);
    for (const geo of lay.cells) {
      if (geo.k) continue; // presence cells are not squares
      const g = el('g', {class: 'cell ' + (geo.d ? 'dark' : 'light') + (geo.s ? ' carried' : '') + (geo.i ? ' inverted' : ''), 'data-cell': geo.n}, squares);
      el('rect', {class: 'sq', width: U, height: U}, g);
      el('rect', {class: 'mark', x: 0.6, y: 0.6, width: U - 1.2, height: U - 1.2}, g);
      const title = el('title', {}, g); title.textContent = geo.n;
      this.cells.set(geo.n, {g, geo, piece: null, pg: null});
    }
    this.place();
    container.appendChild(this.svg);
  }
  // place puts every cell where the flip says.
  place() {
    const {pw, ph} = this;
    for (const c of this.cells.values()) {
      const {geo} = c;
      const panel = this.lay.panels[geo.p];
      let px = geo.px + Math.floor((pw - panel.w) / 2), py = geo.py;
      if (this.flip) { px = pw - 1 - px; py = ph - 1 - py; }
      const x = this.left + geo.p * (pw + 1) * U + px * U, y = this.top + py * U;
      c.g.setAttribute('transform', `translate(${x} ${y})`);
    }
    if (this.small) return;
    this.labels.replaceChildren();
    this.lay.panels.forEach((p, i) => {
      const t = el('text', {x: this.left + i * (pw + 1) * U + pw * U / 2, y: U * 0.9, class: 'panel-name'}, this.labels);
      t.textContent = p.name;
    });
    for (let r = 0; r < ph; r++) {
      const rank = this.lay.panels[0].h === 10 ? 9 - r : 8 - r;
      const t = el('text', {x: U * 0.5, y: this.top + (this.flip ? ph - 1 - r : r) * U + U * 0.68, class: 'rank'}, this.labels);
      t.textContent = rank;
    }
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
      if (!present) cls.push('absent');
      if (c.geo.s && pinTargets.has(c.geo.s)) cls.push('pin-target');
      if (name === marks.from) cls.push('last-from');
      if (name === marks.to) cls.push('last-to');
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
    // A mark on a pin (a board move) shows on the board's squares.
    for (const c of this.cells.values()) {
      if (c.geo.s && (c.geo.s === marks.from || c.geo.s === marks.to)) {
        const k = c.geo.s === marks.from ? 'last-from' : 'last-to';
        c.g.classList.add(k); c.cls += ' ' + k;
      }
    }
  }
  puck(g, p) {
    const white = p === p.toUpperCase();
    const pg = el('g', {class: 'piece ' + (white ? 'white' : 'black'), 'data-piece': p}, g);
    el('circle', {cx: U / 2, cy: U / 2, r: U * 0.42}, pg);
    const t = el('text', {x: U / 2, y: U / 2 + U * 0.22}, pg);
    t.textContent = p.toUpperCase();
    return pg;
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

// puckImage is a piece's puck painted once per size, for the mini boards.
const pucks = new Map();
function puckImage(p, s) {
  const key = p + s;
  let c = pucks.get(key);
  if (c) return c;
  c = document.createElement('canvas'); c.width = c.height = s;
  const g = c.getContext('2d'), white = p === p.toUpperCase();
  g.beginPath(); g.arc(s / 2, s / 2, s * 0.42, 0, Math.PI * 2);
  g.fillStyle = white ? '#fff' : '#111'; g.fill();
  g.lineWidth = Math.max(1, s / 14); g.strokeStyle = white ? '#000' : '#fff'; g.stroke();
  g.fillStyle = white ? '#000' : '#fff';
  g.textAlign = 'center'; g.textBaseline = 'middle'; g.font = `bold ${Math.round(s * 0.62)}px sans-serif`;
  g.fillText(p.toUpperCase(), s / 2, s / 2 + s * 0.04);
  pucks.set(key, c);
  return c;
}

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
    const s = 12, dpr = Math.min(2, window.devicePixelRatio || 1);
    this.s = s * dpr;
    this.canvas.width = this.cols * this.s; this.canvas.height = this.ph * this.s;
    this.cells = lay.cells.filter(c => !c.k);
    container.appendChild(this.canvas);
  }
  draw(pos, marks = {}) {
    const g = this.canvas.getContext('2d'), s = this.s, pins = new Set(pos.pins || []), pieces = pos.pieces || {};
    const fix = new Set(marks.fix || []);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    const shown = [];
    for (const c of this.cells) {
      const present = !c.s || pins.has(c.s);
      const panel = this.lay.panels[c.p];
      const x = (c.p * (this.pw + 1) + c.px + Math.floor((this.pw - panel.w) / 2)) * s, y = c.py * s;
      if (!present) { g.strokeStyle = '#39434d'; g.lineWidth = 1; g.strokeRect(x + 0.5, y + 0.5, s - 1, s - 1); continue; }
      let fill = c.s ? (c.d ? '#5d7a93' : '#d9e6f0') : (c.d ? '#8a6a45' : '#efe2c0');
      if (c.n === marks.from || c.n === marks.to || c.s && (c.s === marks.from || c.s === marks.to)) fill = '#f2d048';
      if (fix.has(c.n)) fill = '#ff8c1a';
      if (c.n === marks.check) fill = '#ff5a4a';
      g.fillStyle = fill; g.fillRect(x, y, s, s);
      const p = pieces[c.n];
      if (!p) continue;
      shown.push([c.n, p]);
      g.drawImage(puckImage(p, s), x, y);
    }
    shown.sort((a, b) => a[0] < b[0] ? -1 : 1);
    this.canvas.dataset.pieces = JSON.stringify(Object.fromEntries(shown));
  }
}

// The 3D view: every square a tile at its height, attack boards and
// platforms on posts at their pins, pieces as figures with their drawing
// (the flat view's set) above them,
// turned by mouse or touch (OrbitControls). It renders only when something
// changed.
import * as THREE from 'three';
import {OrbitControls} from 'three/addons/OrbitControls.js';
import {pieceImage, piecesReady} from '/static/flat.js';

// The marks' colours are the flat view's (Okabe-Ito, app.css); targets are
// dots and captures rings on the square, as there.
const COLORS = {
  light: 0xecdfc4, dark: 0x94704a, clight: 0xd4d8dc, cdark: 0x666c72, from: 0x001068, to: 0x56b4e9, target: 0x1820c0,
  capture: 0x782000, lifted: 0x3a0ca3, fix: 0xe69f00, check: 0x801000, pinTarget: 0x009e73,
};
// Level plates: a tint under each fixed level, so the levels read apart.
const PLATES = [0x2f5d8a, 0x4f7a3a, 0x7a3a5d];

function labelSprite(text) {
  const c = document.createElement('canvas'); c.width = 256; c.height = 128;
  const g = c.getContext('2d');
  g.fillStyle = 'rgba(0,0,0,0.6)'; g.fillRect(0, 0, 256, 128);
  g.fillStyle = '#fff'; g.font = 'bold 80px sans-serif'; g.textAlign = 'center'; g.textBaseline = 'middle';
  g.fillText(text, 128, 68);
  const t = new THREE.CanvasTexture(c); t.colorSpace = THREE.SRGBColorSpace;
  const s = new THREE.Sprite(new THREE.SpriteMaterial({map: t, depthTest: false}));
  s.scale.set(1.6, 0.8, 1); s.renderOrder = 20;
  return s;
}

// pieceTexture is a piece's drawing (the flat view's set) on a light
// disc, for the sprite above its figure; drawn again when the drawings
// have loaded (then).
const pieceTex = new Map();
function pieceTexture(letter, then) {
  if (pieceTex.has(letter)) return pieceTex.get(letter);
  const c = document.createElement('canvas'); c.width = c.height = 128;
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  const paint = () => {
    const g = c.getContext('2d'), img = pieceImage(letter);
    g.clearRect(0, 0, 128, 128);
    g.fillStyle = 'rgba(236, 223, 196, 0.92)';
    g.beginPath(); g.arc(64, 64, 62, 0, Math.PI * 2); g.fill();
    g.lineWidth = 4; g.strokeStyle = '#222'; g.stroke();
    if (img && img.complete && img.naturalWidth) g.drawImage(img, 10, 10, 108, 108);
    t.needsUpdate = true;
  };
  paint();
  piecesReady.then(() => { paint(); then(); });
  pieceTex.set(letter, t);
  return t;
}

// Piece profiles for the lathe, by kind: a rough chess figure each.
const PROFILES = {
  P: [[0.3, 0], [0.3, 0.08], [0.16, 0.14], [0.1, 0.35], [0.16, 0.45], [0.0, 0.58]],
  N: [[0.32, 0], [0.32, 0.08], [0.18, 0.16], [0.14, 0.5], [0.2, 0.62], [0.0, 0.72]],
  B: [[0.32, 0], [0.32, 0.08], [0.16, 0.16], [0.1, 0.5], [0.18, 0.62], [0.0, 0.82]],
  R: [[0.33, 0], [0.33, 0.08], [0.2, 0.16], [0.2, 0.55], [0.27, 0.6], [0.27, 0.72], [0.0, 0.72]],
  Q: [[0.34, 0], [0.34, 0.08], [0.18, 0.18], [0.12, 0.62], [0.24, 0.8], [0.0, 0.92]],
  K: [[0.34, 0], [0.34, 0.08], [0.18, 0.18], [0.13, 0.68], [0.24, 0.82], [0.0, 1.0]],
};
const lathes = {};
function lathe(kind) {
  if (!lathes[kind]) lathes[kind] = new THREE.LatheGeometry((PROFILES[kind] || PROFILES.P).map(([x, y]) => new THREE.Vector2(x, y)), 24);
  return lathes[kind];
}

export class View3D {
  constructor(container, lay) {
    this.container = container;
    this.lay = lay;
    // Millennium's levels stand 3 apart on 8x8 boards: drawn twice as far
    // apart, and seen from lower, they read as three boards.
    const mill = lay.panels[0].w === 8 && lay.panels[0].h === 8;
    const scale = mill ? 2 : 1.25;
    this.scale = scale; this.mill = mill;
    const canvas = document.createElement('canvas');
    canvas.className = 'gl';
    const renderer = new THREE.WebGLRenderer({canvas, antialias: true, alpha: true, preserveDrawingBuffer: true});
    if (!renderer.getContext()) throw new Error('no WebGL');
    this.renderer = renderer;
    renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    container.appendChild(canvas);
    const scene = this.scene = new THREE.Scene();
    scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6); sun.position.set(5, 12, 8); scene.add(sun);
    let minX = 1e9, maxX = -1e9, minY = 1e9, maxY = -1e9, maxH = 0;
    for (const c of lay.cells) { minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x); minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y); maxH = Math.max(maxH, c.h); }
    this.cx = (minX + maxX) / 2; this.cy = (minY + maxY) / 2; this.minX = minX;
    // The box every square and piece stands in, for framing it whole.
    this.box = new THREE.Box3(new THREE.Vector3(minX - this.cx - 0.6, -0.3, -(maxY - this.cy) - 0.6),
      new THREE.Vector3(maxX - this.cx + 0.6, maxH * scale + 1.4, -(minY - this.cy) + 0.6));
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.1, 400);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.render());
    // The camera keeps the set in view: above the board, between half and
    // twice the framed distance, turned about the set's centre (no pan).
    this.controls.enablePan = false;
    this.controls.minPolarAngle = 0.05; this.controls.maxPolarAngle = 1.35;
    this.controls.addEventListener('start', () => { this.moved = true; });
    // Touch: one finger scrolls the page (a vertical swipe is the page's),
    // two fingers turn and zoom; turning with one finger is a toggle.
    this.setTouchTurn(false);
    const tileGeo = new THREE.BoxGeometry(0.96, 0.08, 0.96);
    this.tiles = new Map();
    this.pieces = new Map();
    this.posts = new Map();
    const postGeo = new THREE.CylinderGeometry(0.06, 0.06, 1, 8);
    const postMat = new THREE.MeshStandardMaterial({color: 0x999999, metalness: 0.6, roughness: 0.4});
    for (const c of lay.cells) {
      if (c.k) {
        const post = new THREE.Mesh(postGeo, postMat);
        const len = scale; // from its fixed level to the board
        post.scale.y = len;
        post.position.set(c.x - this.cx, c.h * scale - (c.i ? -len / 2 : len / 2), -(c.y - this.cy));
        scene.add(post); this.posts.set(c.n, post);
        continue;
      }
      const mat = new THREE.MeshStandardMaterial({color: this.base(c), roughness: 0.8, transparent: true, opacity: 0.92});
      const t = new THREE.Mesh(tileGeo, mat);
      t.position.set(c.x - this.cx, c.h * scale, -(c.y - this.cy));
      t.userData = c;
      scene.add(t); this.tiles.set(c.n, t);
    }
    this.plates(lay);
    this.marks = new Map(); // name -> mark mesh (dot or ring)
    this.dotGeo = new THREE.CircleGeometry(0.17, 20); this.dotGeo.rotateX(-Math.PI / 2);
    this.ringGeo = new THREE.RingGeometry(0.36, 0.46, 28); this.ringGeo.rotateX(-Math.PI / 2);
    this.flip = false;
    this.ro = new ResizeObserver(() => this.resize());
    this.ro.observe(container);
    this.resize();
  }
  // plates puts a tinted plate under each fixed level and its name beside
  // it, so that the levels' heights read apart.
  plates(lay) {
    const byPanel = new Map();
    for (const c of lay.cells) {
      if (c.k || c.s) continue;
      const b = byPanel.get(c.p) || {x0: 1e9, x1: -1e9, y0: 1e9, y1: -1e9, h: c.h};
      b.x0 = Math.min(b.x0, c.x); b.x1 = Math.max(b.x1, c.x); b.y0 = Math.min(b.y0, c.y); b.y1 = Math.max(b.y1, c.y);
      byPanel.set(c.p, b);
    }
    for (const [p, b] of byPanel) {
      const w = b.x1 - b.x0 + 1.3, d = b.y1 - b.y0 + 1.3;
      const plate = new THREE.Mesh(new THREE.BoxGeometry(w, 0.06, d), new THREE.MeshStandardMaterial({color: PLATES[p % 3], roughness: 0.9}));
      plate.position.set((b.x0 + b.x1) / 2 - this.cx, b.h * this.scale - 0.07, -((b.y0 + b.y1) / 2 - this.cy));
      this.scene.add(plate);
      const name = lay.panels[p].name.replace('Level ', '');
      const label = labelSprite(name);
      label.position.set(this.minX - this.cx - 2, b.h * this.scale + 0.3, -((b.y0 + b.y1) / 2 - this.cy));
      this.scene.add(label);
      this.box.expandByPoint(label.position.clone().add(new THREE.Vector3(-0.8, 0, 0)));
    }
  }
  setFlip(f) {
    this.flip = !!f;
    this.moved = false;
    this.frame();
  }
  // setTouchTurn gives one finger the turning (on) or the page's scroll
  // (off, the default): OrbitControls takes every touch otherwise.
  setTouchTurn(on) {
    this.touchTurn = !!on;
    this.controls.touches = {ONE: on ? THREE.TOUCH.ROTATE : null, TWO: THREE.TOUCH.DOLLY_ROTATE};
    this.renderer.domElement.style.touchAction = on ? 'none' : 'pan-y';
  }
  // reset frames the set again as it came, whatever the turning did.
  reset() { this.moved = false; this.frame(); }
  // frame points the camera from the player's side, turned a little and
  // raised, as far as it must be to show every square and piece whole.
  frame() {
    const s = this.flip ? -1 : 1;
    const az = 0.45 * s, el = this.mill ? 0.42 : 0.62; // radians
    const dir = new THREE.Vector3(Math.sin(az) * Math.cos(el) * s, Math.sin(el), Math.cos(az) * Math.cos(el) * s).normalize();
    const center = this.box.getCenter(new THREE.Vector3());
    const corners = [];
    for (const x of [this.box.min.x, this.box.max.x]) for (const y of [this.box.min.y, this.box.max.y]) for (const z of [this.box.min.z, this.box.max.z]) corners.push(new THREE.Vector3(x, y, z));
    const fits = d => {
      this.camera.position.copy(center).addScaledVector(dir, d);
      this.camera.lookAt(center);
      this.camera.updateMatrixWorld(); this.camera.updateProjectionMatrix();
      return corners.every(c => { const p = c.clone().project(this.camera); return Math.abs(p.x) <= 0.96 && Math.abs(p.y) <= 0.96 && p.z < 1; });
    };
    let lo = 1, hi = 400;
    for (let i = 0; i < 40; i++) { const mid = (lo + hi) / 2; if (fits(mid)) hi = mid; else lo = mid; }
    fits(hi);
    this.framed = hi;
    this.controls.minDistance = hi * 0.5; this.controls.maxDistance = hi * 2;
    this.controls.target.copy(center);
    this.controls.update();
    this.render();
  }
  resize() {
    const w = this.container.clientWidth || 600, h = this.container.clientHeight || 400;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h; this.camera.updateProjectionMatrix();
    // A new size frames the set again, unless the viewer turned it.
    if (!this.moved) this.frame();
    // setSize cleared the canvas: draw at once, not at the next frame.
    this.declutter();
    this.renderer.render(this.scene, this.camera);
  }
  base(c) { return c.s ? (c.d ? COLORS.cdark : COLORS.clight) : (c.d ? COLORS.dark : COLORS.light); }
  // mark puts a dot (a target) or a ring (a capture) on a square, or
  // none.
  mark(n, t, kind) {
    let m = this.marks.get(n);
    if (m && m.userData.kind !== kind) { this.scene.remove(m); this.marks.delete(n); m = null; }
    if (!kind || m) return;
    m = new THREE.Mesh(kind === 'dot' ? this.dotGeo : this.ringGeo, new THREE.MeshBasicMaterial({color: kind === 'dot' ? COLORS.target : COLORS.capture, depthTest: false}));
    m.renderOrder = 5; m.userData.kind = kind;
    m.position.copy(t.position); m.position.y += 0.06;
    this.scene.add(m); this.marks.set(n, m);
  }
  draw(pos, mk = {}) {
    this.drawn = true;
    const pins = new Set(pos.pins || []), pieces = pos.pieces || {};
    const sets = {lifted: mk.lifted, target: mk.targets, capture: mk.captures, fix: mk.fix};
    for (const k in sets) sets[k] = new Set(sets[k] || []);
    const pinT = new Set(mk.pinTargets || []);
    for (const [n, p] of this.posts) p.visible = pins.has(n);
    for (const [n, t] of this.tiles) {
      const c = t.userData;
      const present = !c.s || pins.has(c.s);
      let color = this.base(c);
      if (n === mk.from || c.s && c.s === mk.from) color = COLORS.from;
      if (n === mk.to || c.s && c.s === mk.to) color = COLORS.to;
      this.mark(n, t, present && sets.capture.has(n) ? 'ring' : present && sets.target.has(n) ? 'dot' : null);
      if (sets.lifted.has(n)) color = COLORS.lifted;
      if (sets.fix.has(n)) color = COLORS.fix;
      if (n === mk.check) color = COLORS.check;
      if (!present && c.s && pinT.has(c.s)) { t.visible = true; t.material.color.setHex(COLORS.pinTarget); t.material.opacity = 0.45; continue; }
      t.visible = present;
      t.material.color.setHex(color); t.material.opacity = 0.92;
    }
    for (const [n, obj] of this.pieces) {
      if (pieces[n] !== obj.userData.letter) { this.scene.remove(obj); this.pieces.delete(n); }
    }
    for (const n in pieces) {
      if (this.pieces.has(n)) continue;
      const t = this.tiles.get(n);
      if (!t) continue;
      const letter = pieces[n], white = letter === letter.toUpperCase(), kind = letter.toUpperCase();
      const g = new THREE.Group();
      const body = new THREE.Mesh(lathe(kind), new THREE.MeshStandardMaterial({color: white ? 0xf4f1ea : 0x222222, roughness: 0.5}));
      body.scale.setScalar(0.9);
      g.add(body);
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({map: pieceTexture(letter, () => this.render()), depthTest: false}));
      sprite.scale.set(0.46, 0.46, 1); sprite.position.y = PROFILES[kind] ? PROFILES[kind][PROFILES[kind].length - 1][1] * 0.9 + 0.22 : 1;
      sprite.renderOrder = 10;
      g.add(sprite);
      g.position.copy(t.position); g.position.y += 0.04;
      g.userData.letter = letter;
      this.scene.add(g); this.pieces.set(n, g);
    }
    this.render();
  }
  render() {
    if (this.pending || this.disposed) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.declutter();
      this.renderer.render(this.scene, this.camera);
      // Frames drawn since the pieces were first placed, for tests.
      if (this.drawn) this.container.dataset.frames = (+this.container.dataset.frames || 0) + 1;
    });
  }
  // declutter shows the pieces' letters that do not collide on the screen:
  // the nearest first, a letter hidden where it would overlap one shown
  // (the piece's figure still shows). this.labels are the letters shown,
  // as screen boxes, for tests.
  declutter() {
    const w = this.container.clientWidth || 600, h = this.container.clientHeight || 400;
    const cam = this.camera.position, up = new THREE.Vector3(0, 1, 0).applyQuaternion(this.camera.quaternion);
    const items = [];
    for (const [n, g] of this.pieces) {
      const sp = g.children[1];
      const c = sp.getWorldPosition(new THREE.Vector3());
      const p = c.clone().project(this.camera), q = c.clone().addScaledVector(up, sp.scale.y / 2).project(this.camera);
      const r = Math.abs(q.y - p.y) * h / 2;
      items.push({n, sp, d: c.distanceTo(cam), x: (p.x + 1) * w / 2, y: (1 - p.y) * h / 2, r});
    }
    items.sort((a, b) => a.d - b.d);
    const shown = [];
    for (const it of items) {
      const hit = shown.some(o => Math.abs(o.x - it.x) < o.r + it.r && Math.abs(o.y - it.y) < o.r + it.r);
      it.sp.visible = !hit;
      if (!hit) shown.push(it);
    }
    this.labels = shown.map(o => ({n: o.n, x: o.x, y: o.y, r: o.r}));
  }
  dispose() {
    this.disposed = true;
    this.ro.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    delete this.container.dataset.frames;
  }
}

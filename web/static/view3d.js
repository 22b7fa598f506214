// The 3D view: every square a tile at its height, attack boards and
// platforms on posts at their pins, pieces as pucks with their letter,
// turned by mouse or touch (OrbitControls). It renders only when something
// changed.
import * as THREE from 'three';
import {OrbitControls} from 'three/addons/OrbitControls.js';

const COLORS = {
  light: 0xe8d9b5, dark: 0x8a6a45, from: 0xf2d048, to: 0xf7e04a, target: 0x3ccf5a, capture: 0xe0452f,
  lifted: 0x3a8dde, fix: 0xff8c1a, check: 0xd11a1a, pinTarget: 0x7fd88f,
};

const letterTex = new Map();
function letterTexture(letter, white) {
  const key = letter + (white ? 'w' : 'b');
  if (letterTex.has(key)) return letterTex.get(key);
  const c = document.createElement('canvas'); c.width = c.height = 128;
  const g = c.getContext('2d');
  g.fillStyle = white ? '#ffffff' : '#151515';
  g.beginPath(); g.arc(64, 64, 62, 0, Math.PI * 2); g.fill();
  g.lineWidth = 6; g.strokeStyle = white ? '#000' : '#fff'; g.stroke();
  g.fillStyle = white ? '#000' : '#fff';
  g.font = 'bold 92px sans-serif'; g.textAlign = 'center'; g.textBaseline = 'middle';
  g.fillText(letter, 64, 70);
  const t = new THREE.CanvasTexture(c);
  t.colorSpace = THREE.SRGBColorSpace;
  letterTex.set(key, t);
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
    const scale = lay.panels[0].w === 8 ? 1 : 1.25;
    this.scale = scale;
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
    this.cx = (minX + maxX) / 2; this.cy = (minY + maxY) / 2;
    const span = Math.max(maxX - minX, maxY - minY, maxH * scale) + 2;
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.1, 200);
    this.span = span;
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(0, maxH * scale / 2, 0);
    this.controls.addEventListener('change', () => this.render());
    this.setFlip(false);
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
      const mat = new THREE.MeshStandardMaterial({color: c.d ? COLORS.dark : COLORS.light, roughness: 0.8, transparent: true, opacity: 0.92});
      const t = new THREE.Mesh(tileGeo, mat);
      t.position.set(c.x - this.cx, c.h * scale, -(c.y - this.cy));
      t.userData = c;
      scene.add(t); this.tiles.set(c.n, t);
    }
    this.ro = new ResizeObserver(() => this.resize());
    this.ro.observe(container);
    this.resize();
  }
  setFlip(f) {
    this.flip = !!f;
    const d = this.span * 1.05, s = this.flip ? -1 : 1;
    this.camera.position.set(0, this.controls.target.y + d * 0.85, s * d);
    this.controls.update();
    this.render();
  }
  resize() {
    const w = this.container.clientWidth || 600, h = this.container.clientHeight || 400;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h; this.camera.updateProjectionMatrix();
    this.render();
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
      let color = c.d ? COLORS.dark : COLORS.light;
      if (n === mk.from || c.s && c.s === mk.from) color = COLORS.from;
      if (n === mk.to || c.s && c.s === mk.to) color = COLORS.to;
      if (sets.target.has(n)) color = COLORS.target;
      if (sets.capture.has(n)) color = COLORS.capture;
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
      const sprite = new THREE.Sprite(new THREE.SpriteMaterial({map: letterTexture(kind, white), depthTest: false}));
      sprite.scale.set(0.42, 0.42, 1); sprite.position.y = 1.1;
      sprite.renderOrder = 10;
      g.add(sprite);
      g.position.copy(t.position); g.position.y += 0.04;
      g.userData.letter = letter;
      this.scene.add(g); this.pieces.set(n, g);
    }
    this.render();
  }
  render() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderer.render(this.scene, this.camera);
      // Frames drawn since the pieces were first placed, for tests.
      if (this.drawn) this.container.dataset.frames = (+this.container.dataset.frames || 0) + 1;
    });
  }
  dispose() {
    this.ro.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
    delete this.container.dataset.frames;
  }
}

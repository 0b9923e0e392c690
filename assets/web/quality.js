// The quality tier (issue 15): the fast path for software GL (llvmpipe, SwiftShader: the picture as the pack
// bakes it, no antialiasing), and on a real GPU a high tier: antialiasing, the screen's pixel ratio, a sky
// dome in a gradient and the sun's shadows of the people and things that move (a shadow map drawn each frame onto
// shadow-only planes on the court and the 堂 floor; the static shadows are baked in the pack already).
//
// The tier is chosen before the renderer exists (antialiasing is fixed at context creation):
//   requested 'fast' | 'high' force it; 'auto' (default) reads the WebGL renderer string and takes the fast
//   path for a software rasteriser.  The request comes from the player's option `quality`, else from
//   localStorage 'xsl-quality' (the page's ?quality= stores it), else 'auto'.  In 'auto', a high tier whose
//   first 40 frames take more than 40 ms each turns its shadows off and drops to pixel ratio 1.
import * as THREE from './vendor/three.module.js';

export const TIERS = ['auto', 'fast', 'high'];
const SOFTWARE = /llvmpipe|swiftshader|softpipe|software|lavapipe|basic render|mesa offscreen/i;

export function rendererString() {
  try {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2') || c.getContext('webgl');
    if (!gl) return '';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const s = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return s;
  } catch (e) {
    return '';
  }
}

export function chooseTier(requested) {
  let req = requested;
  if (!req) {
    try { req = localStorage.getItem('xsl-quality') || 'auto'; } catch (e) { req = 'auto'; }
  }
  if (!TIERS.includes(req)) req = 'auto';
  const gpu = rendererString();
  const software = SOFTWARE.test(gpu);
  const tier = req === 'auto' ? (software || !gpu ? 'fast' : 'high') : req;
  const why = req === 'auto' ? (software ? 'software GL: fast path' : gpu ? 'GPU: high tier' : 'no renderer string: fast path')
    : `forced ${req}`;
  return { requested: req, tier, renderer: gpu, software, why };
}

// a sky dome (vertex colours, top to horizon), on the static layers' layer
function skyDome(top, bottom, centre, layer) {
  const R = 300;                      // inside the far plane of every view the player sets
  const g = new THREE.SphereGeometry(R, 24, 12);
  const pos = g.attributes.position;
  const a = new THREE.Color(top), c = new THREE.Color(bottom), col = [];
  for (let i = 0; i < pos.count; i++) {
    const k = Math.max(0, Math.min(1, pos.getY(i) / R * 2));       // Y of the sphere becomes up (+z)
    const m = c.clone().lerp(a, k);
    col.push(m.r, m.g, m.b);
  }
  g.setAttribute('color', new THREE.Float32BufferAttribute(col, 3));
  g.rotateX(Math.PI / 2);
  const mesh = new THREE.Mesh(g, new THREE.MeshBasicMaterial({ vertexColors: true, side: THREE.BackSide, depthWrite: false }));
  mesh.position.set(centre[0], centre[1], 0);
  mesh.renderOrder = -1;
  mesh.frustumCulled = false;
  mesh.name = 'sky';
  mesh.layers.set(layer);
  return mesh;
}

// The high tier's additions to a loaded pack: a sun that casts the moving things' shadows (the dynamic
// batch) onto shadow-only planes on the floors, and the sky gradient.
export class HighTier {
  constructor(player, manifest, root) {
    this.player = player;
    const r = player.renderer;
    r.shadowMap.enabled = true;
    r.shadowMap.type = THREE.PCFShadowMap;
    const b = manifest.bounds_m || [-15, 15, -80, 15, 0, 10];
    const sun = (manifest.sun && manifest.sun.dir) || [-0.38, 0.62, -0.69];
    const cx = (b[0] + b[1]) / 2, cy = (b[2] + b[3]) / 2;
    const span = Math.max(b[1] - b[0], b[3] - b[2]) / 2 + 4;
    const light = new THREE.DirectionalLight(0xffffff, 1);
    light.position.set(cx - sun[0] * 80, cy - sun[1] * 80, -sun[2] * 80);
    light.target.position.set(cx, cy, 0);
    light.castShadow = true;
    light.shadow.mapSize.set(4096, 4096);
    const cam = light.shadow.camera;
    cam.left = -span; cam.right = span; cam.top = span; cam.bottom = -span; cam.near = 1; cam.far = 200;
    light.shadow.bias = -0.0005;
    this.light = light;
    root.add(light, light.target);
    const mat = new THREE.ShadowMaterial({ opacity: 0.32, depthWrite: false });
    mat.polygonOffset = true; mat.polygonOffsetFactor = -1; mat.polygonOffsetUnits = -4;
    this.mat = mat;
    this.planes = [];
    // the court, and the part of the 堂 the sun reaches (under the roof the baked floor is in shade already)
    const floors = [[b[0], b[1], b[2], b[3], 0]].concat((manifest.sun && manifest.sun.lit_floors) || []);
    for (const [x0, x1, y0, y1, z] of floors) {
      const g = new THREE.PlaneGeometry(x1 - x0, y1 - y0);
      const m = new THREE.Mesh(g, mat);
      m.position.set((x0 + x1) / 2, (y0 + y1) / 2, z + 0.01);
      m.receiveShadow = true;
      m.renderOrder = 4;
      m.name = 'sun-shadow-receiver';
      root.add(m);
      this.planes.push(m);
    }
    if (player.batch) player.batch.mesh.castShadow = true;
    for (const A of player.actors) for (const m of Object.values(A.meshes)) m.castShadow = true;
    for (const O of player.objects) for (const m of Object.values(O.meshes)) m.castShadow = true;
    this.sky = skyDome('#b9cde0', '#efe9dc', [cx, cy], player.staticCache ? 1 : 0);
    root.add(this.sky);
    this.frames = [];
  }

  // 'auto' only: give up the shadows when the first frames show the machine cannot afford them
  onFrame(ms) {
    if (this.demoted || this.player.qualityInfo.requested !== 'auto') return;
    this.frames.push(ms);
    if (this.frames.length < 40) return;
    const f = this.frames.slice().sort((a, b) => a - b)[20];
    if (f > 40) this.demote();
    this.frames = [];
  }

  demote() {
    this.demoted = true;
    this.player.qualityInfo.why += '; the first frames took over 40 ms: sun shadows off';
    this.light.castShadow = false;
    for (const p of this.planes) p.visible = false;
    this.player.renderer.setPixelRatio(this.player.adaptive ? this.player.adaptive.scale() : this.player.renderScale);
    this.player.redrawStatic();
    this.player.requestRedraw();
  }

  dispose() {
    for (const p of this.planes) { p.geometry.dispose(); p.removeFromParent(); }
    this.mat.dispose();
    this.light.shadow.dispose();
    this.light.removeFromParent();
    this.light.target.removeFromParent();
    this.sky.geometry.dispose();
    this.sky.material.dispose();
    this.sky.removeFromParent();
  }
}

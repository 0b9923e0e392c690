// The plan view fitted to the frame (issue 27).  Why a module of its own: the pack's plan cameras frame a
// 16:9 still with north up, so the court (about 28 m wide and 90 m long) was a narrow strip in a wide
// window, with the caption band over its southern half.  Here the region the preset frames (cut to the
// scene's bounds) is fitted into the part of the view that the caption band (below) and the row of tools
// (above) leave free, turned a quarter so that its long side lies along the frame's long side when that
// shows it clearly larger (> 15 %): then east is up, the 堂 on the left and the 侯 on the right — the way the
// arrows fly.  Otherwise north stays up (a portrait screen, the square region of the 堂 and the north court).

// the room the caption band takes at the foot of the view (captions.js: 48 px up, a font of 4.7 % of the
// height): a phrase of up to 18 characters and a sentence of the seed of up to 50 at 0.62 of it, wrapped
// at 96 % of the width
export function captionRoom(w, h) {
  const font = Math.max(16, Math.ceil(0.047 * h)), line = 0.96 * w;
  const phrase = Math.ceil(18 * font / line), sentence = Math.ceil(50 * 0.62 * font / line);
  return 56 + font * (1.25 * phrase + 0.8 * sentence);
}

// c: the preset (parallel), bounds: the pack's bounds_m [x0, x1, y0, y1, z0, z1], w/h: the view in px;
// reserve {top, bottom} px.  Returns a camera for applyCamera (parallel_scale at 16:9: divided by widen).
export function fitPlan(c, bounds, w, h, reserve = {}, widen = 1) {
  if (!c || !c.parallel || !bounds || !(w > 0 && h > 0)) return c;
  const s = c.parallel_scale, f = c.focal_point;
  // the region the preset shows at 16:9, within the scene
  const x0 = Math.max(bounds[0], f[0] - s * 16 / 9), x1 = Math.min(bounds[1], f[0] + s * 16 / 9);
  const y0 = Math.max(bounds[2], f[1] - s), y1 = Math.min(bounds[3], f[1] + s);
  if (!(x1 > x0 && y1 > y0)) return c;
  const top = Math.min(reserve.top ?? 52, h * 0.2), bottom = Math.min(reserve.bottom ?? captionRoom(w, h), h * 0.4);
  const H = Math.max(40, h - top - bottom), W = w;
  const margin = 1.06;
  const north = Math.max((x1 - x0) / W, (y1 - y0) / H) * margin;     // metres per px, north up
  const east = Math.max((y1 - y0) / W, (x1 - x0) / H) * margin;      // metres per px, east up
  const turn = east < north / 1.15;
  const mpp = turn ? east : north;
  const up = turn ? [1, 0, 0] : [0, 1, 0];
  // the region's centre in the middle of the free band (above the frame's centre when the band below is the
  // larger): the camera looks that far "below" it
  const shift = (bottom - top) / 2 * mpp;
  const cx = (x0 + x1) / 2 - up[0] * shift, cy = (y0 + y1) / 2 - up[1] * shift;
  const z = c.position[2];
  return Object.assign({}, c, { position: [cx, cy, z], focal_point: [cx, cy, 0], view_up: up,
    parallel_scale: (mpp * h / 2) / widen, fitted: true });
}

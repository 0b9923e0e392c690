// A presenter's state as a follower may apply it (assets/web/app.js follow): the server checked it, and this
// checks again — a page must not break on what another tab sent.  ``views``: the view names the page knows.
const finite = (x) => typeof x === 'number' && Number.isFinite(x);
const vec3 = (v) => Array.isArray(v) && v.length === 3 && v.every((c) => finite(c) && Math.abs(c) <= 1e4);
export function liveOk(live, views) {
  if (!live || typeof live !== 'object') return false;
  if (!Number.isInteger(live.stage) || !finite(live.t) || live.t < 0) return false;
  if (typeof live.playing !== 'boolean' || !finite(live.speed) || live.speed <= 0 || live.speed > 16) return false;
  if (live.view !== undefined && live.view !== null && !views.includes(live.view)) return false;
  if (!finite(live.client_ms)) return false;
  if (live.reading !== null && live.reading !== undefined && (typeof live.reading !== 'string' || live.reading.length > 300)) return false;
  if (live.chapter !== null && live.chapter !== undefined && (typeof live.chapter !== 'string' || live.chapter.length > 40)) return false;
  const c = live.camera;
  if (c !== null && c !== undefined) {
    if (typeof c !== 'object' || !vec3(c.position) || !vec3(c.focal_point) || !vec3(c.view_up)) return false;
    if (!finite(c.view_angle) || c.view_angle < 1 || c.view_angle > 120 || typeof c.parallel !== 'boolean') return false;
    if (!finite(c.parallel_scale) || c.parallel_scale <= 0) return false;
  }
  return true;
}

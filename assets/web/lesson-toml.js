// A lesson as TOML, both ways, in the page (issue 27).  Why a module of its own: 存 wrote TOML and 開 read
// only JSON, so a teacher could not open what she had saved.  This writes the format scene/web/lessons.py
// reads (assets/lessons/*.toml, its module doc) and reads it back: the subset of TOML a lesson uses — bare
// keys, "basic" and 'literal' strings, numbers, booleans, arrays of numbers, inline tables, [[stop]] tables
// and comments.  Each string is escaped (a caption with quotes, a newline or `]` cannot start a stop of its
// own) and only finite numbers are written.  A stop may name a stage (and a step of it) with t seconds into
// it, as the shipped lessons do; `resolveLesson` turns that into the rite's absolute time, as lessons.py does.

export class LessonFileError extends Error {}

const VIEWS = ['auto', 'overview', 'hall', 'range', 'plan', 'archer', 'target', 'guest'];
const STOP_KEYS = new Set(['stage', 'step', 't', 'view', 'camera', 'caption', 'en', 'play', 'speed', 'act']);

// ---------------------------------------------------------------- writing
// a TOML basic string: every character TOML forbids raw (", \, the controls, DEL) escaped, lone surrogates
// replaced (TOML text is UTF-8: a half of a surrogate pair is not a character)
export function tomlString(s) {
  let out = '"';
  for (const ch of String(s ?? '').replace(/[\ud800-\udfff]/gu, '\ufffd')) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

function num(x, what, digits = 3) {
  const v = Number(x);
  if (typeof x === 'boolean' || x === null || x === '' || !Number.isFinite(v)) {
    throw new LessonFileError(`${what} = ${String(x)} is not a finite number: not saved`);
  }
  return String(Number(v.toFixed(digits)));
}

const vec = (v, what) => {
  if (!Array.isArray(v) || v.length !== 3) throw new LessonFileError(`${what}: not three numbers: not saved`);
  return `[${v.map((x, i) => num(x, `${what}[${i}]`)).join(', ')}]`;
};

// a lesson (absolute times: no stage) as TOML, as scene/web/lessons.py reads it
export function lessonToml(L) {
  const out = [`title = ${tomlString(L.title || L.name || '課')}`];
  if (L.en) out.push(`en = ${tomlString(L.en)}`);
  (L.stops || []).forEach((s, k) => {
    const w = `stop ${k + 1}`;
    out.push('', '[[stop]]', `t = ${num(s.t, `${w}: t`)}`);
    if (s.camera) {
      out.push(`camera = { position = ${vec(s.camera.position, `${w}: camera.position`)}, ` +
        `focal_point = ${vec(s.camera.focal_point, `${w}: camera.focal_point`)}, ` +
        `view_angle = ${num(s.camera.view_angle ?? 30, `${w}: camera.view_angle`, 2)} }`);
    } else out.push(`view = ${tomlString(VIEWS.includes(s.view) ? s.view : 'auto')}`);
    out.push(`caption = ${tomlString(s.caption || '')}`);
    if (s.en) out.push(`en = ${tomlString(s.en)}`);
    if (s.play) out.push(`play = ${num(s.play, `${w}: play`)}`, `speed = ${num(s.speed || 8, `${w}: speed`)}`);
    if (s.act) out.push(`act = ${tomlString(s.act)}`);
  });
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- reading
function parseToml(text) {
  const src = String(text).replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  const root = {};
  let table = root;
  let i = 0, line = 1;
  const fail = (what) => { throw new LessonFileError(`line ${line}: ${what}`); };
  const peek = () => src[i];
  const ws = () => { while (src[i] === ' ' || src[i] === '\t') i++; };
  const comment = () => { if (src[i] === '#') while (i < src.length && src[i] !== '\n') i++; };
  const endOfLine = () => {
    ws(); comment();
    if (i < src.length && src[i] !== '\n') fail(`unexpected ${JSON.stringify(src[i])}`);
  };
  const key = () => {
    ws();
    if (src[i] === '"' || src[i] === "'") return string();
    const m = /^[A-Za-z0-9_-]+/.exec(src.slice(i, i + 200));
    if (!m) fail('a key was expected');
    i += m[0].length;
    return m[0];
  };
  function string() {
    const q = src[i];
    if (src.startsWith(q.repeat(3), i)) fail('multi-line strings are not used by lessons');
    i++;
    let out = '';
    while (true) {
      if (i >= src.length || src[i] === '\n') fail('a string is not closed');
      const c = src[i++];
      if (c === q) return out;
      if (q === "'" || c !== '\\') { out += c; continue; }
      const e = src[i++];
      const simple = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (e in simple) out += simple[e];
      else if (e === 'u' || e === 'U') {
        const n = e === 'u' ? 4 : 8, h = src.slice(i, i + n);
        if (!/^[0-9a-fA-F]+$/.test(h) || h.length !== n) fail('a bad \\u escape');
        const cp = parseInt(h, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail('a \\u escape that is not a character');
        out += String.fromCodePoint(cp);
        i += n;
      } else fail(`a bad escape \\${e}`);
    }
  }
  function value() {
    ws();
    const c = peek();
    if (c === '"' || c === "'") return string();
    if (c === '[') {
      i++;
      const arr = [];
      while (true) {
        while (/[ \t\n]/.test(src[i] || '')) { if (src[i] === '\n') line++; i++; }
        comment();
        if (src[i] === '\n') continue;
        if (src[i] === ']') { i++; return arr; }
        arr.push(value());
        while (/[ \t\n]/.test(src[i] || '')) { if (src[i] === '\n') line++; i++; }
        if (src[i] === ',') { i++; continue; }
        if (src[i] === ']') { i++; return arr; }
        fail('an array is not closed');
      }
    }
    if (c === '{') {
      i++;
      const t = {};
      ws();
      if (src[i] === '}') { i++; return t; }
      while (true) {
        const k = key();
        ws();
        if (src[i++] !== '=') fail(`= expected after ${k}`);
        if (k in t) fail(`${k} twice`);
        t[k] = value();
        ws();
        if (src[i] === ',') { i++; continue; }
        if (src[i] === '}') { i++; return t; }
        fail('an inline table is not closed');
      }
    }
    const m = /^(true|false|[+-]?(inf|nan)|[+-]?[0-9_]+(\.[0-9_]+)?([eE][+-]?[0-9_]+)?)/.exec(src.slice(i, i + 64));
    if (!m) fail('a value was expected');
    i += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    const v = Number(m[0].replace(/_/g, ''));
    if (!Number.isFinite(v)) fail(`${m[0]} is not a finite number`);
    return v;
  }
  while (i < src.length) {
    ws(); comment();
    if (src[i] === '\n') { i++; line++; continue; }
    if (i >= src.length) break;
    if (src.startsWith('[[', i)) {
      i += 2;
      const name = key(); ws();
      if (!src.startsWith(']]', i)) fail('[[ without ]]');
      i += 2;
      if (!Array.isArray(root[name] ?? [])) fail(`${name} is not an array of tables`);
      root[name] = root[name] || [];
      table = {};
      root[name].push(table);
    } else if (src[i] === '[') {
      fail('a lesson has only [[stop]] tables');
    } else {
      const k = key(); ws();
      if (src[i++] !== '=') fail(`= expected after ${k}`);
      if (k in table) fail(`${k} twice`);
      table[k] = value();
    }
    endOfLine();
  }
  return root;
}

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

// the lesson of a TOML text resolved against the pack's stages and steps (absolute times), as
// scene/web/lessons.py resolves it — or a LessonFileError whose message is one line: file, stop, what
export function readLesson(text, name, pack) {
  let data;
  try { data = parseToml(text); } catch (e) {
    throw new LessonFileError(`${name}: not a lesson file (${e.message})`);
  }
  if (typeof data.title !== 'string' || !data.title.trim()) throw new LessonFileError(`${name}: needs a title`);
  if (!Array.isArray(data.stop) || !data.stop.length) throw new LessonFileError(`${name}: needs at least one [[stop]]`);
  const stages = pack.stages || [], steps = pack.steps || [], dur = pack.duration_s;
  const stops = data.stop.map((st, k) => {
    const where = `${name}: stop ${k + 1}`;
    const extra = Object.keys(st).find((x) => !STOP_KEYS.has(x));
    if (extra) throw new LessonFileError(`${where}: unknown key '${extra}' (keys: ${[...STOP_KEYS].sort().join(', ')})`);
    let base = 0;
    if ('stage' in st) {
      const S = stages.find((x) => String(x.n) === String(st.stage).replace(/^§/, '') || x.id === st.stage);
      if (!S) throw new LessonFileError(`${where}: no stage ${JSON.stringify(st.stage)} (1–${stages.length} or an id)`);
      base = S.start;
      if ('step' in st) {
        const mine = steps.filter((x) => x.section === S.n);
        if (!Number.isInteger(st.step) || st.step < 0 || st.step >= mine.length) {
          throw new LessonFileError(`${where}: step ${st.step} is not a step of §${S.n} (0–${mine.length - 1})`);
        }
        base = mine[st.step].start;
      }
    } else if ('step' in st) throw new LessonFileError(`${where}: step needs a stage`);
    const dt = st.t ?? 0;
    if (!isNum(dt) || dt < 0 || base + dt > dur) throw new LessonFileError(`${where}: t = ${dt} is not a time within the rite (0–${Math.round(dur)} s)`);
    const out = { t: Math.ceil((base + dt) * 1000 - 1e-6) / 1000 };
    if ('camera' in st) {
      const c = st.camera;
      const v3 = (v) => Array.isArray(v) && v.length === 3 && v.every(isNum);
      if (!c || typeof c !== 'object' || !v3(c.position) || !v3(c.focal_point)) {
        throw new LessonFileError(`${where}: camera needs position and focal_point, three numbers each`);
      }
      const va = c.view_angle ?? 30;
      if (!isNum(va) || va < 1 || va > 120) throw new LessonFileError(`${where}: camera.view_angle = ${va} is not in [1, 120]`);
      out.camera = { position: c.position, focal_point: c.focal_point, view_up: [0, 0, 1], parallel: false,
        parallel_scale: 1, view_angle: va };
    } else {
      const v = st.view ?? 'auto';
      if (!VIEWS.includes(v)) throw new LessonFileError(`${where}: view '${v}' is not one of ${VIEWS.join(', ')}`);
      out.view = v;
    }
    if ('caption' in st && typeof st.caption !== 'string') throw new LessonFileError(`${where}: caption must be text`);
    out.caption = st.caption || '';
    if ('en' in st) {
      if (typeof st.en !== 'string') throw new LessonFileError(`${where}: en must be text`);
      if (st.en) out.en = st.en;
    }
    if ('play' in st) {
      if (!isNum(st.play) || st.play < 0.1 || st.play > dur) throw new LessonFileError(`${where}: play = ${st.play} is not a number of seconds in [0.1, ${Math.round(dur)}]`);
      const sp = st.speed ?? 8;
      if (!isNum(sp) || sp < 0.5 || sp > 8) throw new LessonFileError(`${where}: speed = ${sp} is not in [0.5, 8]`);
      out.play = st.play; out.speed = sp;
    }
    if ('act' in st) {
      // the act the caption names: the first step with this phrase from t on ends inside [t, t + play]
      if (typeof st.act !== 'string' || !st.act) throw new LessonFileError(`${where}: act must be a phrase of the rite`);
      const hit = steps.filter((x) => x.phrase === st.act && x.start >= out.t - 1e-3).sort((a, b) => a.start - b.start)[0];
      if (!hit) throw new LessonFileError(`${where}: act '${st.act}' is no step of the rite from t on`);
      if (hit.end > out.t + (out.play || 0) + 1e-3) {
        throw new LessonFileError(`${where}: act '${st.act}' ends at ${hit.end.toFixed(1)} s, after the stop's span (play = ${Math.ceil(hit.end - out.t)} would hold it)`);
      }
      out.act = st.act;
    }
    return out;
  });
  return { name, title: data.title, en: typeof data.en === 'string' ? data.en : '', stops };
}

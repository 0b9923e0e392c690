// The inspector's entry, as a catalogue reads (issue 27), for the app (app.js) and the static page
// (player-page.js).  Why a module of its own: the two pages each listed the player's raw fields (ids,
// coordinates, an evidence row per aspect, each repeating its source), so a person shooting read "posture
// stand", the 鹿中 was only coordinates and the ground was "ground.field · ground.field".  Here: the name;
// for a person his role, what he does now (the current step's verb — 射 while he shoots — and its words),
// the posture shown, what he holds and says, where he is in words (the place's name and the passage that
// fixes it) and which way he faces; for a thing what it is and where the text puts it (the 鹿中: 記44
// 鹿中髤前足跪鑿背容八筭, the place's source); the ground and the walls by name.  Every Chinese string goes
// through `Z` (the page's 繁/简).

// the steps' verbs (the pack's step `do`), as the 經 says them
const VERB = {
  shoot: '射 shoots', walk: '行 walks', wait: '俟 waits', enter: '入 enters', exit: '出 leaves',
  set_down: '奠 sets down', untie: '解 unties', bow_twice: '再拜 bows twice', answer_bow_twice: '答再拜 answers with two bows',
  salute: '揖 salutes', decline: '辭 declines', ascend: '升 ascends', descend: '降 descends', take: '取 takes',
  reply: '對 replies', wash_hands: '盥 washes his hands', wash: '洗 washes', bow: '拜 bows', answer_bow: '答拜 answers the bow',
  fill: '實 fills', receive: '受 receives', taste: '啐 tastes', drink: '飲 drinks', hand: '授 hands over', offer: '獻 offers',
  sit: '坐 kneels', play: '奏 plays', speak: '言 speaks', order: '命 orders', stand: '立 stands', bare: '袒 bares his arm',
  lean: '倚 leans', tie: '繫 ties', rise: '興 rises', approach: '進 goes forward', retire: '退 withdraws',
  lower_flag: '偃旌 lowers the flag', cover: '襲 covers his arm', collect_arrows: '取矢 collects the arrows',
  count_arrows: '數矢 counts the arrows', pick_arrows: '拾矢 takes up arrows', announce: '告 announces', call: '獲 calls the hit',
  count: '數獲 counts the tallies', tell_count: '告獲 reports the count', forfeit: '飲不勝者 the loser drinks',
};
const POSTURE = { stand: '立 standing', sit: '坐 kneeling', bow: '拜 bowing', walk: '行 walking', salute: '揖 saluting',
  shoot: '射 drawing the bow' };
const KIND = {
  cup: '飲器 a cup', flag: '旌 the flag', rack: '楅 the arrow rack', counter_holder: '中 the tally holder (筭 are kept in it)',
  rod: '扑 the rod of the director of archery', stand: '豐 the stand for cups', zither: '瑟 a zither', drum: '鼓 a drum',
  dishes: '薦 the offering dishes', tray: '俎 the meat stand', rope: '綱 a rope of the target', bow: '弓 a bow',
  arrow: '矢 an arrow', counters: '筭 tallies (counting sticks)',
};
// the parts of the scene that no place of the layout names
const PART = {
  'ground.field': '地 the ground of the court', 'court.wall': '牆 the court wall', 'hall.roof': '屋 the roof of the hall',
  'hall.back_wall': '北壁 the back wall of the hall', 'hall.east_gable_wall': '東壁 the east gable wall',
  'hall.west_gable_wall': '西壁 the west gable wall', 'hall.beam': '梁 a beam', 'hall.rafters': '椽 the rafters',
  'hall.back_lintel': '北楣 the back lintel', 'hall.back_eave_purlin': '北檐桁 the back eave purlin',
  'target.upper_rope': '上綱 the upper rope of the target',
};
const SIDE = { east: '東', west: '西', north: '北', south: '南' };

// the repeated head of an evidence source ("where he stands: where he stands: …") said once
export function once(text) {
  let s = String(text || '');
  for (let k = 0; k < 5; k++) {
    const m = /^([^:：]{2,60}[:：]\s*)\1+/.exec(s);
    if (!m) break;
    s = m[1] + s.slice(m[0].length);
  }
  return s;
}

export function facingWord(deg) {
  if (deg === null || deg === undefined || !Number.isFinite(Number(deg))) return '';
  const d = ((Number(deg) % 360) + 360) % 360;
  const names = ['北面 north', '東北 north-east', '東面 east', '東南 south-east', '南面 south', '西南 south-west',
    '西面 west', '西北 north-west'];
  return `${names[Math.round(d / 45) % 8]} (${Math.round(d)}°)`;
}

function partName(part) {
  if (!part) return '';
  let best = '';
  for (const k of Object.keys(PART)) if ((part === k || part.startsWith(k + '.')) && k.length > best.length) best = k;
  if (!best) return '';
  const wall = /^court\.wall\.(east|west|north|south)/.exec(part);
  return wall ? `${SIDE[wall[1]]}牆 the ${wall[1]} wall of the court` : PART[best];
}

function where(info) {
  const c = info.xyz_chi;
  if (!c) return '';
  const ew = c[0] >= 0 ? `${c[0]} 尺 east` : `${-c[0]} 尺 west`, ns = c[1] >= 0 ? `${c[1]} 尺 north` : `${-c[1]} 尺 south`;
  return `${ew}, ${ns} of the centre of the 堂's front` + (c[2] ? `, ${c[2]} 尺 up` : '');
}

// the place a thing rests at: the layout place named for it (court.zhong for the 中), else the nearest
function placeOfObject(info, player) {
  if (!player || !player.places) return info.near_place || null;
  const own = player.places.find((p) => p.id.split('.').pop() === info.id);
  return own || info.near_place || null;
}

// {title, rows: [[key, value]], actor}: what the inspector shows for a picked thing (info: the player's)
export function catalogue(info, { Z = (s) => s, player = null } = {}) {
  if (!info) return null;
  const rows = [];
  const row = (k, v) => { if (v !== undefined && v !== null && v !== '') rows.push([k, Z(String(v))]); };
  let title = info.name || info.id || '';
  if (info.kind === 'actor') {
    const st = info.step;
    row('職 role', info.role && info.role !== info.name ? info.role : '');
    if (st && st.current) row('今 now', `${VERB[st.do] || st.do || ''} — 「${st.phrase}」 (§${st.section})`);
    else {
      row('今 now', '俟 waits');
      if (st) row('前 last', `${VERB[st.do] || st.do || ''} — 「${st.phrase}」 (§${st.section})`);
    }
    const fig = String(info.figure || '').split('+').slice(1).join('、');
    row('容 posture shown', [POSTURE[info.posture] || info.posture, fig].filter(Boolean).join('; '));
    row('執 holds', info.holding);
    row('曰 says', info.say ? `「${info.say}」` : '');
    const np = info.near_place;
    row('位 where', np ? `${np.name} — ${np.source || ''}` : where(info));
    row('面 faces', facingWord(info.heading));
    if (st && st.evidence) {
      for (const [a, e] of Object.entries(st.evidence)) {
        const status = typeof e.status === 'string' ? e.status : (e.status && e.status[1]) || '';
        row(`證 ${a}`, `${status} — ${once(e.source)}`);
      }
    }
  } else if (info.kind === 'object') {
    row('是 what it is', KIND[info.object_kind] || info.object_kind);
    row('狀 state', info.state);
    if (info.holder && player && player.actorById) {
      const A = player.actorById.get(info.holder);
      row('執者 held by', A ? A.name : info.holder);
    }
    const pl = placeOfObject(info, player);
    if (pl) {
      row('位 its place', `${pl.name} — ${pl.source || ''}`);
      row('算 arithmetic', pl.derivation);
      row('據 status', pl.status);
    }
    if (!info.holder) row('在 now at', where(info));
  } else if (info.kind === 'place' || info.kind === 'label') {
    row('經 the text', info.source);
    row('注 commentary', info.commentary);
    row('算 arithmetic', info.derivation);
    row('據 status', info.status);
    row('位 where', where(info));
  } else if (info.kind === 'dim') {
    row('量 measure', info.text || info.name);
    row('經 the text', info.source);
  } else {
    title = partName(info.part || info.id) || title;
    const np = info.near_place;
    if (np) row('近 by', `${np.name} — ${np.source || ''}`);
  }
  return { title: Z(title), rows, actor: info.kind === 'actor' ? info.id : null };
}

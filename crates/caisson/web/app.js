// The Caisson page: lobby, map with counters drawn here, rosters, the pending decision, the log,
// live updates and replay. It talks only to the web API (docs/web-api.md) and knows nothing of
// the rules: everything it shows comes from the game object (view, decision, log).

const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (sel) => document.querySelector(sel);

/** Counter side in SVG units (a hex is 40 units corner to corner, 34.6 across the flats). */
const C = 22;
/** Shift of each counter under the top one in a stack. */
const STACK_DX = 3;
const STACK_DY = -3;

const st = {
  game: null, // id
  token: null,
  data: null, // the game as this seat sees it (live)
  shown: null, // what is on screen: data, or a replay
  replayAt: null, // null when live
  mapId: null,
  svg: null,
  centres: new Map(), // hex id -> [x, y]
  vb: null, // current viewBox {x, y, w, h}
  full: null, // whole map viewBox
  framed: false,
  inspect: null, // hex shown in the inspector
  busy: false,
  events: null,
};

// ---------------------------------------------------------------------------------------------
// Small helpers

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function sv(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  for (const k of kids.flat()) if (k !== null && k !== undefined) e.append(k);
  return e;
}

function toast(msg) {
  const t = $('#toast');
  t.textContent = msg;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 6000);
}

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : '');
const sideName = (s) => ({ union: 'Union', confederate: 'Confederate' }[s] || cap(s || ''));
const words = (s) => cap(String(s || '').replace(/-/g, ' '));

async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (st.token) headers.authorization = `Bearer ${st.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try { json = await r.json(); } catch { /* not JSON */ }
  if (!r.ok) {
    const err = new Error((json && json.error) || `${r.status} ${r.statusText}`);
    err.status = r.status;
    throw err;
  }
  return json;
}

// ---------------------------------------------------------------------------------------------
// Lobby

async function showLobby() {
  $('#lobby').hidden = false;
  $('#table').hidden = true;
  document.title = 'Caisson';
  let rows = [];
  try {
    rows = await api('GET', '/api/scenarios');
  } catch (e) {
    $('#scenarios').replaceChildren(el('p', { class: 'error', text: `Cannot list the scenarios: ${e.message}` }));
    return;
  }
  const list = rows.map((s, i) => el('label', { class: 'scenario', 'data-scenario': s.id, 'data-game': s.game },
    el('input', { type: 'radio', name: 'scenario', value: s.id, checked: i === 0 }),
    el('span', { class: 'sc-id', text: s.id }),
    el('span', { class: 'sc-name', text: s.name }),
    el('span', { class: 'sc-meta', text: `${s.first_date === s.last_date ? s.first_date : `${s.first_date} – ${s.last_date}`} · ${s.turns} turn${s.turns === 1 ? '' : 's'} · ${s.game}` })));
  $('#scenarios').replaceChildren(...list);
  botNote();
}

/** The computer opponent of `crates/ai` knows the GCACW games only: elsewhere the server lets it
 * choose at random (docs/web-api.md), and the lobby says so. */
function botNote() {
  const f = new FormData($('#new-game-form'));
  const game = $(`.scenario[data-scenario="${CSS.escape(f.get('scenario') || '')}"]`)?.dataset.game;
  $('#bot-note').hidden = !(f.get('mode') === 'computer' && f.get('bot') === 'ai' && game === 'blind-swords');
  const solo = f.get('scenario') === 'pv-16-0' && f.get('play-side') === 'union';
  $('#liddell-note').hidden = !(f.get('mode') === 'computer' && f.get('bot') === 'liddell' && !solo);
}

async function startGame(ev) {
  ev.preventDefault();
  const f = new FormData($('#new-game-form'));
  const mode = f.get('mode');
  const body = { scenario: f.get('scenario'), mode };
  const seed = $('#seed').value.trim();
  if (seed !== '') body.seed = Number(seed);
  if (mode === 'computer') {
    body.computer = f.get('play-side') === 'union' ? 'confederate' : 'union';
    body.bot = f.get('bot');
  }
  let r;
  try {
    r = await api('POST', '/api/games', body);
  } catch (e) {
    toast(`Could not start the game: ${e.message}`);
    return;
  }
  if (mode === 'online') {
    const ul = $('#seat-links ul');
    ul.replaceChildren(...['union', 'confederate'].map((side) => {
      const url = `${location.origin}/?game=${encodeURIComponent(r.game)}&token=${encodeURIComponent(r.seats[side])}`;
      return el('li', { 'data-seat': side },
        el('strong', { text: `${sideName(side)}: ` }),
        el('a', { href: url, text: url, class: 'seat-link' }),
        el('button', { type: 'button', text: 'Copy', onclick: () => navigator.clipboard?.writeText(url).then(() => toast('Link copied')) }));
    }));
    $('#seat-links').hidden = false;
    return;
  }
  openSeat(r.game, r.seats.table);
}

async function importSave(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const err = $('#import-error');
  err.hidden = true;
  try {
    const save = JSON.parse(await file.text());
    const r = await api('POST', '/api/games/import', { save, mode: 'hotseat' });
    openSeat(r.game, r.seats.table || r.seats.union);
  } catch (e) {
    err.textContent = `This file cannot be loaded: ${e.message}`;
    err.hidden = false;
  }
}

function openSeat(game, token) {
  history.pushState({}, '', `/?game=${encodeURIComponent(game)}&token=${encodeURIComponent(token)}`);
  route();
}

// ---------------------------------------------------------------------------------------------
// The table

async function openGame(game, token) {
  st.game = game;
  st.token = token;
  st.replayAt = null;
  st.framed = false;
  $('#lobby').hidden = true;
  $('#table').hidden = false;
  $('#status').hidden = false;
  $('#tools').hidden = false;
  try {
    await refresh();
  } catch (e) {
    $('#decision').replaceChildren(el('p', { class: 'error', text: `Cannot open this game: ${e.message}` }));
    return;
  }
  listen();
}

async function refresh() {
  const d = await api('GET', `/api/games/${encodeURIComponent(st.game)}`);
  st.data = d;
  if (st.replayAt === null) await show(d);
  else updateReplayControl();
}

function listen() {
  if (st.events) st.events.close();
  const es = new EventSource(`/api/games/${encodeURIComponent(st.game)}/events?token=${encodeURIComponent(st.token)}`);
  es.addEventListener('update', (ev) => {
    let seq = null;
    try { seq = JSON.parse(ev.data).seq; } catch { /* refetch anyway */ }
    if (seq === null || !st.data || seq !== st.data.seq) refresh().catch((e) => toast(e.message));
  });
  st.events = es;
}

async function act(path, body) {
  if (st.busy || st.replayAt !== null) return;
  st.busy = true;
  document.body.classList.add('busy');
  try {
    const d = await api('POST', `/api/games/${encodeURIComponent(st.game)}/${path}`, { seq: st.data.seq, ...body });
    st.data = d;
    closePopover();
    await show(d);
  } catch (e) {
    if (e.status === 409) {
      toast('The game had moved on: here it is as it stands now.');
      await refresh();
    } else {
      toast(e.message);
    }
  } finally {
    st.busy = false;
    document.body.classList.remove('busy');
  }
}

const choose = (id) => act('actions', { option: id });

async function show(d) {
  st.shown = d;
  const mapId = d.view?.map || (d.setup && d.setup.scenario ? d.setup.scenario.split('-')[0] : null) || 'hsn';
  if (st.mapId !== mapId) await loadMap(mapId);
  renderStatus(d);
  renderCounters(d);
  renderTargets(d);
  renderDecision(d);
  renderRosters(d);
  renderScore(d);
  renderChits(d);
  renderNotices(d);
  renderLog(d);
  renderInspector();
  updateReplayControl();
  if (!st.framed) { frameUnits(d); st.framed = true; } else ensureVisible(d);
}

// ---------------------------------------------------------------------------------------------
// Status bar

function renderStatus(d) {
  const v = d.view || {};
  $('#scenario-name').textContent = `${v.scenario || d.setup?.scenario || ''}`;
  $('#turn').textContent = `Turn ${v.turn ?? '?'} of ${v.turns ?? '?'}`;
  const stage = typeof v.stage === 'string' ? { step: v.stage } : v.stage || {};
  const who = stage.side ? `${sideName(stage.side)} · ` : '';
  const march = stage.march && stage.march.left !== undefined ? ` (${fmtHalf(stage.march.left)} MP left)` : '';
  $('#stage').textContent = `${who}${words(stage.step || '')}${march}`;
  if (v.clock) $('#turn').textContent += ` · ${v.clock}`;
  const now = (v.turn_track || []).find((b) => b.current);
  const winter = !!(now && now.winter);
  $('#weather').textContent = winter ? (v.rain ? '❄ Winter · ☂ Rain' : '❄ Winter') : (v.rain ? '☂ Rain' : '☀ Clear');
  $('#weather').hidden = v.rain === undefined && !now;
  $('#weather').classList.toggle('rain', !!v.rain);
  $('#weather').classList.toggle('winter', winter);
  renderTurnTrack(v.turn_track || []);
  const sc = v.score;
  $('#score').textContent = !sc ? '' : sc.side ? `${sideName(sc.side)} ${fmtNum(sc.total)} VP · ${sc.level}`
    : `${sideVp(v).map(([s, vp]) => `${sideName(s)} ${vp}`).join(' · ')}${sc.result ? ` VP · ${sc.result}` : ''}`;
  $('#seat').textContent = d.seat === 'table' ? (d.computer ? `You: ${sideName(d.computer === 'union' ? 'confederate' : 'union')} · computer: ${sideName(d.computer)}` : 'Hot-seat') : `Seat: ${sideName(d.seat)}`;
  $('#seat').dataset.seat = d.seat;
  $('#undo').disabled = !d.can_undo || st.replayAt !== null;
  $('#save').href = `/api/games/${encodeURIComponent(st.game)}/save?token=${encodeURIComponent(st.token)}`;
  $('#save').setAttribute('download', `${d.setup?.scenario || 'game'}-${st.game}.json`);
  document.title = `${v.scenario || 'Caisson'} · turn ${v.turn ?? ''} · Caisson`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "1864-11-23" → "Nov 23". */
function shortDate(iso) {
  const [, m, d] = (iso || '').split('-').map(Number);
  return m >= 1 && m <= 12 && d ? `${MONTHS[m - 1]} ${d}` : iso || '';
}

/** The Turn Track: one box per turn with its date and markers; the current turn and the winter turns stand out. */
function renderTurnTrack(boxes) {
  const ol = $('#turn-track');
  ol.replaceChildren(...boxes.map((b) => {
    const li = el('li', { class: `tt-box${b.current ? ' current' : ''}${b.winter ? ' winter' : ''}`, 'data-turn': String(b.turn),
      title: [`Turn ${b.turn} · ${b.date}`, ...(b.winter ? ['Winter weather'] : []), ...b.markers].join('\n') },
      el('b', { text: String(b.turn) }), el('span', { text: shortDate(b.date) }),
      ...b.markers.map((m) => el('small', { text: m })));
    return li;
  }));
  $('#turn-track-panel').hidden = boxes.length < 2;
  const cur = ol.querySelector('.current');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
}

const fmtNum = (n) => (Number.isInteger(n) ? String(n) : String(n).replace(/\.5$/, '½'));
function fmtHalf(h) {
  if (typeof h === 'number') return fmtNum(h);
  if (h && typeof h === 'object' && 'halves' in h) return fmtNum(h.halves / 2);
  return String(h);
}

// ---------------------------------------------------------------------------------------------
// Map: load, pan, zoom, hover

async function loadMap(mapId) {
  const r = await fetch(`/api/maps/${encodeURIComponent(mapId)}.svg`);
  if (!r.ok) throw new Error(`map ${mapId}: ${r.status}`);
  const text = await r.text();
  const box = $('#map');
  box.innerHTML = text;
  const svg = box.querySelector('svg');
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  st.svg = svg;
  st.mapId = mapId;
  st.centres.clear();
  for (const p of svg.querySelectorAll('polygon[data-hex]')) {
    st.centres.set(p.dataset.hex, [Number(p.dataset.x), Number(p.dataset.y)]);
  }
  const [x, y, w, h] = svg.getAttribute('viewBox').split(/\s+/).map(Number);
  st.full = { x, y, w, h };
  st.vb = { ...st.full };
  svg.append(sv('g', { id: 'layer-marks' }), sv('g', { id: 'layer-counters' }), sv('g', { id: 'layer-targets' }));
  svg.append(sv('defs', {}, counterDefs()));
  setViewBox();
  wireMap(svg);
}

function counterDefs() {
  return [
    sv('linearGradient', { id: 'g-union', x1: 0, y1: 0, x2: 0, y2: 1 },
      sv('stop', { offset: '0', 'stop-color': '#4f6fa8' }), sv('stop', { offset: '1', 'stop-color': '#2d4a7e' })),
    sv('linearGradient', { id: 'g-confederate', x1: 0, y1: 0, x2: 0, y2: 1 },
      sv('stop', { offset: '0', 'stop-color': '#cfc3a6' }), sv('stop', { offset: '1', 'stop-color': '#a89a78' })),
    sv('filter', { id: 'f-shadow', x: '-20%', y: '-20%', width: '150%', height: '150%' },
      sv('feDropShadow', { dx: '0.8', dy: '1.1', stdDeviation: '0.7', 'flood-color': '#000', 'flood-opacity': '0.45' })),
  ];
}

function setViewBox() {
  // Keep at least half the view on the map.
  const f = st.full;
  const v = st.vb;
  v.x = Math.min(Math.max(v.x, f.x - v.w / 2), f.x + f.w - v.w / 2);
  v.y = Math.min(Math.max(v.y, f.y - v.h / 2), f.y + f.h - v.h / 2);
  if (v.w <= f.w) v.x = Math.min(Math.max(v.x, f.x - 40), f.x + f.w + 40 - v.w);
  if (v.h <= f.h) v.y = Math.min(Math.max(v.y, f.y - 40), f.y + f.h + 40 - v.h);
  const { x, y, w, h } = v;
  st.svg.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  st.svg.classList.toggle('far', w > 900);
}

/** The SVG point under a client (screen) point. */
function svgPoint(cx, cy) {
  const m = st.svg.getScreenCTM();
  const p = new DOMPoint(cx, cy).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function zoomAt(factor, cx, cy) {
  const vb = st.vb;
  const rect = st.svg.getBoundingClientRect();
  if (cx === undefined) { cx = rect.left + rect.width / 2; cy = rect.top + rect.height / 2; }
  const [px, py] = svgPoint(cx, cy);
  const w = Math.min(Math.max(vb.w * factor, 120), st.full.w * 1.5);
  const k = w / vb.w;
  st.vb = { x: px - (px - vb.x) * k, y: py - (py - vb.y) * k, w, h: vb.h * k };
  setViewBox();
}

function centreOn(hexes, minW = 420) {
  const pts = hexes.map((h) => st.centres.get(h)).filter(Boolean);
  if (!pts.length || !st.svg) return;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const rect = st.svg.getBoundingClientRect();
  const aspect = rect.height > 0 ? rect.height / rect.width : 0.75;
  let w = Math.max(Math.max(...xs) - Math.min(...xs) + 120, minW);
  let h = Math.max(Math.max(...ys) - Math.min(...ys) + 120, w * aspect);
  w = Math.max(w, h / aspect);
  h = w * aspect;
  const mx = (Math.max(...xs) + Math.min(...xs)) / 2;
  const my = (Math.max(...ys) + Math.min(...ys)) / 2;
  st.vb = { x: mx - w / 2, y: my - h / 2, w, h };
  setViewBox();
}

/** Frame the part of the map that matters now: what the decision points at, else the main body
 * of the units (those far from the median, such as a lone garrison, are left out). */
function frameUnits(d) {
  if (!d) return;
  const v = d.view || {};
  const named = new Set();
  for (const o of decisionOptions(d)) {
    const h = optionHex(o);
    if (h) named.add(h);
    for (const id of optionNames(o, d)) {
      const u = (v.units || []).find((x) => x.id === id);
      const l = (v.leaders || []).find((x) => x.id === id);
      if (u?.hex) named.add(u.hex);
      if (l?.hex) named.add(l.hex);
    }
  }
  let hexes = [...named].filter((h) => st.centres.has(h));
  if (!hexes.length) hexes = (v.units || []).filter((u) => u.hex && !u.eliminated && st.centres.has(u.hex)).map((u) => u.hex);
  if (!hexes.length) return;
  const med = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const pts = hexes.map((h) => st.centres.get(h));
  const mx = med(pts.map((p) => p[0]));
  const my = med(pts.map((p) => p[1]));
  const near = hexes.filter((h) => { const [x, y] = st.centres.get(h); return Math.hypot(x - mx, y - my) < 420; });
  centreOn(near.length ? near : hexes);
}

function wireMap(svg) {
  let drag = null;
  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, vb: { ...st.vb }, moved: false, id: e.pointerId };
  });
  svg.addEventListener('pointermove', (e) => {
    hover(e);
    if (!drag) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 5) return;
    if (!drag.moved) { drag.moved = true; svg.setPointerCapture(drag.id); svg.classList.add('dragging'); }
    const rect = svg.getBoundingClientRect();
    const scale = Math.max(drag.vb.w / rect.width, drag.vb.h / rect.height);
    st.vb = { ...drag.vb, x: drag.vb.x - dx * scale, y: drag.vb.y - dy * scale };
    setViewBox();
  });
  const end = () => {
    if (drag && drag.moved) { svg.classList.remove('dragging'); st.suppressClick = true; setTimeout(() => { st.suppressClick = false; }, 0); }
    drag = null;
  };
  svg.addEventListener('pointerup', end);
  svg.addEventListener('pointercancel', end);
  svg.addEventListener('pointerleave', () => { $('#hover').textContent = ''; });
  svg.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoomAt(Math.exp(e.deltaY * 0.0015), e.clientX, e.clientY);
  }, { passive: false });
  svg.addEventListener('click', mapClick);
}

function hover(e) {
  const t = e.target.closest('[data-hex]');
  const out = $('#hover');
  if (!t) { out.textContent = ''; return; }
  const hex = t.dataset.hex;
  const poly = st.svg.querySelector(`polygon[data-hex="${hex}"]`);
  const title = poly?.querySelector('title')?.textContent || hex;
  out.textContent = title;
}

function mapClick(e) {
  if (st.suppressClick) return;
  const target = e.target.closest('.target');
  if (target) {
    e.stopPropagation();
    const ids = target.dataset.options.split(' ');
    const os = decisionOptions(st.shown).filter((o) => ids.includes(o.id));
    if (os.length === 1) { closePopover(); choose(os[0].id); } else popover([[target.dataset.hex || 'hexside', os]], e, (k) => k);
    return;
  }
  const stack = e.target.closest('.stack');
  const hexEl = e.target.closest('[data-hex]');
  if (!hexEl) { closePopover(); return; }
  const hex = hexEl.dataset.hex;
  inspect(hex);
  if (stack) stackClick(stack, e);
  else closePopover();
}

// ---------------------------------------------------------------------------------------------
// Options: which hex or counter an option points at

/** The hex an option points at: an id segment of four digits (`move:1221`, `attack:1221:…`). */
function optionHex(o) {
  const seg = o.id.split(':').slice(1).find((p) => /^\d{4}$/.test(p));
  return seg || null;
}

/** The hexside an option points at: a segment `XXYY-XXYY` (`destroy:1221-1222`). */
function optionSide(o) {
  const seg = o.id.split(':').slice(1).find((p) => /^\d{4}-\d{4}$/.test(p));
  return seg ? seg.split('-') : null;
}

/** The unit or leader ids named in an option id (`march:cox`, `transfer:schofield`); an option
 * naming a brigade (`brigade:lytle`) names its units. */
function optionNames(o, d) {
  const ids = new Set();
  const parts = o.id.split(':').slice(1);
  const v = d.view || {};
  for (const p of parts) {
    for (const u of v.units || []) if (u.id === p) ids.add(u.id);
    for (const l of v.leaders || []) if (l.id === p) ids.add(l.id);
    if ((v.brigades || []).some((b) => b.id === p)) for (const u of v.units || []) if (u.brigade === p) ids.add(u.id);
  }
  return [...ids];
}

function optionCost(o) {
  const m = /(\d+(?:½|\.5)?)\s*MP\b/.exec(o.label);
  return m ? `${m[1]} MP` : null;
}

const END_IDS = /^(pass|done|end|end-.*|no-.*|skip|decline.*|stop)$/;

function decisionOptions(d) {
  return (st.replayAt === null && d.decision && d.decision.options) || [];
}

/** For each counter (unit or unattached leader), the options that name it or its leaders. */
function optionsByCounter(d) {
  const res = new Map();
  const v = d.view || {};
  const unitOfLeader = new Map((v.leaders || []).map((l) => [l.id, l.with]));
  for (const o of decisionOptions(d)) {
    if (optionHex(o) || optionSide(o)) continue;
    for (const id of optionNames(o, d)) {
      const key = unitOfLeader.has(id) ? (unitOfLeader.get(id) || `leader:${id}`) : id;
      if (!res.has(key)) res.set(key, []);
      if (!res.get(key).includes(o)) res.get(key).push(o);
    }
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// Counters

function stacks(d) {
  const v = d.view || {};
  const byHex = new Map();
  const add = (hex, item) => {
    if (!hex) return;
    if (!byHex.has(hex)) byHex.set(hex, []);
    byHex.get(hex).push(item);
  };
  for (const u of v.units || []) if (u.hex && !u.eliminated) add(u.hex, { kind: 'unit', u, id: u.id });
  for (const l of v.leaders || []) if (!l.with && l.hex) add(l.hex, { kind: 'leader', l, id: `leader:${l.id}` });
  return byHex;
}

function renderCounters(d) {
  if (!st.svg) return;
  const layer = st.svg.querySelector('#layer-counters');
  const leadersWith = new Map();
  for (const l of d.view?.leaders || []) if (l.with) {
    if (!leadersWith.has(l.with)) leadersWith.set(l.with, []);
    leadersWith.get(l.with).push(l);
  }
  const opts = optionsByCounter(d);
  const active = activeUnit(d);
  const groups = [];
  for (const [hex, items] of stacks(d)) {
    const c = st.centres.get(hex);
    if (!c) continue;
    // The marching unit, then counters that the decision names, go on top of their stack.
    const rank = (it) => (it.id === active ? 2 : opts.has(it.id) ? 1 : 0);
    items.sort((a, b) => rank(a) - rank(b));
    const n = items.length;
    const g = sv('g', { class: 'stack', 'data-hex': hex, 'data-count': n });
    items.forEach((it, i) => {
      const k = i - (n - 1) / 2;
      const x = c[0] + k * STACK_DX - C / 2;
      const y = c[1] + k * STACK_DY - C / 2;
      const node = it.kind === 'leader' ? leaderCounter(it.l, x, y)
        : 'sp' in it.u ? bsCounter(it.u, d.view, x, y) : unitCounter(it.u, leadersWith.get(it.u.id) || [], x, y);
      if (opts.has(it.id)) node.classList.add('selectable');
      g.append(node);
    });
    if (n > 1) {
      const top = [c[0] + ((n - 1) / 2) * STACK_DX + C / 2, c[1] + ((n - 1) / 2) * STACK_DY + C / 2];
      g.append(sv('g', { class: 'stack-count', 'pointer-events': 'none' },
        sv('circle', { cx: top[0], cy: top[1], r: 3.6 }),
        sv('text', { x: top[0], y: top[1] + 1.5, 'text-anchor': 'middle' }, String(n))));
    }
    if ([...items].some((it) => opts.has(it.id))) g.classList.add('selectable');
    groups.push(g);
  }
  layer.replaceChildren(...markers(d), ...groups);
}

// Game markers that are not units (HSN Sc 5 blockhouses, burned or damaged stations), drawn small
// in the hex's upper-left corner, under the counters.
function markers(d) {
  const out = [];
  const marker = (hex, label, title, cls) => {
    const c = st.centres.get(hex);
    if (!c) return;
    const x = c[0] - 16;
    const y = c[1] - 15;
    out.push(sv('g', { class: `marker ${cls}`, 'data-marker': cls, 'data-hex': hex },
      sv('title', {}, title),
      sv('rect', { x, y, width: 12, height: 7, rx: 1 }),
      sv('text', { x: x + 6, y: y + 5.3, 'text-anchor': 'middle' }, label)));
  };
  for (const b of d.view?.blockhouses || []) marker(String(b.hex), 'BH', `${b.name} (HSN Sc 5)`, 'blockhouse');
  for (const s of d.view?.stations || []) {
    if (s.mark) marker(String(s.hex), 'Stn', `Station ${s.hex}: ${s.mark}`, 'station');
  }
  return out;
}

function typeSymbol(type, x, y, w, h) {
  const parts = [sv('rect', { x, y, width: w, height: h, class: 'nato' })];
  if (type === 'infantry') {
    parts.push(sv('path', { d: `M${x},${y} L${x + w},${y + h} M${x + w},${y} L${x},${y + h}`, class: 'nato-line' }));
  } else if (type === 'cavalry') {
    parts.push(sv('path', { d: `M${x},${y + h} L${x + w},${y}`, class: 'nato-line' }));
  } else if (type === 'artillery') {
    parts.push(sv('circle', { cx: x + w / 2, cy: y + h / 2, r: h * 0.22, class: 'nato-dot' }));
  } else if (type === 'horse-artillery') {
    parts.push(sv('circle', { cx: x + w / 2, cy: y + h / 2, r: h * 0.22, class: 'nato-dot' }),
      sv('path', { d: `M${x},${y + h} L${x + w},${y}`, class: 'nato-line' }));
  } else if (type === 'wagon') {
    parts.push(sv('circle', { cx: x + w * 0.3, cy: y + h * 0.72, r: h * 0.16, class: 'nato-line' }),
      sv('circle', { cx: x + w * 0.7, cy: y + h * 0.72, r: h * 0.16, class: 'nato-line' }),
      sv('path', { d: `M${x + w * 0.15},${y + h * 0.5} H${x + w * 0.85}`, class: 'nato-line' }));
  }
  return parts;
}

function badge(x, y, text, cls, kind) {
  const w = Math.max(5.2, 1.9 * text.length + 1.8);
  return sv('g', { class: `badge ${cls}`, 'data-badge': kind },
    sv('rect', { x: x - w / 2, y: y - 2.6, width: w, height: 5.2, rx: 1.2 }),
    sv('text', { x, y: y + 1.35, 'text-anchor': 'middle' }, text));
}

function entrenchAbbrev(e) {
  const s = String(e);
  if (s.startsWith('fort')) return 'Ft';
  if (s.startsWith('abatis')) return 'Ab';
  if (s.includes('entrench') || s.startsWith('breast')) return 'En';
  return s.slice(0, 2).replace(/^./, (c) => c.toUpperCase());
}

function unitStatus(u) {
  if ('sp' in u) return bsStatus(u, brigadeOf(st.shown?.view, u));
  const s = [];
  if (u.organized === false) s.push('disorganized');
  if (u.exhausted) s.push('exhausted');
  if (u.demoralized) s.push(`demoralized${u.demoralized > 1 ? ` ${u.demoralized}` : ''}`);
  if (u.entrenchment) s.push(words(u.entrenchment));
  if (u.mount) s.push(u.mount);
  if (u.off_map) s.push('off map (remounts)');
  return s;
}

function unitCounter(u, leaders, x, y) {
  const g = sv('g', { class: `counter unit ${u.side} ${u.type}`, 'data-unit': u.id, 'data-hex': u.hex,
    'data-fatigue': u.fatigue, transform: `translate(${x.toFixed(2)},${y.toFixed(2)})` });
  const status = unitStatus(u);
  const tip = [`${u.name} (${sideName(u.side)} ${u.type}) in ${u.hex}`,
    `Manpower ${u.manpower}, combat ${u.combat}, tactical ${u.tactical}${u.artillery ? `, artillery ${u.artillery}` : ''}`,
    `Fatigue ${u.fatigue}${status.length ? `; ${status.join(', ')}` : ''}`];
  if (leaders.length) tip.push(`With ${leaders.map((l) => `${l.name} (${l.level})`).join(', ')}`);
  g.append(sv('title', {}, tip.join('\n')));
  g.append(sv('rect', { class: 'face', x: 0, y: 0, width: C, height: C, rx: 1.6, fill: `url(#g-${u.side})`, filter: 'url(#f-shadow)' }));
  g.append(sv('rect', { class: 'edge', x: 0.7, y: 0.7, width: C - 1.4, height: C - 1.4, rx: 1.1 }));
  const name = u.name.length > 11 ? `${u.name.slice(0, 10)}.` : u.name;
  const fit = name.length > 8 ? { textLength: (C - 2.4).toFixed(1), lengthAdjust: 'spacingAndGlyphs' } : {};
  g.append(sv('text', { class: 'name', x: C / 2, y: 5.4, 'text-anchor': 'middle', ...fit }, name));
  g.append(...typeSymbol(u.type, C / 2 - 5.5, 7.2, 11, 7));
  g.append(sv('text', { class: 'values', x: C / 2, y: 20.2, 'text-anchor': 'middle' },
    sv('tspan', { class: 'manpower' }, String(u.manpower)),
    sv('tspan', { class: 'sep' }, '-'),
    sv('tspan', { class: u.combat === String(u.manpower) ? 'combat' : 'combat reduced' }, String(u.combat))));
  if (u.fatigue > 0) g.append(badge(-0.6, 0.6, `F${u.fatigue}`, `fatigue f${Math.min(u.fatigue, 4)}`, 'fatigue'));
  // Status badges down the right edge.
  let by = 5;
  const right = (text, cls, kind) => { g.append(badge(C + 0.6, by, text, cls, kind)); by += 5.8; };
  if (!u.organized) right('DIS', 'disorganized', 'disorganized');
  if (u.exhausted) right('EX', 'exhausted', 'exhausted');
  if (u.demoralized) right(u.demoralized > 1 ? `DM${u.demoralized}` : 'DM', 'demoralized', 'demoralized');
  if (u.entrenchment) right(entrenchAbbrev(u.entrenchment), 'entrenched', 'entrenchment');
  if (u.mount) right(u.mount === 'Unmounted' ? 'UNM' : 'HWO', 'mount', 'mount');
  if (leaders.length) {
    const star = sv('g', { class: 'badge leader-star', 'data-badge': 'leaders', 'data-leaders': leaders.map((l) => l.id).join(' ') });
    leaders.forEach((l, i) => {
      star.append(sv('path', { d: starPath(2.6 + i * 4.6, C - 2.4, 2.5), 'data-leader': l.id }));
    });
    g.append(star);
  }
  return g;
}

/** The brigade of a Blind Swords unit in the view's `brigades` (its leader, its order). */
function brigadeOf(v, u) {
  return (v?.brigades || []).find((b) => b.id === u.brigade) || null;
}

/** A Blind Swords unit's state in words: its face, Morale Hits, formation and brigade order. */
function bsStatus(u, b) {
  const s = [u.battleworn ? 'Battleworn' : 'Fresh'];
  if (u.morale_hits) s.push(`${u.morale_hits} morale hit${u.morale_hits > 1 ? 's' : ''}`);
  if (u.skirmish) s.push('skirmish order');
  if (u.shaken) s.push('shaken');
  if (u.on_hold || b?.on_hold) s.push('on hold');
  if (b?.order) s.push(`${words(b.order)} order`);
  return s;
}

/** A Blind Swords counter: name, type, SP-CR; its face (Fresh or Battleworn), Morale Hits,
 * skirmish order, shaken, On Hold and its brigade's order as badges. */
function bsCounter(u, v, x, y) {
  const b = brigadeOf(v, u);
  const face = u.battleworn ? 'battleworn' : 'fresh';
  const g = sv('g', { class: `counter unit ${u.side} ${u.type} ${face}`, 'data-unit': u.id, 'data-hex': u.hex, 'data-face': face,
    'data-brigade': u.brigade, transform: `translate(${x.toFixed(2)},${y.toFixed(2)})` });
  g.append(sv('title', {}, [`${u.name} (${sideName(u.side)} ${words(u.type).toLowerCase()}) in ${u.hex}`,
    `SP ${fmtNum(u.sp)}, CR ${u.cr}`, `Brigade: ${b ? b.leader : u.brigade || 'none'}`, bsStatus(u, b).join(', ')].join('\n')));
  g.append(sv('rect', { class: 'face', x: 0, y: 0, width: C, height: C, rx: 1.6, fill: `url(#g-${u.side})`, filter: 'url(#f-shadow)' }));
  g.append(sv('rect', { class: 'edge', x: 0.7, y: 0.7, width: C - 1.4, height: C - 1.4, rx: 1.1 }));
  if (u.battleworn) g.append(sv('rect', { class: 'worn-band', x: 0.7, y: C - 7.6, width: C - 1.4, height: 6.9 }));
  const name = u.name.length > 11 ? `${u.name.slice(0, 10)}.` : u.name;
  const fit = name.length > 8 ? { textLength: (C - 2.4).toFixed(1), lengthAdjust: 'spacingAndGlyphs' } : {};
  g.append(sv('text', { class: 'name', x: C / 2, y: 5.4, 'text-anchor': 'middle', ...fit }, name));
  g.append(...typeSymbol(u.type, C / 2 - 5.5, 7.2, 11, 7));
  g.append(sv('text', { class: 'values', x: C / 2, y: 20.2, 'text-anchor': 'middle' },
    sv('tspan', { class: 'sp' }, fmtNum(u.sp)), sv('tspan', { class: 'sep' }, '-'), sv('tspan', { class: 'cr' }, String(u.cr))));
  if (u.battleworn) g.append(badge(-0.6, 0.6, 'BW', 'battleworn', 'face'));
  let by = 5;
  const right = (text, cls, kind) => { g.append(badge(C + 0.6, by, text, cls, kind)); by += 5.8; };
  if (u.morale_hits) right(`MH${u.morale_hits}`, 'morale', 'morale');
  if (b?.order) right(b.order[0].toUpperCase(), `order ${b.order}`, 'order');
  if (u.skirmish) right('SK', 'skirmish', 'skirmish');
  if (u.shaken) right('SH', 'shaken', 'shaken');
  if (u.on_hold || b?.on_hold) right('OH', 'on-hold', 'on-hold');
  return g;
}

function leaderCounter(l, x, y) {
  const s = C * 0.8;
  const off = (C - s) / 2;
  const g = sv('g', { class: `counter leader ${l.side}`, 'data-leader': l.id, 'data-hex': l.hex,
    transform: `translate(${(x + off).toFixed(2)},${(y + off).toFixed(2)})` });
  g.append(sv('title', {}, `${l.name}, ${l.level} leader (${sideName(l.side)}), in ${l.hex}`));
  g.append(sv('rect', { class: 'face', x: 0, y: 0, width: s, height: s, rx: 3, fill: `url(#g-${l.side})`, filter: 'url(#f-shadow)' }));
  g.append(sv('path', { class: 'leader-big-star', d: starPath(s / 2, s / 2 - 0.5, 4.6) }));
  g.append(sv('text', { class: 'name', x: s / 2, y: s - 2.2, 'text-anchor': 'middle' }, l.name.length > 10 ? `${l.name.slice(0, 9)}.` : l.name));
  return g;
}

function starPath(cx, cy, r) {
  let d = '';
  for (let i = 0; i < 10; i++) {
    const rad = i % 2 ? r * 0.42 : r;
    const a = (-90 + i * 36) * Math.PI / 180;
    d += `${i ? 'L' : 'M'}${(cx + rad * Math.cos(a)).toFixed(2)},${(cy + rad * Math.sin(a)).toFixed(2)}`;
  }
  return `${d}Z`;
}

// ---------------------------------------------------------------------------------------------
// Hex targets of the pending decision

function renderTargets(d) {
  if (!st.svg) return;
  const layer = st.svg.querySelector('#layer-targets');
  const marks = st.svg.querySelector('#layer-marks');
  const nodes = [];
  const byHex = new Map();
  for (const o of decisionOptions(d)) {
    const hex = optionHex(o);
    if (!hex || !st.centres.has(hex)) continue;
    if (!byHex.has(hex)) byHex.set(hex, []);
    byHex.get(hex).push(o);
  }
  for (const [hex, os] of byHex) {
    const [x, y] = st.centres.get(hex);
    const o = os[0];
    const cost = os.length === 1 ? optionCost(o) : null;
    const verb = o.id.split(':')[0];
    const g = sv('g', { class: `target ${verb}`, 'data-hex': hex, 'data-option': o.id, 'data-options': os.map((p) => p.id).join(' '), role: 'button' },
      sv('title', {}, os.map((p) => p.label).join('\n')),
      sv('path', { d: hexPath(x, y, 19), class: 'ring' }));
    if (cost) g.append(sv('text', { x, y: y + 13.5, 'text-anchor': 'middle', class: 'cost' }, cost));
    nodes.push(g);
  }
  // Hexside options: a diamond on the hexside.
  const bySide = new Map();
  for (const o of decisionOptions(d)) {
    const side = optionSide(o);
    if (!side || !st.centres.has(side[0]) || !st.centres.has(side[1])) continue;
    const key = side.join('-');
    if (!bySide.has(key)) bySide.set(key, []);
    bySide.get(key).push(o);
  }
  for (const [key, os] of bySide) {
    const [a, b] = key.split('-').map((h) => st.centres.get(h));
    const x = (a[0] + b[0]) / 2;
    const y = (a[1] + b[1]) / 2;
    nodes.push(sv('g', { class: `target side ${os[0].id.split(':')[0]}`, 'data-side': key, 'data-option': os[0].id, 'data-options': os.map((p) => p.id).join(' '), role: 'button' },
      sv('title', {}, os.map((p) => p.label).join('\n')),
      sv('path', { d: `M${x},${y - 6}L${x + 6},${y}L${x},${y + 6}L${x - 6},${y}Z`, class: 'ring' })));
  }
  layer.replaceChildren(...nodes);
  // The hex whose march is in progress, if the stage says so.
  const mk = [];
  const active = activeUnit(d);
  const au = active && d.view.units.find((u) => u.id === active);
  if (au?.hex && st.centres.has(au.hex)) {
    const [x, y] = st.centres.get(au.hex);
    mk.push(sv('path', { d: hexPath(x, y, 19.5), class: 'active-hex', 'data-active': au.id }));
  }
  if (st.inspect && st.centres.has(st.inspect)) {
    const [x, y] = st.centres.get(st.inspect);
    mk.push(sv('path', { d: hexPath(x, y, 19.5), class: 'inspected-hex' }));
  }
  marks.replaceChildren(...mk);
}

/** The id of the unit whose march the stage holds, if any. */
function activeUnit(d) {
  if (st.replayAt !== null) return null;
  const stage = d.view?.stage || {};
  const i = stage.march?.unit ?? stage.unit;
  return typeof i === 'number' ? d.view.units[i]?.id || null : null;
}

/** Bring the decision's hexes and counters into view when none of them is on screen. */
function ensureVisible(d) {
  if (!st.svg || !st.vb) return;
  const v = d.view || {};
  const hexes = [];
  for (const o of decisionOptions(d)) {
    const h = optionHex(o);
    if (h) hexes.push(h);
    for (const id of optionNames(o, d)) {
      const u = (v.units || []).find((x) => x.id === id) || (v.leaders || []).find((x) => x.id === id);
      if (u?.hex) hexes.push(u.hex);
    }
  }
  const pts = hexes.map((h) => st.centres.get(h)).filter(Boolean);
  if (!pts.length) return;
  const { x, y, w, h } = st.vb;
  const m = 20;
  if (pts.some(([px, py]) => px > x + m && px < x + w - m && py > y + m && py < y + h - m)) return;
  const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  st.vb = { x: mx - w / 2, y: my - h / 2, w, h };
  setViewBox();
}

function hexPath(cx, cy, r) {
  let d = '';
  for (let k = 0; k < 6; k++) {
    const a = (30 + 60 * k) * Math.PI / 180;
    d += `${k ? 'L' : 'M'}${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`;
  }
  return `${d}Z`;
}

// ---------------------------------------------------------------------------------------------
// Decision panel

function renderDecision(d) {
  const box = $('#decision');
  const parts = [];
  if (st.replayAt !== null) {
    parts.push(el('h2', { text: 'Replay' }),
      el('p', { class: 'waiting', text: `The game as it stood after ${st.replayAt} of ${st.data.seq} actions. Nothing can be done here.` }));
  } else if (d.over) {
    parts.push(el('h2', { text: 'The game is over' }), finalScore(d));
  } else if (!d.decision) {
    const who = d.waiting_for ? sideName(d.waiting_for) : 'the other side';
    const comp = d.computer && d.waiting_for === d.computer ? ' (the computer)' : '';
    parts.push(el('h2', { text: 'Waiting' }),
      el('p', { class: 'waiting', id: 'waiting', text: `Waiting for the other side (${d.waiting_for || '?'})`, title: `${who}${comp} is deciding` }));
  } else {
    const dec = d.decision;
    box.dataset.side = dec.side;
    box.dataset.kind = dec.kind;
    parts.push(el('h2', {}, el('span', { class: `side-dot ${dec.side}` }), `${sideName(dec.side)} · ${words(dec.kind)}`));
    const combat = dec.kind === 'attack-confirm' ? d.view?.combat : null;
    if (combat) {
      // The preview as tables; the same figures as the prompt, which stays one click away.
      parts.push(combatPreview(combat),
        el('details', { class: 'prompt-text' }, el('summary', { text: 'As text' }), el('div', { class: 'prompt', id: 'prompt', text: dec.prompt })));
    } else {
      parts.push(el('div', { class: 'prompt', id: 'prompt', text: dec.prompt }));
    }
    const names = optionsByCounter(d);
    const hexOpts = dec.options.filter((o) => optionHex(o));
    if (hexOpts.length) parts.push(el('p', { class: 'hint', text: 'Click a highlighted hex on the map, or a button below.' }));
    else if (names.size) parts.push(el('p', { class: 'hint', text: 'Click a highlighted counter on the map, or a button below.' }));
    const list = el('div', { class: 'options' });
    dec.options.forEach((o, i) => {
      const cost = optionCost(o);
      const end = END_IDS.test(o.id);
      list.append(el('button', {
        type: 'button', class: `option${end ? ' end' : ''}${optionHex(o) ? ' hex' : ''}`, 'data-option': o.id,
        title: o.id, onclick: () => choose(o.id),
        onmouseenter: () => hilite(o, true), onmouseleave: () => hilite(o, false),
      }, i < 9 ? el('kbd', { text: String(i + 1) }) : null, el('span', { class: 'label', text: o.label }), cost ? el('span', { class: 'cost', text: cost }) : null));
    });
    parts.push(list);
    // The computer opponent plays GCACW; online the other side is a person, so no hints there,
    // nor for a die entered by hand.
    if (d.mode !== 'online' && d.setup?.system === 'gcacw' && dec.kind !== 'roll') {
      parts.push(el('p', { class: 'advice' },
        el('button', { type: 'button', id: 'ask-hint', text: 'What would the computer do?', onclick: askHint }),
        el('span', { id: 'hint-answer', class: 'hint-answer' })));
    }
  }
  if (!(d.decision && st.replayAt === null)) { delete box.dataset.side; delete box.dataset.kind; }
  box.replaceChildren(...parts);
}

/** Asks the server what the computer opponent would choose here (docs/web-api.md, hint) and
 * marks that option; the choice stays the player's. */
async function askHint() {
  const seq = st.data.seq;
  const answer = $('#hint-answer');
  answer.textContent = 'The computer is thinking…';
  try {
    const h = await api('GET', `/api/games/${encodeURIComponent(st.game)}/hint`);
    if (st.data.seq !== seq || !$('#hint-answer')) return;
    $('#decision .option.advised')?.classList.remove('advised');
    const advised = $(`#decision .option[data-option="${CSS.escape(h.option)}"]`);
    advised?.classList.add('advised');
    advised?.scrollIntoView({ block: 'center' });
    $('#hint-answer').textContent = `The computer would choose: ${h.label}`;
  } catch (e) {
    if ($('#hint-answer')) $('#hint-answer').textContent = '';
    toast(e.message);
  }
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const pct = (p) => `${p.toFixed(1)}%`;

/** The combat preview of the view's `combat` (docs/web-api.md): both sides' modifiers with their
 * rule sections, the artillery line, the chart columns, the odds of every reachable row (the most
 * likely marked) and the expected Manpower losses. */
function combatPreview(c) {
  const mods = (who, s) => el('table', { class: 'cp-mods', 'data-side': who },
    el('caption', {}, el('span', { class: `side-dot ${s.side}` }),
      `${cap(who)} (${sideName(s.side)}): Combat ${s.combat}${s.entrenched && s.entrenched !== s.combat ? `, ${s.entrenched} entrenched` : ''}`),
    el('tbody', {}, s.modifiers.length
      ? s.modifiers.map((m) => el('tr', {}, el('td', { class: 'label', text: m.label }),
        el('td', { class: 'value', text: signed(m.value) }), el('td', { class: 'rule', text: m.rule })))
      : el('tr', {}, el('td', { class: 'label muted', colspan: 3, text: 'No modifier' }))),
    el('tfoot', {}, el('tr', {}, el('td', { text: who === 'attacker' ? 'Total (artillery apart)' : 'Total' }), el('td', { class: 'value', text: signed(s.total) }), el('td'))));
  const art = c.artillery;
  const odds = el('table', { class: 'cp-odds' },
    el('thead', {}, el('tr', {}, el('th', { text: 'Row' }), el('th', { text: 'Defender' }), el('th', { text: 'Attacker' }), el('th', { text: 'Chance' }))),
    el('tbody', {}, c.rows.map((r) => el('tr', {
      'data-row': r.row, class: r.most_likely ? 'most-likely' : null,
      title: `${r.ways} of ${r.out_of}${r.most_likely ? ' (most likely)' : ''}`,
    },
    el('td', { class: 'row', text: signed(r.row) }),
    el('td', { class: 'loss', 'data-loss': r.defender.loss, title: `Manpower loss ${r.defender.loss}`, text: r.defender.result }),
    el('td', { class: 'loss', 'data-loss': r.attacker.loss, title: `Manpower loss ${r.attacker.loss}`, text: r.attacker.result }),
    el('td', { class: 'chance' }, el('span', { class: 'bar', style: `width:${r.percent}%` }), el('span', { text: pct(r.percent) }))))));
  return el('div', { class: 'combat-preview', id: 'combat-preview' },
    el('p', { class: 'cp-head' }, el('b', { text: c.attacker.what }), ` attacks ${c.target}`),
    el('p', { class: 'cp-ratio' }, el('span', { class: 'chip-ratio', text: `Ratio ${c.ratio}` }),
      ` Columns: defender ${c.columns.defender}, attacker ${c.columns.attacker}`),
    el('p', { class: 'cp-expected' }, 'Expected Manpower loss: defender ', el('b', { 'data-side': 'defender', text: c.expected_loss.defender.toFixed(2) }),
      ', attacker ', el('b', { 'data-side': 'attacker', text: c.expected_loss.attacker.toFixed(2) }),
      c.extra_attacker_loss ? ` (grand assault: +${c.extra_attacker_loss} to each attacker loss)` : ''),
    mods('attacker', c.attacker),
    el('p', { class: 'cp-art', title: `Artillery ${art.attacker} − ${art.defender} = ${signed(art.differential)}` },
      'Artillery modifier ', el('b', { text: art.modifier }), ` — ${art.label} `, el('span', { class: 'rule', text: art.rule })),
    mods('defender', c.defender),
    odds,
    c.notes.length ? el('ul', { class: 'cp-notes' }, c.notes.map((n) => el('li', { text: n }))) : null);
}

function hilite(o, on) {
  if (!st.svg) return;
  const hex = optionHex(o);
  if (hex) st.svg.querySelector(`.target[data-hex="${hex}"]`)?.classList.toggle('hot', on);
  const side = optionSide(o);
  if (side) st.svg.querySelector(`.target[data-side="${side.join('-')}"]`)?.classList.toggle('hot', on);
  for (const id of optionNames(o, st.shown)) {
    st.svg.querySelector(`[data-unit="${id}"], [data-leader="${id}"]`)?.closest('.counter')?.classList.toggle('hot', on);
  }
}

/** Each side's VP, from a view with `sides` (Blind Swords). */
function sideVp(v) {
  return Object.entries(v.sides || {}).map(([side, x]) => [side, x.vp]);
}

/** A score without a VP side: its result in words and its lines (Blind Swords). */
function scoreLines(v) {
  const sc = v.score;
  return [el('p', { class: 'score-line' }, el('strong', { text: sideVp(v).map(([s, vp]) => `${sideName(s)} ${vp} VP`).join(' · ') }),
    el('span', { class: 'result', text: sc.result ? ` · ${sc.result}` : '' })),
  (sc.lines || []).length ? el('ul', { class: 'score-items' }, sc.lines.map((l) => el('li', { text: l }))) : null];
}

function finalScore(d) {
  const sc = d.view?.score;
  if (!sc) return el('p', { text: 'No score.' });
  if (!sc.side) return el('div', { id: 'final-score' }, el('p', { class: 'verdict', text: sc.result || '' }), ...scoreLines(d.view));
  return el('div', { id: 'final-score' },
    el('p', { class: 'verdict', text: `${sc.level}` }),
    el('p', { text: `${sideName(sc.side)} ${fmtNum(sc.total)} VP` }),
    scoreTable(sc));
}

function scoreTable(sc) {
  return el('table', { class: 'score-items' }, ...(sc.items || []).map((it) => el('tr', { 'data-item': it.id, title: it.text },
    el('td', { class: 'vp', text: fmtNum(it.vp) }), el('td', {}, el('div', { text: it.detail }), el('div', { class: 'muted small', text: it.text })))));
}

// ---------------------------------------------------------------------------------------------
// Popover on a stack

function stackClick(stack, e) {
  const d = st.shown;
  const opts = optionsByCounter(d);
  const ids = [...stack.querySelectorAll('.counter')].map((c) => (c.dataset.unit || `leader:${c.dataset.leader}`)).reverse();
  // An option naming several counters here (a brigade's) is listed once, under the first of them.
  const listed = new Set();
  const entries = ids.filter((id) => opts.has(id))
    .map((id) => [id, opts.get(id).filter((o) => !listed.has(o.id) && listed.add(o.id))])
    .filter(([, os]) => os.length);
  const all = entries.flatMap(([, os]) => os);
  if (!all.length) { closePopover(); return; }
  if (all.length === 1) { closePopover(); choose(all[0].id); return; }
  const v = d.view;
  const nameOf = (id) => (id.startsWith('leader:') ? v.leaders.find((l) => `leader:${l.id}` === id)?.name : v.units.find((u) => u.id === id)?.name) || id;
  popover(entries, e, nameOf);
}

/** A small menu at the pointer: groups of option buttons, each group under a heading. */
function popover(entries, e, nameOf) {
  const pop = $('#popover');
  pop.replaceChildren(...entries.map(([id, os]) => el('div', { class: 'pop-unit', 'data-unit': id },
    el('div', { class: 'pop-name', text: nameOf(id) }),
    ...os.map((o) => el('button', { type: 'button', 'data-option': o.id, onclick: () => { closePopover(); choose(o.id); } }, o.label)))));
  const board = $('#board').getBoundingClientRect();
  pop.hidden = false;
  const pw = pop.offsetWidth;
  const ph = pop.offsetHeight;
  pop.style.left = `${Math.min(Math.max(e.clientX - board.left + 12, 4), board.width - pw - 4)}px`;
  pop.style.top = `${Math.min(Math.max(e.clientY - board.top + 12, 4), board.height - ph - 4)}px`;
}

function closePopover() { $('#popover').hidden = true; }

// ---------------------------------------------------------------------------------------------
// Inspector: everything in one hex

function inspect(hex) {
  st.inspect = hex;
  renderInspector();
  if (st.shown) renderTargets(st.shown);
}

function renderInspector() {
  const box = $('#inspector');
  const d = st.shown;
  if (!st.inspect || !d) { box.hidden = true; return; }
  const hex = st.inspect;
  const poly = st.svg?.querySelector(`polygon[data-hex="${hex}"]`);
  const title = poly?.querySelector('title')?.textContent || hex;
  const v = d.view || {};
  const units = (v.units || []).filter((u) => u.hex === hex && !u.eliminated);
  const leaders = (v.leaders || []).filter((l) => l.hex === hex);
  const opts = optionsByCounter(d);
  const hexOpts = decisionOptions(d).filter((o) => optionHex(o) === hex);
  const rows = [
    ...units.map((u) => el('li', { 'data-unit': u.id, class: u.side },
      el('span', { class: `side-dot ${u.side}` }),
      el('strong', { text: u.name }), 'sp' in u
        ? ` ${words(u.type).toLowerCase()} · SP ${fmtNum(u.sp)} · CR ${u.cr} · ${brigadeOf(v, u)?.leader || u.brigade || 'no'} brigade`
        : ` ${u.type} · manpower ${u.manpower} · combat ${u.combat} · tactical ${u.tactical} · fatigue ${u.fatigue}`,
      unitStatus(u).length ? el('span', { class: 'status', text: ` · ${unitStatus(u).join(', ')}` }) : null,
      ...(opts.get(u.id) || []).map((o) => el('button', { type: 'button', class: 'mini', 'data-option': o.id, onclick: () => choose(o.id) }, o.label)))),
    ...leaders.map((l) => el('li', { 'data-leader': l.id, class: l.side },
      el('span', { class: 'star', text: '★' }), el('strong', { text: l.name }), ` ${l.level} leader${l.with ? ` with ${v.units.find((u) => u.id === l.with)?.name || l.with}` : ''} · tactical ${l.tactical ?? '–'} · command ${l.command ?? '–'}`,
      ...(opts.get(`leader:${l.id}`) || []).map((o) => el('button', { type: 'button', class: 'mini', 'data-option': o.id, onclick: () => choose(o.id) }, o.label)))),
  ];
  box.replaceChildren(
    el('h2', {}, el('span', { text: title }), el('button', { type: 'button', class: 'close', title: 'Close', text: '×', onclick: () => { st.inspect = null; renderInspector(); renderTargets(st.shown); } })),
    rows.length ? el('ul', { class: 'contents' }, ...rows) : el('p', { class: 'muted', text: 'Nothing here.' }),
    ...hexOpts.map((o) => el('button', { type: 'button', class: 'mini', 'data-option': o.id, onclick: () => choose(o.id) }, o.label)));
  box.dataset.hex = hex;
  box.hidden = false;
}

// ---------------------------------------------------------------------------------------------
// Rosters, score, notices

function renderRosters(d) {
  const v = d.view || {};
  const leadersWith = new Map();
  for (const l of v.leaders || []) if (l.with) {
    if (!leadersWith.has(l.with)) leadersWith.set(l.with, []);
    leadersWith.get(l.with).push(l.name);
  }
  const opts = optionsByCounter(d);
  for (const side of ['union', 'confederate']) {
    const units = (v.units || []).filter((u) => u.side === side);
    const bs = units.some((u) => 'sp' in u);
    const cols = bs ? [['Unit', ''], ['Hex', 'Hex'], ['SP', 'Strength Points'], ['CR', 'Cohesion Rating'], ['Brigade', 'Brigade leader'], ['Status', '']]
      : [['Unit', ''], ['Hex', 'Hex'], ['MP', 'Manpower'], ['Cbt', 'Combat value'], ['Fat', 'Fatigue'], ['Status', '']];
    const head = el('tr', {}, ...cols.map(([h, title]) => el('th', { text: h, title })));
    const rows = units.map((u) => {
      const status = u.eliminated ? ['eliminated'] : unitStatus(u);
      const lw = leadersWith.get(u.id);
      return el('tr', {
        'data-unit': u.id, class: `${u.eliminated ? 'eliminated' : ''}${opts.has(u.id) ? ' selectable' : ''}`,
        onclick: () => { if (u.hex) { centreOn([u.hex], st.vb ? st.vb.w : 420); inspect(u.hex); } },
      },
      el('td', { class: 'name' }, el('span', { class: `type-icon ${u.type}`, title: u.type }), u.name, lw ? el('span', { class: 'star', title: `With ${lw.join(', ')}`, text: ' ★'.repeat(lw.length) }) : null),
      el('td', { class: 'hex', text: u.hex || (u.off_map ? 'off map' : '—') }),
      ...(bs ? [
        el('td', { class: 'num sp', text: fmtNum(u.sp) }),
        el('td', { class: 'num cr', text: String(u.cr) }),
        el('td', { class: 'brigade', text: brigadeOf(v, u)?.leader || '–' }),
      ] : [
        el('td', { class: 'num', text: String(u.manpower) }),
        el('td', { class: 'num', text: String(u.combat) }),
        el('td', { class: `num fat f${Math.min(u.fatigue, 4)}`, text: u.fatigue ? `F${u.fatigue}` : '–' }),
      ]),
      el('td', { class: 'status', text: status.join(', ') }));
    });
    const onMap = units.filter((u) => u.hex && !u.eliminated && st.centres.has(u.hex)).length;
    const box = $(`#roster-${side}`);
    box.querySelector('h2').textContent = `${sideName(side)} · ${onMap} of ${units.length} on the map`;
    box.querySelector('table').replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
  }
}

function renderScore(d) {
  const sc = d.view?.score;
  const box = $('#score-body');
  if (!sc) { box.replaceChildren(); return; }
  if (!sc.side) { box.replaceChildren(...scoreLines(d.view)); return; }
  box.replaceChildren(
    el('p', { class: 'score-line' }, el('strong', { text: `${sideName(sc.side)} ${fmtNum(sc.total)} VP` }), el('span', { text: ` · ${sc.level}` })),
    el('details', {}, el('summary', { text: 'How the points add up' }), scoreTable(sc)));
}

/** The chits (Blind Swords): turn and clock, the cup's size, each side's VP, Key Chit and held
 * chits as the view gives them (a side the seat may not see comes as a count and "hidden" only),
 * the chits played this turn and the Buell Alert Track. */
function renderChits(d) {
  const v = d.view || {};
  const box = $('#chits-panel');
  if (!v.sides || !v.cup) { box.hidden = true; return; }
  const chit = (c, cls = 'chit') => el('li', { class: cls, 'data-chit': c.id, text: c.name });
  const sides = Object.entries(v.sides).map(([side, x]) => {
    const own = Array.isArray(x.held);
    const key = own
      ? el('p', { class: 'key' }, 'Key Chit: ', x.key ? el('span', { class: 'chit key', 'data-chit': x.key.id, text: x.key.name }) : el('span', { class: 'muted', text: 'none' }))
      : el('p', { class: 'key muted', text: x.key ? 'Key Chit: picked, face down' : 'Key Chit: none' });
    const held = own
      ? (x.held.length ? el('ul', { class: 'held' }, x.held.map((c) => chit(c))) : el('p', { class: 'held muted', text: 'No chit held' }))
      : el('p', { class: 'held muted', 'data-held-count': x.held_count, text: `${x.held_count} chit${x.held_count === 1 ? '' : 's'} held, face down` });
    return el('div', { class: `chit-side ${side}`, 'data-side': side, 'data-own': own ? 'true' : 'false' },
      el('h3', {}, el('span', { class: `side-dot ${side}` }), `${sideName(side)} · ${x.vp} VP`), key, held);
  });
  const track = v.buell_track || [];
  $('#chits-body').replaceChildren(
    el('p', { class: 'clock' }, el('b', { text: `Turn ${v.turn} of ${v.turns}` }), v.clock ? ` · ${v.clock}` : '',
      v.chit_puller ? ` · the ${sideName(v.chit_puller)} player draws` : ''),
    el('p', { class: 'cup', 'data-count': v.cup.count, text: `Cup: ${v.cup.count} chit${v.cup.count === 1 ? '' : 's'}` }),
    ...sides,
    (v.played || []).length ? el('div', { class: 'played' }, el('h3', { text: 'Played this turn' }), el('ul', {}, v.played.map((c) => chit(c)))) : null,
    track.length ? el('div', { class: 'buell' }, el('h3', { text: 'Buell Alert Track' }),
      el('ol', { id: 'buell-track' }, track.map((name, i) => el('li', { 'data-box': i, class: v.buell?.box === i ? 'current' : null, text: name })))) : null);
  box.hidden = false;
}

function renderNotices(d) {
  const ul = $('#notices ul');
  ul.replaceChildren(...(d.notices || []).map((n) => el('li', { text: n })));
  $('#notices').hidden = !(d.notices || []).length;
}

// ---------------------------------------------------------------------------------------------
// Log


function renderLog(d) {
  const ol = $('#log');
  const log = d.log || [];
  const grew = log.length !== ol.children.length;
  const items = log.map((e, i) => {
    const li = el('li', { 'data-i': i, 'data-turn': e.turn },
      el('span', { class: 'turn', text: `T${e.turn}` }),
      el('span', { class: 'text', text: e.text }),
      e.rule ? el('span', { class: 'rule', text: e.rule }) : null);
    if (e.roll) {
      const r = e.roll;
      const mods = (r.modifiers || []).map((m) => `${m.value >= 0 ? '+' : '−'}${Math.abs(m.value)} ${m.label}`);
      li.append(el('div', { class: 'roll', title: r.purpose },
        el('span', { class: 'dice' }, ...(r.dice || []).map((x) => el('span', { class: 'die', text: String(x) }))),
        el('span', { text: ` ${(r.dice || []).join('+')}${mods.length ? ` ${mods.join(' ')}` : ''} = ${r.total}` }),
        r.result ? el('span', { class: 'result', text: ` → ${r.result}` }) : null));
      li.classList.add('has-roll');
    }
    if (i > 0 && log[i - 1].turn !== e.turn) li.classList.add('new-turn');
    return li;
  });
  ol.replaceChildren(...items);
  if (grew) ol.scrollTop = ol.scrollHeight;
}

// ---------------------------------------------------------------------------------------------
// Replay

function updateReplayControl() {
  const d = st.data;
  if (!d) return;
  const s = $('#replay-slider');
  s.max = String(d.seq);
  if (st.replayAt === null) s.value = String(d.seq);
  $('#replay-at').textContent = st.replayAt === null ? `· live (${d.seq} actions)` : `· after ${st.replayAt} of ${d.seq}`;
  $('#replay-live').hidden = st.replayAt === null;
  document.body.classList.toggle('replaying', st.replayAt !== null);
}

let replayTimer = null;
function replayInput() {
  clearTimeout(replayTimer);
  replayTimer = setTimeout(async () => {
    const at = Number($('#replay-slider').value);
    if (at >= st.data.seq) { backToLive(); return; }
    try {
      const r = await api('GET', `/api/games/${encodeURIComponent(st.game)}/replay?at=${at}`);
      st.replayAt = at;
      await show({ ...r, decision: null });
    } catch (e) {
      toast(`Replay: ${e.message}`);
    }
  }, 120);
}

function backToLive() {
  st.replayAt = null;
  show(st.data);
}

// ---------------------------------------------------------------------------------------------
// Keyboard

function keydown(e) {
  if ($('#table').hidden || e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || '').toLowerCase();
  if (tag === 'input' || tag === 'select' || tag === 'textarea') return;
  if (e.key === 'Escape') { closePopover(); return; }
  if (e.key === '+' || e.key === '=') { zoomAt(1 / 1.25); return; }
  if (e.key === '-') { zoomAt(1.25); return; }
  if (e.key === '0') { frameUnits(st.shown); return; }
  const opts = decisionOptions(st.shown || {});
  if (!opts.length || st.busy) return;
  if (e.key === 'Enter' || e.key === 'p') {
    if (tag === 'button' && e.key === 'Enter') return; // the focused button handles it
    const ends = opts.filter((o) => END_IDS.test(o.id));
    if (ends.length === 1) { e.preventDefault(); choose(ends[0].id); }
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const o = opts[Number(e.key) - 1];
    if (o) { e.preventDefault(); choose(o.id); }
    return;
  }
  if (e.key === 'u' && st.shown.can_undo) act('undo', {});
}

// ---------------------------------------------------------------------------------------------
// Start

function route() {
  const q = new URLSearchParams(location.search);
  const game = q.get('game');
  const token = q.get('token');
  if (game && token) openGame(game, token);
  else {
    if (st.events) st.events.close();
    st.game = null;
    $('#status').hidden = true;
    $('#tools').hidden = true;
    showLobby();
  }
}

$('#new-game-form').addEventListener('submit', startGame);
$('#new-game-form').addEventListener('change', botNote);
$('#import-file').addEventListener('change', importSave);
$('#undo').addEventListener('click', () => act('undo', {}));
$('#zoom-in').addEventListener('click', () => zoomAt(1 / 1.3));
$('#zoom-out').addEventListener('click', () => zoomAt(1.3));
$('#zoom-fit').addEventListener('click', () => frameUnits(st.shown));
$('#replay-slider').addEventListener('input', replayInput);
$('#replay-live').addEventListener('click', backToLive);
document.addEventListener('keydown', keydown);
document.addEventListener('click', (e) => { if (!e.target.closest('#popover') && !e.target.closest('#map')) closePopover(); });
window.addEventListener('popstate', route);
route();

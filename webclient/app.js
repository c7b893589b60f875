// Kiwi Chow Down web client: plain JavaScript and SVG, no build step. It speaks only the public protocol
// (protocol 1, docs/PROTOCOL.md) over the server's WebSocket: hello, content, lobby, create, join, apply, undo,
// redo. A seat's token arrives in an invite link's fragment (/#seat=<token>, never sent to a server) or from
// create/join, and is kept in sessionStorage: per tab, so two tabs of one browser joined by two links play two
// seats, and a reload joins the same seat again. Nothing but the player's name goes to localStorage.
"use strict";

const PROTOCOL = 1;
const STORE_KEY = "kcd.seat";
const NAME_KEY = "kcd.name";
const LOBBY_REFRESH_MS = 3000;
const TERRAIN_COLOURS = { flower: "#f3a7c8", grass: "#93d48c", mountain: "#b9b1a7", sand: "#f1dc9c" };
const FRUIT_COLOURS = { red: "#d62828", green: "#3a9d23", yellow: "#f2c200", blue: "#2f6fd6" };
const HEX = 34;

const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";

const state = {
  ws: null, nextId: 1, waiting: new Map(), catalogue: null, seat: null, view: null,
  selected: null,        // {hex, flock?, size?, leader?}: the source picked on the board
  lastOwnSeq: null,      // the view's seq right after our own latest decision
  ownView: null,         // the view then: what changed since is others' doing
  recentFrom: 0,         // log lines from here on are others' recent moves
  busy: false,           // an undo or redo is on its way
};

// --- protocol -----------------------------------------------------------------------------------------
function connect() {
  return new Promise((resolve) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    state.ws = ws;
    ws.onopen = () => { $("connection").textContent = "connected"; resolve(); };
    ws.onclose = () => {
      // the server went away (a restart): try again, then join the same seat; the game goes on where it was
      $("connection").textContent = "disconnected: reconnecting…";
      for (const [, r] of state.waiting) r({ ok: false, error: { code: "disconnected", message: "connection lost" } });
      state.waiting.clear();
      setTimeout(reconnect, 1000);
    };
    ws.onmessage = (event) => onMessage(JSON.parse(event.data));
  });
}

async function reconnect() {
  await connect();
  if (state.seat) {
    const reply = await request("join", state.seat.token ? { token: state.seat.token } : { game: state.seat.game });
    if (reply.ok) showView(reply.view);
  }
}

function savedSeat() {
  try { return JSON.parse(sessionStorage.getItem(STORE_KEY) || "null"); } catch (e) { return null; }
}
function keepSeat(saved) { sessionStorage.setItem(STORE_KEY, JSON.stringify(saved)); }
function forgetSeat() { sessionStorage.removeItem(STORE_KEY); }
function myName() {
  const name = $("player-name").value.trim();
  if (name) localStorage.setItem(NAME_KEY, name);
  return name || null;
}

function request(op, fields = {}) {
  const id = state.nextId++;
  return new Promise((resolve) => {
    state.waiting.set(id, resolve);
    state.ws.send(JSON.stringify({ protocol: PROTOCOL, id, op, ...fields }));
  });
}

function onMessage(message) {
  if (message.push === "update") {
    if (state.seat && message.game === state.seat.game) showView(message.view);
    return;
  }
  const resolve = state.waiting.get(message.id);
  if (resolve) { state.waiting.delete(message.id); resolve(message); }
}

function showError(text) {
  const box = $("error");
  box.textContent = text || "";
  box.hidden = !text;
}

async function call(op, fields) {
  const reply = await request(op, fields);
  if (!reply.ok) showError(`${op}: ${reply.error.message} (${reply.error.code})`); else showError("");
  return reply;
}

// --- setup ----------------------------------------------------------------------------------------------
async function loadCatalogue(edition) {
  const content = edition ? { editions: [edition] } : {};
  const reply = await call("content", { content });
  if (reply.ok) state.catalogue = reply.catalogue;
  return reply.ok;
}

function option(value, text, selected) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text; if (selected) o.selected = true;
  return o;
}

function fillSetup() {
  const cat = state.catalogue;
  const edition = $("edition");
  if (edition.options.length === 1) {
    for (const p of cat.packs.filter((p) => p.kind === "edition")) edition.appendChild(option(p.id, p.name));
  }
  const players = $("players");
  const chosen = Number(players.value) || 2;
  const wasSolo = players.value === "solo";
  players.replaceChildren();
  if (cat.modes.includes("solo")) players.appendChild(option("solo", "Solo against Kiwibot", wasSolo));
  for (let n = 2; n <= cat.players.max; n++) players.appendChild(option(n, `${n} players`, n === chosen));
  const variant = $("variant");
  variant.replaceChildren(option("", "Standard"));
  for (const v of cat.variants) variant.appendChild(option(v.id, v.name));
  fillSeats();
}

function fillSeats() {
  const cat = state.catalogue;
  const solo = $("players").value === "solo";
  const n = solo ? 2 : Number($("players").value) || 2;
  $("variant").disabled = solo;
  const body = $("seats");
  body.replaceChildren();
  for (let i = 0; i < n; i++) {
    const tr = document.createElement("tr");
    const flock = document.createElement("select");
    flock.className = "seat-flock"; flock.id = `seat-${i}-flock`;
    cat.flocks.forEach((f) => flock.appendChild(option(f.id, f.name, f.id === cat.seat_order[i])));
    const who = document.createElement("select");
    who.className = "seat-who"; who.id = `seat-${i}-who`;
    if (i === 0) who.appendChild(option("human", "You"));
    if (solo && i === 1) who.appendChild(option("kiwibot", "Kiwibot (the solo automa)"));
    else {
      if (i > 0) {
        who.appendChild(option("invite", "A friend (invite link)"));
        who.appendChild(option("open", "Open seat (anyone in the lobby)"));
      }
      for (const b of cat.bots) who.appendChild(option(`bot:${b}`, `Bot: ${b}`, i > 0 && b === "greedy"));
    }
    const leader = document.createElement("select");
    leader.className = "seat-leader"; leader.id = `seat-${i}-leader`;
    leader.appendChild(option("", "Dealt at random"));
    cat.leaders.forEach((l) => leader.appendChild(option(l.id, l.name)));
    const cells = [document.createTextNode(`${i + 1}`), flock, who, leader];
    for (const c of cells) { const td = document.createElement("td"); td.appendChild(c); tr.appendChild(td); }
    body.appendChild(tr);
  }
}

async function startGame(event) {
  event.preventDefault();
  const seats = [], leaders = {}, invites = [];
  const solo = $("players").value === "solo";
  const n = solo ? 2 : Number($("players").value);
  const name = myName();
  for (let i = 0; i < n; i++) {
    const flock = $(`seat-${i}-flock`).value;
    const who = $(`seat-${i}-who`).value;
    if (who === "human") seats.push(name ? { flock, kind: "human", name } : { flock, kind: "human" });
    else if (who === "invite") { seats.push({ flock, kind: "human" }); invites.push(flock); }
    else if (who === "open" || who === "kiwibot") seats.push({ flock, kind: who });
    else seats.push({ flock, kind: "bot", bot: who.slice(4) });
    const leader = $(`seat-${i}-leader`).value;
    if (leader) leaders[flock] = leader;
  }
  const fields = { seats, setup: $("setup-kind").value, lobby: $("list-in-lobby").checked };
  if (solo) fields.mode = "solo";
  if ($("edition").value) fields.content = { editions: [$("edition").value] };
  if ($("variant").value && !solo) fields.variant = $("variant").value;
  if (Object.keys(leaders).length) fields.leaders = leaders;
  const reply = await call("create", fields);
  if (!reply.ok) return;
  const you = seats.find((s) => s.kind === "human" && !invites.includes(s.flock)).flock;
  const saved = { game: reply.game, token: reply.tokens[you], edition: $("edition").value };
  keepSeat(saved);
  if (await joinSaved(saved)) showInvites(invites.map((f) => [f, reply.tokens[f]]), saved.edition);
}

// The invite links of the friends' seats, shown once: they live only in this panel, which "Done" empties.
function showInvites(invites, edition) {
  const list = $("invite-links");
  list.replaceChildren();
  for (const [flock, token] of invites) {
    const link = `${location.origin}/#seat=${encodeURIComponent(token)}${edition ? `&edition=${encodeURIComponent(edition)}` : ""}`;
    const li = document.createElement("li");
    li.setAttribute("data-flock", flock);
    const input = text("input", "", { class: "invite-link", readonly: "", value: link, "data-flock": flock, size: "60" });
    const copy = text("button", "Copy", { class: "copy-link", "data-flock": flock });
    copy.addEventListener("click", async () => {
      input.select();
      try { await navigator.clipboard.writeText(link); } catch (e) { document.execCommand("copy"); }
      copy.textContent = "Copied";
    });
    li.append(text("strong", `${flockName(flock)}: `), input, copy);
    list.appendChild(li);
  }
  $("invites").hidden = invites.length === 0;
}

function hideInvites() {
  $("invite-links").replaceChildren();
  $("invites").hidden = true;
}

async function joinSaved(saved, name) {
  if (!(await loadCatalogue(saved.edition))) return false;
  const fields = saved.token ? { token: saved.token } : { game: saved.game };
  if (name && saved.token) fields.name = name;
  const reply = await call("join", fields);
  if (!reply.ok) { forgetSeat(); return false; }
  state.seat = { game: reply.game, token: saved.token || null, flock: reply.seat };
  state.lastOwnSeq = null; state.ownView = null; state.view = null;
  document.body.classList.toggle("spectator", reply.seat === null);
  $("home").hidden = true; $("welcome").hidden = true; $("game").hidden = false; $("new-game").hidden = false;
  drawLegend();
  showView(reply.view);
  return true;
}

// --- the lobby ------------------------------------------------------------------------------------------------
function seatText(s) {
  const who = s.kind === "open" ? "open seat" : s.kind === "bot" ? `bot ${s.bot}` : s.kind === "kiwibot" ? "Kiwibot"
    : s.name || "invited player";
  return `${who} (${s.flock})`;
}

async function refreshLobby() {
  if ($("home").hidden || !state.ws || state.ws.readyState !== WebSocket.OPEN) return;
  const reply = await request("lobby");
  if (!reply.ok) return;
  const body = $("lobby-games");
  body.replaceChildren();
  for (const g of reply.games) {
    const tr = document.createElement("tr");
    tr.setAttribute("data-game", g.game);
    const actions = document.createElement("td");
    const edition = (g.content.editions || [])[0] || "";
    for (const flock of g.open) {
      const b = text("button", `Take ${flock}`, { class: "claim", "data-seat": flock });
      b.addEventListener("click", () => claimSeat(g.game, flock, edition));
      actions.appendChild(b);
    }
    const watch = text("button", "Watch", { class: "watch" });
    watch.addEventListener("click", () => watchGame(g.game, edition));
    actions.appendChild(watch);
    tr.append(text("td", g.game.slice(0, 6), { title: g.game }), text("td", g.seats.map(seatText).join(", ")),
      text("td", String(g.seq)), actions);
    body.appendChild(tr);
  }
  $("lobby-empty").hidden = reply.games.length > 0;
}

async function claimSeat(game, flock, edition) {
  const name = myName();
  const reply = await call("join", name ? { game, seat: flock, name } : { game, seat: flock });
  if (!reply.ok) return refreshLobby();
  const saved = { game, token: reply.token, edition };
  keepSeat(saved);
  await joinSaved(saved);
}

async function watchGame(game, edition) {
  const saved = { game, edition };
  keepSeat(saved);
  if (!(await joinSaved(saved))) refreshLobby();
}

// An invite link: its token is taken out of the address bar at once (not left for a screenshot or a bookmark),
// kept for this tab only, and the player names themselves before joining.
async function arriveByInvite(params) {
  history.replaceState(null, "", location.pathname);
  const token = params.get("seat");
  const edition = params.get("edition") || "";
  if (!(await loadCatalogue(edition))) return false;
  const reply = await call("view", { token });
  if (!reply.ok || reply.seat === null) return false;
  const seat = reply.view.seats.find((s) => s.flock === reply.seat) || {};
  $("welcome-title").textContent = `You are invited to play ${flockName(reply.seat)}`;
  $("welcome-name").value = seat.name || localStorage.getItem(NAME_KEY) || "";
  $("home").hidden = true; $("welcome").hidden = false;
  $("welcome-form").onsubmit = async (event) => {
    event.preventDefault();
    const name = $("welcome-name").value.trim();
    if (name) localStorage.setItem(NAME_KEY, name);
    const saved = { game: reply.game, token, edition };
    keepSeat(saved);
    await joinSaved(saved, name || null);
  };
  return true;
}

// --- options and the board --------------------------------------------------------------------------------
// The hexes an option refers to, in order (from, to): the hex ids among its typed action's values
// (docs/ACTIONS.md: `hex`, `to`, ...), so the client reads structure, never the id string.
function hexesOf(opt) {
  const hexes = state.view.hexes;
  const out = [];
  const walk = (value) => {
    if (typeof value === "string") { if (value in hexes) out.push(value); }
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(opt.action || {});
  return out;
}

// Does an option name this piece? A Kiwi: the action names its piece id (or, for identical Kiwi in one hex,
// the same flock and size: they are one choice); a Leader: an action that names no Kiwi (the Leader's moves,
// steps and landings).
function namesPiece(opt, piece) {
  if (!piece || !piece.flock) return true;
  const a = opt.action || {};
  if (piece.leader) return !("kiwi" in a) && !("size" in a);
  if ("kiwi" in a && a.kiwi === piece.id) return true;
  return a.flock === piece.flock && a.size === piece.size;
}

function myOptions() {
  const v = state.view;
  return v && v.pending && v.pending.player === v.you ? v.pending.options : [];
}

function onBoardClick(hex, piece) {
  const opts = myOptions();
  if (!opts.length) return;
  const withHexes = opts.map((o) => ({ o, h: hexesOf(o) })).filter((x) => x.h.length);
  if (state.selected) {
    const from = state.selected;
    const hits = withHexes.filter((x) => x.h.length > 1 && x.h[0] === from.hex && x.h[x.h.length - 1] === hex
      && namesPiece(x.o, from));
    if (hits.length === 1) return choose(hits[0].o.id);
    if (hits.length > 1) return narrow(hits.map((x) => x.o), "Several options: pick one below");
    state.selected = null;
  }
  const single = withHexes.filter((x) => x.h.length === 1 && x.h[0] === hex);
  const pieceSingle = single.filter((x) => namesPiece(x.o, piece));
  const singles = pieceSingle.length ? pieceSingle : single;
  if (singles.length === 1) return choose(singles[0].o.id);
  if (singles.length > 1) return narrow(singles.map((x) => x.o), "Several options on this hex: pick one below");
  let starts = withHexes.filter((x) => x.h.length > 1 && x.h[0] === hex);
  const pieceStarts = starts.filter((x) => namesPiece(x.o, piece));
  if (pieceStarts.length) starts = pieceStarts;
  if (starts.length) {
    state.selected = { hex, ...(pieceStarts.length ? piece : {}) };
    render();
    $("hint").textContent = `From ${hex}: now click a highlighted hex`;
    return;
  }
  const ends = withHexes.filter((x) => x.h.length > 1 && x.h[x.h.length - 1] === hex);
  if (ends.length === 1) return choose(ends[0].o.id);
  if (ends.length > 1) return narrow(ends.map((x) => x.o), "Several options end here: pick one below");
  $("hint").textContent = `No option on ${hex}`;
}

function narrow(options, text) {
  const ids = new Set(options.map((o) => o.id));
  for (const b of $("options").querySelectorAll("button")) {
    b.classList.toggle("match", ids.has(b.dataset.option));
    b.classList.toggle("dim", !ids.has(b.dataset.option));
  }
  $("hint").textContent = text;
  $("clear-selection").hidden = false;
}

async function choose(optionId) {
  state.selected = null;
  const reply = await call("apply", { token: state.seat.token, option: optionId, seq: state.view.seq });
  if (reply.ok) state.lastOwnSeq = reply.seq;
}

// Undo or redo, with both buttons off while the request is out (a second click would ask twice).
async function takeBack(op) {
  state.busy = true; render();
  const r = await call(op, { token: state.seat.token });
  state.busy = false;
  if (r.ok) state.lastOwnSeq = r.seq;
  render();
}

// --- drawing --------------------------------------------------------------------------------------------------
function flockColour(id) {
  const f = state.catalogue && state.catalogue.flocks.find((x) => x.id === id);
  return f ? f.colour : "#888";
}

function terrainColour(t) {
  if (TERRAIN_COLOURS[t]) return TERRAIN_COLOURS[t];
  let h = 0; for (const c of t) h = (h * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${h}, 45%, 70%)`;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function centre(h) {
  return [HEX * Math.sqrt(3) * (h.q + h.r / 2), HEX * 1.5 * h.r];
}

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return pts.join(" ");
}

function changedHexes() {
  const before = state.ownView, now = state.view;
  const out = new Set();
  if (!before) return out;
  for (const [id, h] of Object.entries(now.hexes)) {
    if (JSON.stringify(h) !== JSON.stringify(before.hexes[id])) out.add(id);
  }
  return out;
}

function drawBoard() {
  const v = state.view;
  const svg = $("board");
  svg.replaceChildren();
  const entries = Object.entries(v.hexes);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [, h] of entries) {
    const [x, y] = centre(h);
    minX = Math.min(minX, x); minY = Math.min(minY, y); maxX = Math.max(maxX, x); maxY = Math.max(maxY, y);
  }
  const pad = HEX * 1.2;
  svg.setAttribute("viewBox", `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`);
  const opts = myOptions();
  const optHexes = opts.map(hexesOf);
  const clickable = new Set(optHexes.flatMap((h) => (state.selected ? [] : h.length > 1 ? [h[0], h[h.length - 1]] : h)));
  const targets = new Set();
  if (state.selected) {
    opts.forEach((o, i) => {
      const h = optHexes[i];
      if (h.length > 1 && h[0] === state.selected.hex && namesPiece(o, state.selected)) targets.add(h[h.length - 1]);
    });
  }
  const changed = changedHexes();
  for (const [id, h] of entries) {
    const [cx, cy] = centre(h);
    const cls = ["hex"];
    if (clickable.has(id) || targets.has(id)) cls.push("clickable");
    if (state.selected && state.selected.hex === id) cls.push("selected");
    if (targets.has(id)) cls.push("target");
    if (changed.has(id)) cls.push("changed");
    const g = el("g", { class: cls.join(" "), "data-hex": id, id: `hex-${id}` }, svg);
    el("polygon", { points: hexPoints(cx, cy, HEX - 1), fill: terrainColour(h.terrain) }, g);
    g.addEventListener("click", () => onBoardClick(id, null));
    drawPieces(g, id, h, cx, cy);
    // drawn last, below the pieces' ring and with a halo: the id stays readable whatever stands on the hex
    el("text", { x: cx, y: cy + HEX * 0.8, class: "hexid", "text-anchor": "middle" }, g).textContent = id;
  }
}

function drawPieces(g, id, h, cx, cy) {
  const pieces = h.kiwi.map((k) => ({ ...k, leader: false })).concat(h.leaders.map((f) => ({ flock: f, size: 3, leader: true })));
  const n = pieces.length;
  pieces.forEach((p, i) => {
    const a = n === 1 ? 0 : (2 * Math.PI * i) / n;
    const d = n === 1 ? 0 : HEX * 0.4;
    const x = cx + d * Math.sin(a), y = cy - 6 - d * Math.cos(a);
    let shape;
    if (p.leader) {
      const r = 10;
      const star = [];
      for (let k = 0; k < 10; k++) {
        const rr = k % 2 ? r * 0.5 : r, aa = Math.PI / 5 * k;
        star.push(`${(x + rr * Math.sin(aa)).toFixed(1)},${(y - rr * Math.cos(aa)).toFixed(1)}`);
      }
      shape = el("polygon", { points: star.join(" "), fill: flockColour(p.flock), class: "leader",
        "data-flock": p.flock, "data-hex": id }, g);
    } else {
      shape = el("circle", { cx: x, cy: y, r: 4 + 2 * p.size, fill: flockColour(p.flock), class: "kiwi",
        "data-flock": p.flock, "data-size": p.size, "data-hex": id, "data-piece": p.id }, g);
      el("text", { x: x - 3, y: y + 3.5, class: "piece-label" }, g).textContent = p.size;
    }
    el("title", {}, shape).textContent = p.leader ? `${p.flock} Leader on ${id}` : `${p.flock} size-${p.size} Kiwi on ${id}`;
    shape.addEventListener("click", (e) => { e.stopPropagation(); onBoardClick(id, p); });
  });
  if (h.nest) {
    // the Nest's type by its glyph (content: nests.yaml `glyph`), on the owner's colour
    const nest = nestOf(h.nest.id);
    const badge = el("g", { class: "nest", "data-nest": h.nest.id, "data-type": nest ? nest.type : "",
      "data-glyph": nest ? nest.glyph : "" }, g);
    // inside the hex's right side, clear of the neighbours' ids
    el("rect", { x: cx + HEX * 0.42, y: cy - 7.5, width: 15, height: 15, rx: 3, fill: flockColour(h.nest.flock) }, badge);
    el("text", { x: cx + HEX * 0.42 + 7.5, y: cy + 4, class: "nest-glyph", "text-anchor": "middle" }, badge)
      .textContent = nest ? nest.glyph : "?";
    el("title", {}, badge).textContent = `${playerName(h.nest.flock)}'s ${nestName(h.nest.id)} on ${id}`;
  }
  if (h.domain) {
    const mx = cx - HEX * 0.62, my = cy - 6;   // inside the hex's left side, clear of the neighbours' ids
    const d = el("polygon", { points: `${mx},${my} ${mx + 6},${my + 6} ${mx},${my + 12} ${mx - 6},${my + 6}`,
      fill: flockColour(h.domain.flock), class: "marker" }, g);
    el("title", {}, d).textContent = `${h.domain.flock} domain marker (${h.domain.terrain}) on ${id}`;
  }
}

function drawLegend() {
  const cat = state.catalogue;
  const parts = [];
  for (const t of cat.terrains) parts.push(`<span><span class="sw" style="background:${terrainColour(t)}"></span>${t}</span>`);
  for (const f of cat.flocks) parts.push(`<span><span class="sw" style="background:${f.colour};border-radius:50%"></span>${f.name}</span>`);
  parts.push("<span>● Kiwi (number = size)</span>", "<span>★ Leader</span>", "<span>◆ domain marker</span>",
    '<span class="muted">dashed yellow: changed by others since your move</span>');
  $("legend").innerHTML = parts.join("");
  const types = new Map();
  for (const nest of cat.nests) if (!types.has(nest.type)) types.set(nest.type, nest.glyph);
  for (const [type, glyph] of types) {
    // content text goes in as text, never as markup
    const item = text("span", "", { class: "legend-nest", "data-type": type });
    item.append(text("span", glyph, { class: "glyph" }), document.createTextNode(` ${type} Nest`));
    $("legend").appendChild(item);
  }
}

function flockName(id) {
  const f = state.catalogue && state.catalogue.flocks.find((x) => x.id === id);
  return f ? f.name : id;
}
// A seat's player name when given, else its flock's name.
function playerName(id) {
  const s = state.view && state.view.seats.find((x) => x.flock === id);
  return s && s.name ? s.name : flockName(id);
}
function nestOf(id) {
  return state.catalogue.nests.find((x) => x.id === id);
}

function cardName(id) {
  const c = state.catalogue.action_cards.find((x) => x.id === id);
  return c ? c.name : id;
}
function nestName(id) {
  const n = state.catalogue.nests.find((x) => x.id === id);
  return n ? n.name : id;
}
function seasonCard(id) {
  return state.catalogue.season_cards.find((x) => x.id === id);
}

function text(tag, content, attrs = {}) {
  const e = document.createElement(tag);
  e.textContent = content;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function drawPanel() {
  const v = state.view;
  const me = v.flocks[v.you] || {};
  const turn = v.pending ? v.pending.player : null;
  const solo = v.solo ? ` · Solo card ${v.solo.solo_card || "none"}, ${v.solo.solo_cards_left} left` : "";
  const watching = v.you === null ? "Watching · " : "";
  $("status").textContent = watching + (v.over ? "The game is over"
    : `Season ${v.season}, ${v.phase.replace("_", " ")} — ${turn === v.you ? "your decision" : `waiting for ${playerName(turn)}`}`) + solo;
  const mine = turn === v.you;
  document.body.classList.toggle("your-turn", mine);
  $("prompt").textContent = v.pending ? (mine ? v.pending.prompt : `Waiting for ${playerName(turn)}`) : "";
  if (!state.selected) $("hint").textContent = mine ? "Click the board (a Kiwi, then a hex) or an option below" : "";
  const box = $("options");
  box.replaceChildren();
  for (const o of myOptions()) {
    const b = text("button", o.label, { "data-option": o.id, class: "option", title: o.id });
    b.addEventListener("click", () => choose(o.id));
    box.appendChild(b);
  }
  $("clear-selection").hidden = !state.selected;
  $("undo").disabled = !v.can_undo || state.busy;
  $("redo").disabled = !v.can_redo || state.busy;

  const hand = $("hand");
  hand.replaceChildren(...(me.hand || []).map((c) => text("span", cardName(c), { class: "card" })));
  const leader = state.catalogue.leaders.find((l) => l.id === me.leader);
  const card = leader && leader.cards.find((c) => c.id === me.leader_card);
  $("leader").textContent = leader ? `${leader.name}${card ? ` — ${card.name}: ${card.text}` : ""}` +
    (me.leader_card_used ? " (ability used)" : "") : "—";
  const fruit = $("fruit");
  fruit.replaceChildren();
  for (const [colour, count] of Object.entries(me.fruit || {})) {
    if (!count) continue;
    const s = document.createElement("span");
    s.appendChild(text("span", "", { class: "fruit-dot", style: `background:${FRUIT_COLOURS[colour] || colour}` }));
    s.appendChild(document.createTextNode(`${colour} ×${count}  `));
    fruit.appendChild(s);
  }
  $("markers").textContent = (me.domain || []).length ? me.domain.join(", ") : "none";
  const sc = $("season-cards");
  sc.replaceChildren();
  for (const c of v.season_cards) {
    const card = seasonCard(c.id);
    const label = c.id === "facedown" ? "face down" : card ? `${card.name} — victor: ${card.victor}` : c.id;
    sc.appendChild(text("li", `Season ${c.season}: ${label}`, c.season === v.season ? { class: "current" } : {}));
  }
  const table = $("scores");
  table.replaceChildren();
  const head = document.createElement("tr");
  [["player", "player (flock colour)"], ["dom", "VP from domain"], ["nest", "VP from Nests"],
    ["seas", "VP from Season cards"], ["VP", "total VP"], ["hand", "cards in hand"], ["fruit", "fruit held"],
    ["mk", "domain markers held"]]
    .forEach(([h, title]) => head.appendChild(text("th", h, { title })));
  table.appendChild(head);
  for (const f of v.ranking || v.turn_order) {
    const s = v.scores[f], fl = v.flocks[f] || {};
    const tr = document.createElement("tr");
    tr.setAttribute("data-flock", f);
    const cards = fl.hand ? fl.hand.length : fl.hand_count;
    const fruit = Object.values(fl.fruit || {}).reduce((a, b) => a + b, 0);
    const who = text("td", "", { class: "who", title: `${flockName(f)}` });
    who.append(text("span", "", { class: "sw", style: `background:${flockColour(f)}` }),
      document.createTextNode(playerName(f) + (f === v.you ? " (you)" : "")));
    tr.appendChild(who);
    [s.domain, s.nests, s.season_cards, s.total, cards, fruit, fl.domain_count]
      .forEach((x) => tr.appendChild(text("td", String(x))));
    table.appendChild(tr);
  }
  const logEl = $("log");
  logEl.replaceChildren();
  const first = v.events - v.log.length;
  logEl.setAttribute("start", String(first + 1));
  (v.named_log || v.log).forEach((line, i) =>
    logEl.appendChild(text("li", line, first + i >= state.recentFrom ? { class: "recent" } : {})));
  logEl.scrollTop = logEl.scrollHeight;
  const fin = $("final");
  fin.hidden = !v.over;
  if (v.over) {
    fin.replaceChildren(text("strong", "Final scores: "),
      text("span", v.ranking.map((f, i) => `${i + 1}. ${playerName(f)} (${f}) ${v.scores[f].total} VP`).join(", "),
        { id: "final-scores" }));
  }
}

function render() {
  drawBoard();
  drawPanel();
}

function showView(view) {
  const before = state.view;
  state.view = view;
  const mineNow = view.pending && view.pending.player === view.you;
  // the view right after our own move is the baseline for highlighting what the others did since
  if (state.lastOwnSeq !== null && view.seq === state.lastOwnSeq) {
    state.ownView = view; state.recentFrom = view.events;
  } else if (!before) {
    state.ownView = view; state.recentFrom = view.events;
  }
  if (!mineNow) state.selected = null;
  render();
}

// --- start ------------------------------------------------------------------------------------------------------
async function showHome() {
  $("game").hidden = true; $("new-game").hidden = true; $("welcome").hidden = true;
  if (await loadCatalogue("")) { fillSetup(); $("home").hidden = false; refreshLobby(); }
}

async function main() {
  await connect();
  $("player-name").value = localStorage.getItem(NAME_KEY) || "";
  $("setup-form").addEventListener("submit", startGame);
  $("players").addEventListener("change", fillSeats);
  $("edition").addEventListener("change", async () => { if (await loadCatalogue($("edition").value)) fillSetup(); });
  $("undo").addEventListener("click", () => takeBack("undo"));
  $("redo").addEventListener("click", () => takeBack("redo"));
  $("clear-selection").addEventListener("click", () => { state.selected = null; render(); });
  $("invites-done").addEventListener("click", hideInvites);
  $("new-game").addEventListener("click", async () => {
    if (state.seat && state.seat.token) await request("leave", { token: state.seat.token });
    forgetSeat(); hideInvites();
    state.seat = null; state.view = null;
    document.body.classList.remove("spectator");
    await showHome();
  });
  setInterval(refreshLobby, LOBBY_REFRESH_MS);
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("seat") && (await arriveByInvite(params))) return;
  const saved = savedSeat();
  if (saved && (await joinSaved(saved))) return;
  await showHome();
}

main();

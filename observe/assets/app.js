// The observer page: a summary streamed as server-sent events, and the
// actor tree, loaded a level (and a page) at a time. No framework, no
// build step: plain DOM.
"use strict";

const $ = (id) => document.getElementById(id);
const fmt = new Intl.NumberFormat("en-US");
const num = (n) => fmt.format(Math.round(n));
const colors = ["#4fb3ff", "#3fcf8e", "#f5b544", "#ff6b6b", "#b48cff", "#5ee0e0"];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function us(v) {
  if (!v) return "–";
  if (v < 1) return "<1 µs";
  if (v >= 1e6) return (v / 1e6).toFixed(2) + " s";
  if (v >= 1e3) return (v / 1e3).toFixed(1) + " ms";
  return v.toFixed(0) + " µs";
}

function clock(t) {
  return new Date(t).toLocaleTimeString("en-GB", { hour12: false });
}

async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error((await r.text()).trim() || r.statusText);
  return r.json();
}

// ---- live summary ----------------------------------------------------

let last = null;
let topBy = "handling";
let seenDead = 0;
let tickCount = 0;

function connect() {
  const es = new EventSource("api/events");
  es.addEventListener("summary", (e) => {
    $("live").className = "live on";
    $("live-text").textContent = "live";
    render(JSON.parse(e.data));
  });
  es.onerror = () => { $("live").className = "live off"; $("live-text").textContent = "reconnecting"; };
}

function render(s) {
  last = s;
  $("system").textContent = s.system;
  let handled = 0, restarts = 0, rate = 0;
  for (const k of s.kinds || []) { handled += k.handled; restarts += k.restarts; rate += k.rate; }
  $("stat-actors").textContent = num(s.actors);
  $("stat-handled").textContent = num(handled);
  $("stat-rate").textContent = num(rate);
  $("stat-dead").textContent = num(s.deadTotal);
  $("stat-restarts").textContent = num(restarts);
  $("stat-asks").textContent = num(s.asksTimedOut);
  const busy = (s.workers || []).filter((w) => !w.idle).length;
  $("stat-workers").textContent = busy + " / " + (s.workers || []).length;
  renderKinds(s);
  renderKindOptions(s);
  renderTop();
  renderWorkers(s);
  renderDead(s);
  renderPeers(s);
  renderSharding((s.sections || {}).sharding);
  renderRates(s.rates);
  if (++tickCount % 2 === 0) refreshTree();
  if (selected && tickCount % 2 === 0) inspect(selected, false);
}

function renderKinds(s) {
  const tb = $("kinds").tBodies[0];
  tb.replaceChildren();
  for (const k of s.kinds || []) {
    const tr = el("tr");
    tr.append(el("td", "", k.kind), el("td", "n", num(k.actors)), el("td", "n", num(k.mailbox)),
      el("td", "n", num(k.rate)), el("td", "n", num(k.restarts)), el("td", "n", num(k.stopped)));
    tb.append(tr);
  }
}

function renderTop() {
  if (!last) return;
  const rows = last.top[topBy] || [];
  $("top-col").textContent = { mailbox: "mailbox", handling: "handling p99", restarts: "restarts" }[topBy];
  const tb = $("top").tBodies[0];
  tb.replaceChildren();
  if (!rows.length) {
    const tr = el("tr"); const td = el("td", "empty", "No actor stands out."); td.colSpan = 3; tr.append(td); tb.append(tr);
  }
  for (const a of rows) {
    const tr = el("tr", "click");
    const v = topBy === "mailbox" ? num(a.mailbox) : topBy === "handling" ? us(a.handlingUs.p99) : num(a.restarts);
    const st = el("td"); st.append(el("span", "badge " + a.state, a.state));
    tr.append(el("td", "name", a.ref), el("td", "n", v), st);
    tr.onclick = () => inspect(a.ref, true);
    tb.append(tr);
  }
}

function renderWorkers(s) {
  const box = $("workers");
  box.replaceChildren();
  (s.workers || []).forEach((w, i) => {
    const d = el("div", "worker" + (w.idle ? "" : " busy"));
    d.append(el("span", "w", "worker " + i), el("b", "", w.runQueue), el("span", "w", w.idle ? "idle" : "busy · queued"));
    box.append(d);
  });
  $("workers-hint").textContent = s.loops + " loops · global queue " + s.globalQueue;
}

function renderDead(s) {
  const list = $("dead-list");
  const fresh = (s.dead || []).filter((d) => d.seq > seenDead);
  if (fresh.length && list.querySelector(".empty")) list.replaceChildren();
  for (const d of fresh) {
    const row = el("div", "dead");
    row.append(el("span", "t", clock(d.at)), el("span", "r", d.reason),
      el("span", "d", d.to || "?"), el("span", "m", d.message), el("span", "e", d.error));
    row.title = d.error;
    list.prepend(row);
    seenDead = d.seq;
  }
  while (list.children.length > 200) list.lastChild.remove();
  const parts = Object.entries(s.deadLetters || {}).filter(([, n]) => n > 0).map(([r, n]) => r + " " + num(n));
  $("dead-reasons").textContent = parts.join(" · ");
}

function renderPeers(s) {
  const box = $("peers");
  if (!s.transport) return;
  $("node-name").textContent = "node " + s.transport.node;
  box.replaceChildren();
  if (!s.transport.peers.length) box.append(el("div", "empty", "No peers yet."));
  for (const p of s.transport.peers) {
    const row = el("div", "peer");
    row.append(el("span", "", p.node), el("span", p.reachable ? "ok" : "bad", p.reachable ? "reachable" : "lost: " + p.lost),
      el("span", "muted", num(p.queuedBytes) + " B queued"));
    box.append(row);
  }
  const c = s.transport.counters || {};
  box.append(el("div", "hint", "sent " + num(c.sent || 0) + " · received " + num(c.received || 0) +
    " · frames " + num(c.frames_sent || 0) + "/" + num(c.frames_received || 0) + " · rejected " + num(c.rejected || 0)));
}

// renderSharding shows the node's sharding (package sharding's section of
// the summary), if it has one.
function renderSharding(v) {
  const panel = $("sharding-panel");
  panel.hidden = !v;
  if (!v) return;
  const st = v.stats || {}, ms = (d) => us((d || 0) / 1e3);
  $("sharding-hint").textContent = "node " + v.node + " · claims " + num(st.Claims || 0) +
    " · claim p50/p99 " + ms(st.ClaimLatency && st.ClaimLatency.P50) + "/" + ms(st.ClaimLatency && st.ClaimLatency.P99) +
    " · renew p50/p99 " + ms(st.RenewLatency && st.RenewLatency.P50) + "/" + ms(st.RenewLatency && st.RenewLatency.P99) +
    " · dead letters " + num(st.DeadLetters || 0);
  $("sharding-members").textContent = "members: " + (v.members || []).map((m) =>
    m.name + (m.roles && m.roles.length ? " (" + m.roles.join(", ") + ")" : "")).join(" · ");
  const tb = $("sharding-kinds").tBodies[0];
  tb.replaceChildren();
  const busiest = [];
  for (const k of v.kinds || []) {
    const s = k.stats || {};
    const per = Object.entries(k.perNode || {}).sort(([a], [b]) => a.localeCompare(b))
      .map(([n, c]) => (n || "unowned") + " " + c).join(" · ");
    const tr = el("tr");
    tr.append(el("td", "", k.stats.Kind + (s.Singleton ? " (singleton)" : "")), el("td", "", per),
      el("td", "n", num(s.Owned || 0) + " / " + num(k.shards)), el("td", "n", num(s.Active || 0)),
      el("td", "n", num(s.Buffered || 0)), el("td", "", (k.handOffs || []).join(", ") || "–"),
      el("td", "n", num(s.Activations || 0)), el("td", "n", num(s.Passivations || 0)),
      el("td", "n", num(s.HandOffs || 0)), el("td", "n", num(s.LeasesLost || 0)));
    tb.append(tr);
    for (const sh of k.served || []) busiest.push([s.Kind, sh]);
  }
  busiest.sort((a, b) => b[1].active + b[1].buffered - a[1].active - a[1].buffered);
  $("sharding-shards").textContent = busiest.slice(0, 12).map(([kind, sh]) =>
    kind + "#" + sh.shard + ": " + num(sh.active) + " active" + (sh.buffered ? ", " + num(sh.buffered) + " buffered" : "")).join(" · ") || "none";
  const moves = $("sharding-moves");
  if (!(v.moves || []).length) return;
  moves.replaceChildren();
  for (const m of v.moves.slice(0, 20)) {
    const row = el("div", "move");
    row.append(el("span", "t", clock(m.time)), el("span", "", m.kind + "#" + m.shard),
      el("span", "muted", (m.from || "none") + " → " + (m.to || "none")), el("span", "muted", "rev " + m.rev));
    moves.append(row);
  }
}

// renderRates draws the busiest kinds' rates as an inline SVG.
function renderRates(r) {
  const box = $("rates"), legend = $("rates-legend");
  const W = 600, H = 170, P = 34;
  if (!r || r.times.length < 2) { box.replaceChildren(el("div", "empty", "Collecting…")); legend.replaceChildren(); return; }
  let top = 1;
  for (const s of r.series) for (const v of s.values) top = Math.max(top, v);
  const t0 = r.times[0], t1 = r.times[r.times.length - 1];
  const x = (t) => P + (W - P - 6) * (t - t0) / Math.max(1, t1 - t0);
  const y = (v) => H - 18 - (H - 28) * v / top;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  for (const f of [0, 0.5, 1]) {
    const g = document.createElementNS(ns, "line");
    g.setAttribute("x1", P); g.setAttribute("x2", W); g.setAttribute("y1", y(top * f)); g.setAttribute("y2", y(top * f));
    g.setAttribute("stroke", "#243040"); svg.append(g);
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", 2); t.setAttribute("y", y(top * f) + 4); t.setAttribute("fill", "#7d8b9c"); t.setAttribute("font-size", "10");
    t.textContent = num(top * f); svg.append(t);
  }
  legend.replaceChildren();
  r.series.forEach((s, i) => {
    const pts = s.values.map((v, j) => x(r.times[j]).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
    const pl = document.createElementNS(ns, "polyline");
    pl.setAttribute("points", pts); pl.setAttribute("fill", "none");
    pl.setAttribute("stroke", colors[i % colors.length]); pl.setAttribute("stroke-width", "1.8");
    pl.setAttribute("vector-effect", "non-scaling-stroke");
    svg.append(pl);
    const l = el("span", "", s.kind + " " + num(s.values[s.values.length - 1]) + "/s");
    l.style.setProperty("--c", colors[i % colors.length]);
    legend.append(l);
  });
  box.replaceChildren(svg);
}

// ---- the tree ------------------------------------------------------------

// The server sorts and filters; the page shows, at each level, the
// actors grouped by kind: a kind with few actors (or the only kind of a
// level) in full, a crowded one as a group to open. With a filter (a
// name, a kind), the page shows the matches from anywhere in the tree.

// GROUP_OPEN is the most actors of a kind a level shows without asking.
const GROUP_OPEN = 20;
// OPEN_KINDS is the most kinds a level opens without asking.
const OPEN_KINDS = 12;
// PAGE is how many actors a "load more" adds.
const PAGE = 100;

// lists maps a key to a loaded list of rows (a kind's actors in a level,
// or the filter's matches): its container, its query and the cursors of
// the pages loaded. expanded holds the actors whose children show.
const lists = new Map();
const expanded = new Set();
let selected = null;
let filter = { q: "", kind: "" };

function actorsURL(query, after, limit) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v) q.set(k, v);
  if (after) q.set("after", after);
  q.set("limit", String(limit || PAGE));
  return "api/actors?" + q;
}

function row(a, flat) {
  const r = el("div", "row");
  r.dataset.ref = a.ref;
  const name = el("div", "name");
  const caret = el("span", "caret", "▸");
  caret.onclick = () => toggle(a.ref, r);
  const link = el("a");
  if (flat && a.parent) link.append(el("span", "path", a.parent + "/"));
  link.append(el("span", "kind", a.kind), document.createTextNode("/" + a.id));
  link.onclick = () => inspect(a.ref, true);
  name.append(caret, link);
  r.append(name, el("div"), el("div", "bar"), el("div", "num"), el("div", "num"));
  update(r, a);
  return r;
}

function update(r, a) {
  const [, state, mbox, handled, p99] = r.children;
  const caret = r.querySelector(".caret");
  caret.classList.toggle("leaf", a.children === 0);
  state.replaceChildren(el("span", "badge " + a.state, a.state));
  const w = Math.min(60, Math.log2(1 + a.mailbox) * 8);
  const bar = el("i"); bar.style.width = w + "px";
  mbox.replaceChildren(bar, document.createTextNode(num(a.mailbox)));
  handled.textContent = num(a.handled);
  p99.textContent = us(a.handlingUs.p99);
  r.classList.toggle("sel", a.ref === selected);
}

// loadList adds a page of the list key to box.
async function loadList(key, query, box, after) {
  const page = await getJSON(actorsURL(query, after));
  if (!box.isConnected) return page; // the tree was reloaded meanwhile
  let ls = lists.get(key);
  if (!ls) { ls = { box, query, pages: [] }; lists.set(key, ls); }
  if (ls.box !== box) return page; // reloaded meanwhile
  box.querySelector(":scope > .more")?.remove();
  for (const a of page.actors) box.append(row(a, query.all), el("div", "kids"));
  ls.pages.push(after || "");
  if (page.next) {
    const more = el("div", "more", "load more… (" + num(page.total) + " in all)");
    more.onclick = () => loadList(key, query, box, page.next);
    box.append(more);
  }
  return page;
}

// loadLevel shows the children of parent ("" for the top level) in box,
// grouped by kind.
async function loadLevel(parent, box) {
  const head = await getJSON(actorsURL({ parent }, "", 1));
  box.replaceChildren();
  if (!head.kinds.length) { box.append(el("div", "empty", parent ? "No children." : "No actors.")); return; }
  const single = head.kinds.length === 1;
  // A level of many small kinds opens the first ones only: a request each.
  let shown = 0, opened = 0;
  for (const k of head.kinds) {
    const key = parent + "\u0000" + k.kind, query = { parent, kind: k.kind };
    const rows = el("div", "rows");
    if (single || (k.actors <= GROUP_OPEN && shown + k.actors <= PAGE && opened < OPEN_KINDS)) {
      shown += k.actors;
      opened++;
      box.append(rows);
      loadList(key, query, rows, "").catch((e) => rows.replaceChildren(el("div", "empty", e.message)));
      continue;
    }
    const g = el("div", "group");
    g.dataset.kind = k.kind;
    const caret = el("span", "caret", "▸");
    g.append(caret, el("span", "kind", k.kind), el("span", "hint", num(k.actors) + " actors"));
    g.onclick = () => {
      if (lists.has(key)) { forget(key); rows.replaceChildren(); caret.textContent = "▸"; return; }
      caret.textContent = "▾";
      loadList(key, query, rows, "").catch((e) => rows.replaceChildren(el("div", "empty", e.message)));
    };
    box.append(g, rows);
  }
}

// forget drops a list and the lists of the children shown inside it.
function forget(key) {
  const ls = lists.get(key);
  lists.delete(key);
  if (!ls) return;
  for (const r of ls.box.querySelectorAll(".row")) {
    if (expanded.delete(r.dataset.ref)) forgetLevel(r.dataset.ref);
  }
}

function forgetLevel(ref) {
  for (const key of [...lists.keys()]) if (key.startsWith(ref + "\u0000")) forget(key);
}

async function toggle(ref, r) {
  const kids = r.nextElementSibling;
  const caret = r.querySelector(".caret");
  if (expanded.has(ref)) {
    expanded.delete(ref);
    forgetLevel(ref);
    kids.replaceChildren();
    caret.textContent = "▸";
    return;
  }
  expanded.add(ref);
  caret.textContent = "▾";
  await loadLevel(ref, kids);
}

// reloadTree shows the tree from the top, or the filter's matches.
async function reloadTree() {
  lists.clear();
  expanded.clear();
  const box = $("tree");
  box.replaceChildren();
  if (!filter.q && !filter.kind) {
    $("tree-count").textContent = "";
    await loadLevel("", box);
    return;
  }
  const page = await loadList("*", { all: "1", q: filter.q, kind: filter.kind }, box, "");
  $("tree-count").textContent = num(page.total) + (page.total === 1 ? " match" : " matches");
  if (!page.actors.length) box.append(el("div", "empty", "No actor matches."));
}

// refreshTree updates the rows of the loaded pages in place.
async function refreshTree() {
  for (const ls of [...lists.values()]) {
    for (const after of ls.pages) {
      let page;
      try { page = await getJSON(actorsURL(ls.query, after)); } catch { continue; }
      for (const a of page.actors) {
        const r = ls.box.querySelector(`:scope > .row[data-ref="${CSS.escape(a.ref)}"]`);
        if (r) update(r, a);
        else {
          const more = ls.box.querySelector(":scope > .more");
          ls.box.insertBefore(row(a, ls.query.all), more);
          ls.box.insertBefore(el("div", "kids"), more);
        }
      }
    }
  }
}

// renderKindOptions keeps the kind filter's choices those of the system.
function renderKindOptions(s) {
  const sel = $("tree-kind");
  const kinds = (s.kinds || []).map((k) => k.kind);
  const have = Array.from(sel.options).slice(1).map((o) => o.value);
  if (kinds.join("\n") === have.join("\n")) return;
  const keep = sel.value;
  sel.replaceChildren(el("option", "", "all kinds"));
  sel.options[0].value = "";
  for (const k of kinds) { const o = el("option", "", k); o.value = k; sel.append(o); }
  sel.value = kinds.includes(keep) ? keep : "";
}

let filterTimer = null;
$("tree-q").addEventListener("input", () => {
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => { filter.q = $("tree-q").value.trim(); reloadTree().catch(treeError); }, 250);
});
$("tree-kind").addEventListener("change", () => { filter.kind = $("tree-kind").value; reloadTree().catch(treeError); });

function treeError(e) { $("tree").replaceChildren(el("div", "empty", e.message)); }

// stat formats a figure an actor reports, by its unit.
function stat(s) {
  if (s.unit === "By") {
    const units = ["B", "KiB", "MiB", "GiB"];
    let v = s.value, i = 0;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return v.toFixed(i ? 1 : 0) + " " + units[i];
  }
  if (s.unit === "1" && s.value <= 1) return (s.value * 100).toFixed(0) + " %";
  return num(s.value) + (s.unit && s.unit !== "1" ? " " + s.unit : "");
}

// ---- inspect -------------------------------------------------------------

async function inspect(ref, user) {
  selected = ref;
  document.querySelectorAll(".row.sel").forEach((r) => r.classList.remove("sel"));
  document.querySelector(`.row[data-ref="${CSS.escape(ref)}"]`)?.classList.add("sel");
  $("inspect-ref").textContent = ref;
  const box = $("inspect");
  let d;
  try { d = await getJSON("api/actor?ref=" + encodeURIComponent(ref)); } catch (e) {
    box.className = "inspect empty"; box.textContent = e.message; return;
  }
  if (selected !== ref) return;
  box.className = "inspect";
  const dl = el("dl");
  const add = (k, v) => dl.append(el("dt", "", k), el("dd", "", v));
  add("state", d.state);
  add("parent", d.parent || "(top level)");
  add("started", d.startedAt ? new Date(d.startedAt).toLocaleString() : "– (detailed metrics off)");
  add("messages handled", num(d.handled));
  add("mailbox", num(d.mailbox) + "  (user " + d.mailboxUser + ", system " + d.mailboxSystem + ")");
  add("handling p50/p90/p99", us(d.handlingUs.p50) + " / " + us(d.handlingUs.p90) + " / " + us(d.handlingUs.p99));
  add("mailbox wait p50/p99", d.waitUs.samples ? us(d.waitUs.p50) + " / " + us(d.waitUs.p99) : "– (not sampled)");
  add("restarts", num(d.restarts));
  add("children", num(d.children));
  add("timers pending", num(d.timers));
  add("fds watched", num(d.fds));
  const parts = [dl];
  if (d.stats.length) {
    parts.push(el("h3", "", "reported by the actor"));
    const sdl = el("dl");
    for (const s of d.stats) sdl.append(el("dt", "", s.name), el("dd", "", stat(s)));
    parts.push(sdl);
  }
  parts.push(el("h3", "", "recent failures"));
  if (!d.failures.length) parts.push(el("div", "empty", "None."));
  for (const f of d.failures.slice().reverse()) parts.push(el("div", "failure", clock(f.at) + "  " + f.error));
  if (last && last.actions) {
    const acts = el("div", "actions");
    for (const action of ["restart", "stop"]) {
      const b = el("button", "", action);
      b.onclick = async () => {
        if (!confirm(action + " " + ref + "?")) return;
        await fetch("api/actor/" + action + "?ref=" + encodeURIComponent(ref), { method: "POST" });
        inspect(ref, false);
      };
      acts.append(b);
    }
    parts.push(acts);
  }
  box.replaceChildren(...parts);
}

document.querySelectorAll("#top-tabs button").forEach((b) => {
  b.onclick = () => {
    topBy = b.dataset.by;
    document.querySelectorAll("#top-tabs button").forEach((x) => x.classList.toggle("on", x === b));
    renderTop();
  };
});

reloadTree().catch(treeError);
connect();

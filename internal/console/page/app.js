"use strict";
// Everything shown is set as text (textContent), never as markup: the
// agent's text stays text.
function csrf() {
  for (const c of document.cookie.split("; ")) {
    const i = c.indexOf("=");
    if (c.slice(0, i) === "csrf") return c.slice(i + 1);
  }
  return "";
}
// The repository this page shows (?repo=NAME, else the console's first),
// named in every API call.
const repo = new URLSearchParams(location.search).get("repo") || "";
function api(path, params) {
  const q = new URLSearchParams(params || {});
  if (repo) q.set("repo", repo);
  const qs = q.toString();
  return qs ? path + "?" + qs : path;
}
// The repositories served: a choice when there is more than one.
async function loadRepos() {
  const r = await fetch("/api/repos", {credentials: "same-origin"});
  const list = await r.json();
  if (!r.ok || list.length < 2) return;
  const sel = document.getElementById("repo");
  for (const x of list) {
    const o = el("option", x.name + " (" + x.root + ")");
    o.value = x.name;
    if (x.name === repo || (!repo && x === list[0])) o.selected = true;
    sel.append(o);
  }
  sel.hidden = false;
  sel.addEventListener("change", () => { location.search = "?repo=" + encodeURIComponent(sel.value); });
}
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
async function answer(id, decision) {
  let reason = "";
  if (decision === "deny") {
    reason = prompt("Why? (told to the agent)") || "";
    if (!reason.trim()) return;
  }
  const r = await fetch(api("/api/pending/" + encodeURIComponent(id)), {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
    body: JSON.stringify({decision, reason}),
  });
  const body = await r.json();
  document.getElementById("status").textContent = r.ok ? "ask " + id + ": " + body.decision : "error: " + body.error;
}
function showPending(list) {
  const box = document.getElementById("pending");
  box.replaceChildren();
  if (!list.length) { box.append(el("p", "none")); return; }
  for (const a of list) {
    const d = el("div", undefined, "ask");
    d.append(el("div", a.id + " · session " + a.session + (a.intent ? " · " + a.intent : "") + " · " + a.tool + " · until " + new Date(a.deadline).toLocaleTimeString() + (a.remote ? " · from " + (a.machine || "another machine") : ""), "meta"));
    // An ask filed from another machine is as its hook sent it: whoever
    // holds the hook token could have sent it.
    d.append(el("pre", a.why, a.remote ? "remote" : undefined));
    if (a.agent_text && a.agent_text.target) d.append(el("pre", a.agent_text.target, "agent"));
    const allow = el("button", "Allow"); allow.onclick = () => answer(a.id, "allow");
    const deny = el("button", "Deny…"); deny.onclick = () => answer(a.id, "deny");
    d.append(allow, " ", deny);
    box.append(d);
  }
}
// The IN_REVIEW intents: the submission's files and checks, the diff of
// its files (the agents' text, fenced), Approve and Reject….
async function loadReviews() {
  const r = await fetch(api("/api/reviews"), {credentials: "same-origin"});
  const list = await r.json();
  const box = document.getElementById("reviews");
  box.replaceChildren();
  if (!r.ok) { box.append(el("p", "error: " + list.error)); return; }
  if (!list.length) { box.append(el("p", "none")); return; }
  for (const v of list) {
    const d = el("div", undefined, "ask");
    d.append(el("div", v.id + " · " + v.name + " · scope " + v.owned_scope.join(" ") + (v.submitted ? " · submitted " + v.submitted : ""), "meta"));
    for (const c of (v.result && v.result.checks) || []) d.append(el("div", "check " + c.command + ": " + c.passed + " passed, " + c.failed + " failed, last " + c.last));
    if (v.agent_text.files) d.append(el("pre", v.agent_text.files.join("\n"), "agent"));
    if (v.agent_text.diff) d.append(el("pre", v.agent_text.diff + (v.diff_cut ? "\n…" : ""), "agent"));
    const approve = el("button", "Approve"); approve.onclick = () => decide(v.id, "approve");
    const reject = el("button", "Reject…"); reject.onclick = () => decide(v.id, "reject");
    d.append(approve, " ", reject);
    box.append(d);
  }
}
async function decide(id, decision) {
  let reason = "";
  if (decision === "reject") {
    reason = prompt("Why? (told to the agent)") || "";
    if (!reason.trim()) return;
  }
  const r = await fetch(api("/api/reviews/" + encodeURIComponent(id)), {
    method: "POST", credentials: "same-origin",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
    body: JSON.stringify({decision, reason}),
  });
  const body = await r.json();
  document.getElementById("status").textContent = r.ok ? id + ": " + body.decision : "error: " + body.error;
  loadReviews();
}
function showDecision(x) {
  const tr = document.createElement("tr");
  const cls = x.decision === "deny" ? "deny" : x.decision === "allow" ? "allow" : x.decision === "ask" ? "ask-d" : "";
  for (const [v, c] of [[x.time], [x.event], [x.session], [x.intent], [x.tool], [x.decision, cls], [x.code], [x.why ? x.why + (x.why_by !== "intenthook" ? " (" + x.why_by + ")" : "") : ""], [x.agent_text && x.agent_text.target, "agent-cell"], [x.work_tree]]) {
    tr.append(el("td", v || "", c));
  }
  const feed = document.getElementById("feed");
  feed.prepend(tr);
  while (feed.children.length > 500) feed.lastChild.remove();
}
// The intents board: the catalog's intents and what the newest records
// say of each; the files are the agents' words, fenced and labelled.
async function loadBoard() {
  const r = await fetch(api("/api/intents"), {credentials: "same-origin"});
  const b = await r.json();
  const note = document.getElementById("board-window");
  const box = document.getElementById("board");
  const cost = document.getElementById("cost");
  box.replaceChildren();
  cost.replaceChildren();
  if (!r.ok) { note.textContent = "error: " + b.error; return; }
  note.textContent = "records and files counted over the newest " + b.window.records + " records" + (b.window.since ? ", since " + b.window.since : "");
  for (const x of b.intents) {
    const tr = document.createElement("tr");
    for (const v of [x.id, x.name, x.status, (x.owned_scope || []).join(" "), String(x.records), String(x.files_changed), lines(x.lines), x.last, spent(x.spend)]) {
      tr.append(el("td", v || ""));
    }
    tr.append(el("td", budgetLeft(x.spend), x.spend && (x.spend.exceeded || x.spend.error) ? "deny" : ""));
    const files = el("td");
    const list = (x.agent_text && x.agent_text.files) || [];
    if (list.length) files.append(el("pre", list.join("\n") + (x.files_changed > list.length ? "\n…" : ""), "agent"));
    tr.append(files);
    box.append(tr);
    costRows(cost, x.id, x.window_spend);
  }
}
// An intent's lines in its files as they are now: its agents', people's,
// and other intents' agents'.
function lines(l) {
  if (!l) return "";
  return l.agents + " by its agents, " + l.people + " by people" + (l.other_intents ? ", " + l.other_intents + " by other intents' agents" : "") +
    " (" + l.files + " file(s)" + (l.cut ? "; cut: not every file read" : "") + ")";
}
// One intent's cost over the board's window: in all, then per model,
// session and agent.
function costRows(box, id, s) {
  if (!s) return;
  const row = (by, name, p) => {
    const tr = document.createElement("tr");
    for (const v of [id, by, name, String(p.calls), String(p.tokens), "$" + p.usd]) tr.append(el("td", v));
    box.append(tr);
  };
  row("all", "", s);
  for (const m of s.models || []) row("model", m.model || "no model named", m);
  for (const x of s.sessions || []) row("session", x.session, x);
  for (const x of s.agents || []) row("agent", x.agent, x);
}
// What an intent's counters hold, and what is left of its budget (the
// hooks' figures, every call since the intent began).
function dollars(n) { return "$" + (Math.round(n * 100) / 100).toFixed(2); }
function amount(kind, n) { return kind === "usd" ? dollars(n) : String(n); }
function spent(s) {
  if (!s) return "";
  return s.calls + " call(s), " + s.tokens + " token(s), " + dollars(s.usd);
}
function budgetLeft(s) {
  if (!s) return "";
  if (s.error) return "counters unreadable: writes refused";
  const left = (s.budget || []).map(u => amount(u.kind, u.left) + " of " + amount(u.kind, u.limit) + " " + u.kind + " left");
  if (s.exceeded) left.push("reached: writes refused (budget_exceeded)");
  return left.join("; ") || "none";
}
// Roll-up: the lines a range left at its tip, and the agents' share, per
// author, intent and agent.
document.getElementById("rollup-form").addEventListener("submit", async e => {
  e.preventDefault();
  const range = document.getElementById("rollup-range").value;
  const note = document.getElementById("rollup-note");
  const box = document.getElementById("rollup");
  box.replaceChildren();
  const r = await fetch(api("/api/rollup", range ? {range} : {}), {credentials: "same-origin"});
  const u = await r.json();
  if (!r.ok) { note.textContent = "error: " + u.error; return; }
  const pct = (n, of) => of ? Math.round(100 * n / of) + " %" : "—";
  note.textContent = u.range + ": " + u.lines + " lines in " + u.files + " files" + (u.cut ? " (the first files only)" : "") + ", " + u.by_agents + " by agents (" + pct(u.by_agents, u.lines) + ")";
  const row = (by, name, lines, agents) => {
    const tr = document.createElement("tr");
    for (const v of [by, name, String(lines), agents]) tr.append(el("td", v));
    box.append(tr);
  };
  for (const a of u.authors) row("author", a.author, a.lines, a.by_agents + " (" + pct(a.by_agents, a.lines) + ")");
  for (const x of u.intents) row("intent", x.name || "no intent", x.lines, "");
  for (const x of u.agents) row("agent", x.name, x.lines, "");
});
// Blame: the file's lines in runs, each with the record behind it (none:
// a person's, a program the hooks did not see, or changed since).
document.getElementById("blame-form").addEventListener("submit", async e => {
  e.preventDefault();
  const path = document.getElementById("blame-path").value;
  const note = document.getElementById("blame-note");
  const box = document.getElementById("blame");
  box.replaceChildren();
  const r = await fetch(api("/api/blame", {path}), {credentials: "same-origin"});
  const b = await r.json();
  if (!r.ok) { note.textContent = "error: " + b.error; return; }
  note.textContent = b.path + ": " + b.lines + " lines; " + b.considered + " of the " + b.changes + " records that changed it looked at";
  for (const run of b.runs) {
    const rec = run.record >= 0 ? b.records[run.record] : null;
    const tr = document.createElement("tr");
    tr.append(el("td", run.start === run.end ? String(run.start) : run.start + "–" + run.end));
    for (const v of rec ? [rec.intent, rec.session, rec.agent, rec.model, rec.tool, rec.time] : ["no record", "", "", "", "", ""]) tr.append(el("td", v || ""));
    const text = el("td");
    text.append(el("pre", b.agent_text.lines.slice(run.start - 1, run.end).join(""), "agent"));
    tr.append(text);
    box.append(tr);
  }
});
let boardTimer = null;
function boardSoon() {
  if (boardTimer === null) boardTimer = setTimeout(() => { boardTimer = null; loadBoard(); loadReviews(); }, 1000);
}
loadRepos();
loadBoard();
loadReviews();
const es = new EventSource(api("/api/events"));
es.addEventListener("pending", e => showPending(JSON.parse(e.data)));
es.addEventListener("decision", e => { showDecision(JSON.parse(e.data)); boardSoon(); });
// Each (re)connection sends the newest decisions again: the feed starts over.
es.onopen = () => { document.getElementById("feed").replaceChildren(); document.getElementById("status").textContent = "live"; };
es.onerror = () => { document.getElementById("status").textContent = "disconnected: retrying…"; };

// The analysis board's page (a module: strict by itself): no library, no network but this
// server's own API (its routes under /api/analysis, and /api/position).
import { $, api, clearError, drawTable, showError } from "/static/common.js";

const state = {
  line: [],        // the BPNs of the line walked, oldest first
  index: -1,       // the current one
  pov: null,       // the seat at the bottom (null: the player to move)
  job: null,       // the running analysis of this tab
  items: [],       // positions loaded from a file
  puzzle: null,    // the loaded puzzle record shown, with its answer
  timer: null,
  asked: 0,        // analyses asked for: only the latest one may run
};

function current() {
  return state.line[state.index];
}

async function show(bpn, { record = true } = {}) {
  clearError();
  let info;
  try {
    const params = new URLSearchParams({ bpn });
    if (state.pov) params.set("pov", state.pov);
    info = await api("GET", `/api/position?${params}`);
  } catch (e) {
    showError(e.message);
    return false;
  }
  if (record) {
    state.line = state.line.slice(0, state.index + 1);
    state.line.push(info.bpn);
    state.index = state.line.length - 1;
  }
  $("diagram").replaceChildren(drawTable(info.table, info.bpn));
  $("current").textContent = info.bpn;
  $("current").dataset.bpn = info.bpn;
  $("bpn-input").value = info.bpn;
  if (!info.valid) showError(`impossible position: ${info.problems.join("; ")}`);
  $("back").disabled = state.index <= 0;
  $("forward").disabled = state.index >= state.line.length - 1;
  history.replaceState(null, "", `/?bpn=${encodeURIComponent(info.bpn)}`);
  $("moves").innerHTML = "";
  $("pv").textContent = "";
  $("summary").textContent = "";
  if (!info.valid) {
    await cancel();
  } else if (info.legal === null) {
    await cancel();
    $("status").textContent = `the hand of ${info.turn}, to play, is hidden: switch to his view to analyse`;
  } else {
    analyse();
  }
  return true;
}

async function redraw() {
  // the same position seen from the other seat: only the diagram changes
  const params = new URLSearchParams({ bpn: current() });
  if (state.pov) params.set("pov", state.pov);
  try {
    const info = await api("GET", `/api/position?${params}`);
    $("diagram").replaceChildren(drawTable(info.table, info.bpn));
  } catch (e) {
    showError(e.message);
  }
}

function signed(v) {
  return (v > 0 ? "+" : "") + v;
}

// an unfinished solve's value: an estimate ("≈"), or a bare proven bound ("at most", "at least")
function inexact(value, bound) {
  if (bound === "upper") return `at most ${signed(value)}`;
  if (bound === "lower") return `at least ${signed(value)}`;
  return `≈ ${signed(value)}`;
}

// the summary's unfinished value: a best move proven at most a value bounds the position
// only when no other move may be worth more (the position's proven upper bound is that value)
function headline(answer) {
  const text = inexact(answer.value, answer.bound);
  return answer.bound === "upper" && answer.upper > answer.value ? `${text} for the best move` : text;
}

function describe(mv, sampled) {
  if (!sampled) {
    if (mv.win) return `game won by ${mv.win}`;
    if (mv.exact === false) return inexact(mv.value, mv.bound);
    return signed(mv.value);
  }
  // (a null stderr: one sampled world, nothing known of the noise)
  const spread = mv.stderr === null ? "?" : mv.stderr.toFixed(2);
  let text = (mv.value > 0 ? "+" : "") + mv.value.toFixed(2) + " ± " + spread;
  if (mv.p_win) text += `, wins ${(100 * mv.p_win).toFixed(0)}%`;
  if (mv.p_loss) text += `, loses ${(100 * mv.p_loss).toFixed(0)}%`;
  return text;
}

// (exported: a test draws an answer of its own with it)
export function render(answer) {
  const sampled = answer.method === "pimc";
  const best = new Set(answer.best || []);
  const moves = [...(answer.moves || [])].sort((x, y) => y.value - x.value);
  const list = $("moves");
  list.innerHTML = "";
  for (const mv of moves) {
    const li = document.createElement("li");
    li.dataset.move = mv.move;
    li.dataset.value = String(mv.value);
    if (best.has(mv.move)) li.classList.add("best");
    const value = document.createElement("span");
    value.className = "value";
    value.textContent = describe(mv, sampled);
    li.append(value, document.createTextNode(mv.move));
    li.title = `play ${mv.move}`;
    li.addEventListener("click", () => play(mv.move));
    list.append(li);
  }
  $("pv").textContent = (answer.pv || []).join(" ");
  const unfinished = !sampled && answer.exact === false;
  const kind = sampled
    ? `${answer.worlds} worlds sampled`
    : answer.method === "exact"
      ? "exact"
      : unfinished
        ? `${answer.bound ? "a proven bound" : "estimate"}, search not finished`
        : "proven";
  const value = sampled ? answer.value.toFixed(2) : unfinished ? headline(answer) : answer.value;
  $("summary").textContent = moves.length ? `${answer.turn} to move: ${value} (${kind})` : "the deal is over";
}

async function play(move) {
  try {
    const res = await api("POST", "/api/analysis/play", { bpn: current(), move });
    await show(res.bpn);
  } catch (e) {
    showError(e.message);
  }
}

async function cancel() {
  stopPolling();
  if (state.job) {
    const id = state.job;
    state.job = null;
    try {
      await api("DELETE", `/api/analysis/jobs/${id}`);
    } catch (e) {
      /* already gone */
    }
    $("status").textContent = "cancelled";
  }
  $("cancel").disabled = true;
}

function stopPolling() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
}

async function analyse() {
  // one analysis a tab: a later request makes an earlier one void, even mid-flight
  const ask = ++state.asked;
  await cancel();
  if (ask !== state.asked) return;
  const bpn = current();
  let job;
  try {
    job = await api("POST", "/api/analysis/jobs", { bpn });
  } catch (e) {
    if (ask === state.asked) {
      showError(e.message);
      $("status").textContent = "not started";
    }
    return;
  }
  if (ask !== state.asked) {  // (superseded while it started: end it at once)
    api("DELETE", `/api/analysis/jobs/${job.id}`).catch(() => {});
    return;
  }
  state.job = job.id;
  $("cancel").disabled = false;
  $("status").textContent = "analysing";
  $("progress").removeAttribute("value");
  poll(job.id, bpn);
}

async function poll(id, bpn) {
  let job;
  try {
    job = await api("GET", `/api/analysis/jobs/${id}`);
  } catch (e) {
    showError(e.message);
    return;
  }
  if (state.job !== id || current() !== bpn) return; // (another analysis took its place)
  if (job.total) {
    $("progress").max = job.total;
    $("progress").value = job.done;
  }
  if (job.answer && job.state === "running") render(job.answer);
  if (job.state === "running") {
    $("status").textContent = job.total ? `${job.done} of ${job.total} worlds` : "solving";
    state.timer = setTimeout(() => poll(id, bpn), 250);
    return;
  }
  state.job = null;
  $("cancel").disabled = true;
  $("progress").max = 1;
  $("progress").value = 1;
  if (job.state === "done") {
    render(job.answer);
    judgePuzzle(job.answer);
    $("status").textContent = `done in ${job.seconds.toFixed(1)} s`;
  } else {
    $("status").textContent = job.state;
    if (job.error) showError(job.error);
  }
}

async function openFile(file) {
  clearError();
  const text = await file.text();
  let data;
  try {
    data = await api("POST", "/api/analysis/load", text);
  } catch (e) {
    showError(e.message);
    return;
  }
  state.items = data.items;
  const select = $("items");
  select.innerHTML = "";
  data.items.forEach((item, k) => {
    const option = document.createElement("option");
    option.value = String(k);
    option.textContent = item.name;
    select.append(option);
  });
  const errors = $("load-errors");
  errors.innerHTML = "";
  for (const message of data.errors) {
    const li = document.createElement("li");
    li.textContent = message;
    errors.append(li);
  }
  $("collection").hidden = false;
  $("item-info").textContent = `${data.items.length} loaded` + (data.errors.length ? `, ${data.errors.length} bad` : "");
  if (data.items.length) openItem(0);
}

// the puzzle view: the record's answer (bm, am, v), hidden on request, and whether the
// analysis of the puzzle's position agrees with it
function showPuzzle(item) {
  state.puzzle = item && (item.bm || item.am || item.v !== undefined) ? item : null;
  $("puzzle").hidden = !state.puzzle;
  if (!state.puzzle) return;
  const parts = [];
  if (item.bm) parts.push(`best move ${item.bm.join(" ")}`);
  if (item.am) parts.push(`avoid ${item.am.join(" ")}`);
  if (item.v !== undefined) parts.push(`value ${item.v > 0 ? "+" : ""}${item.v}`);
  $("answer-text").textContent = parts.join("; ");
  $("verdict").textContent = "";
  $("verdict").dataset.verdict = "";
}

function judgePuzzle(answer) {
  const item = state.puzzle;
  if (!item || current() !== item.bpns[0] || answer.method === "pimc") return;
  const best = answer.best || [];
  const bm = !item.bm || best.some((m) => item.bm.includes(m));
  const am = !item.am || !best.some((m) => item.am.includes(m));
  const v = item.v === undefined || answer.value === item.v;
  const pass = bm && am && v && answer.exact !== false;
  $("verdict").dataset.verdict = pass ? "pass" : "fail";
  $("verdict").textContent = pass
    ? "✓ pass: the solve finds the record's answer"
    : `✗ fail: the solve gives ${best.join(" ")} worth ${answer.value}`;
}

async function openItem(k) {
  const item = state.items[k];
  if (!item) return;
  showPuzzle(item);
  $("items").value = String(k);
  state.line = item.bpns.slice();
  state.index = 0;
  await show(state.line[0], { record: false });
}

function step(delta) {
  const k = state.index + delta;
  if (k < 0 || k >= state.line.length) return;
  state.index = k;
  show(state.line[k], { record: false });
}

function setup() {
  $("bpn-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("bpn-input").value.trim();
    if (text) show(text);
  });
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("flip").addEventListener("click", () => {
    const turn = $("diagram").querySelector(".diagram")?.dataset.bottom || "a";
    state.pov = turn === "a" ? "b" : "a";
    redraw();
  });
  $("copy").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(current() || "");
      $("status").textContent = "BPN copied";
    } catch (e) {
      const range = document.createRange();
      range.selectNodeContents($("current"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      $("status").textContent = "BPN selected: press Ctrl-C";
    }
  });
  $("analyse").addEventListener("click", analyse);
  $("hide-answer").addEventListener("change", (e) => {
    document.body.classList.toggle("answer-hidden", e.target.checked);
  });
  $("cancel").addEventListener("click", () => {
    state.asked++;  // (an analysis still starting is void too)
    cancel();
  });
  $("file").addEventListener("change", (e) => {
    if (e.target.files.length) openFile(e.target.files[0]);
  });
  $("items").addEventListener("change", (e) => openItem(Number(e.target.value)));
  $("prev-item").addEventListener("click", () => openItem(Number($("items").value) - 1));
  $("next-item").addEventListener("click", () => openItem(Number($("items").value) + 1));
  $("diagram").addEventListener("click", (e) => {
    const card = e.target.closest("[data-move]");
    if (card) play(card.dataset.move);
  });
  // a tab that goes away takes its analysis with it
  window.addEventListener("pagehide", () => {
    if (state.job) fetch(`/api/analysis/jobs/${state.job}`, { method: "DELETE", keepalive: true });
  });
  const start = new URLSearchParams(location.search).get("bpn");
  if (start) show(start);
}

setup();

// The play page: a game against the engine through the board's /api/games.  No library,
// no network but this server's own API.  The game's id lives in the address (#g=ID) and in
// the browser's storage, so that a reload resumes it.
import {
  $, RED, SUITS, api, drawBack, drawCard, drawTable, pretty, redSuits, showError as showBoxedError,
} from "/static/common.js";

const GRADES = { inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
const state = { id: null, view: null, timer: null, busy: false, review: null, step: -1, hintTimer: null };

// (the play page's errors go away by themselves: the game goes on under them)
const showError = (message) => showBoxedError(message, { hideAfter: 6000 });

function prettyMove(text) {
  return /^[789TJQKA][SHDC]$/.test(text) ? pretty(text) : text;
}

// ------------------------------------------------------------------ the game
function setUrl(id) {
  const url = new URL(location.href);
  url.hash = id ? `g=${id}` : "";
  history.replaceState(null, "", url);
  if (id) localStorage.setItem("brisque-game", id); else localStorage.removeItem("brisque-game");
}

function forgetReview() {
  state.review = null;
  state.step = -1;
  $("review").hidden = true;
}

async function newGame(settings) {
  stopPolling();
  forgetReview();
  const v = await api("POST", "/api/games", settings);
  state.id = v.id;
  setUrl(v.id);
  state.review = null;
  render(v);
}

async function load(id) {
  try {
    const v = await api("GET", `/api/games/${id}`);
    state.id = id;
    setUrl(id);
    render(v);
    return true;
  } catch (e) {
    setUrl(null);
    return false;
  }
}

function stopPolling() {
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
}

function poll() {
  stopPolling();
  state.timer = setTimeout(async () => {
    const id = state.id;
    try {
      render(await api("GET", `/api/games/${id}`));
    } catch (e) {
      if (id !== state.id) return;
      showError(e.message);
      if (/no game/.test(e.message)) { showSetup(); return; }  // (gone: asking again will not bring it back)
      poll();
    }
  }, 250);
}

async function play(move) {
  if (state.busy || !state.view || state.view.turn !== "you") return;
  state.busy = true;
  $("hint-text").textContent = "";
  try {
    render(await api("POST", `/api/games/${state.id}/moves`, { move }));
  } catch (e) {
    showError(e.message);
  } finally {
    state.busy = false;
  }
}

function render(v) {
  if (v.id && state.id && v.id !== state.id) return;  // (an answer about a game left since)
  state.view = v;
  $("setup").hidden = true;
  $("table").hidden = false;
  $("engine-level").textContent = `· level ${v.level.number}, ${v.level.name}`;
  $("you-seat").textContent = v.you === "a" ? "· elder hand" : "· dealer";
  renderCards(v);
  renderScores(v);
  // whose turn
  const status = $("status");
  status.dataset.turn = v.turn || "over";
  status.classList.toggle("thinking", !!v.thinking);
  document.body.dataset.thinking = v.thinking ? "yes" : "no";
  document.body.dataset.moves = String(v.moves_played);
  status.textContent = v.over ? "The deal is over" : v.thinking ? "The engine is thinking" : "Your turn";
  if (v.engine_error) {
    const when = v.engine_retry_in > 0 ? ` in ${v.engine_retry_in} s` : "";
    showError(`the engine failed (it tries again${when}): ${v.engine_error}`);
  }
  $("hint").disabled = v.turn !== "you";
  if (v.thinking) poll(); else stopPolling();
  renderResult(v);
}

// the cards on the table: the engine's hand, the talon, the trick, your hand and moves
function renderCards(v) {
  // the engine's hand: backs, and the cards it showed face up
  const engine = $("engine-hand");
  engine.replaceChildren();
  v.engine_shown.forEach((c) => engine.appendChild(drawCard(c, { shown: true })));
  for (let i = v.engine_shown.length; i < v.engine_cards; i++) engine.appendChild(drawBack("", "a card of the engine"));
  // the talon, the turnup and the trump
  $("turnup").replaceChildren(...(v.turnup ? [drawCard(v.turnup)] : []));
  $("talon-count").textContent = v.talon ? `talon: ${v.talon}` : (v.game === "petite" ? "" : "talon empty");
  $("trump").innerHTML = `trumps <span class="${RED.has(v.trump) ? "suit-red" : ""}">${SUITS[v.trump]}</span>`;
  // the trick on the table
  const trick = $("trick");
  trick.replaceChildren();
  const last = v.played.length ? v.played[v.played.length - 1] : null;
  const onTable = v.trick.length ? v.trick : (v.turn === "engine" || v.over) && last ? last.cards : [];
  onTable.forEach((c) => {
    const box = document.createElement("div");
    box.className = "played";
    box.appendChild(drawCard(c.card));
    const label = document.createElement("span");
    label.textContent = c.by;
    box.appendChild(label);
    trick.appendChild(box);
  });
  // your hand and the buttons of declarations and the exchange
  const legal = new Map(v.legal.map((m) => [m.move, m]));
  const hand = $("hand");
  hand.replaceChildren();
  v.hand.forEach((c) => {
    const playable = legal.has(c);
    const el = drawCard(c, { move: playable ? c : null, disabled: !playable });
    if (playable) el.addEventListener("click", () => play(c));
    hand.appendChild(el);
  });
  const actions = $("actions");
  actions.replaceChildren();
  v.legal.filter((m) => m.kind !== "card").forEach((m) => {
    const b = document.createElement("button");
    b.dataset.move = m.move;
    b.innerHTML = redSuits(m.label) +
      (m.points ? `<span class="points">+${m.points}</span>` : "");
    b.addEventListener("click", () => play(m.move));
    actions.appendChild(b);
  });
}

// the scores, the melds, the deal and the tricks played
function renderScores(v) {
  $("score-you").textContent = v.score.you; $("score-engine").textContent = v.score.engine;
  $("tricks-you").textContent = v.tricks.you; $("tricks-engine").textContent = v.tricks.engine;
  $("totals-row").hidden = !v.whole_game;
  $("totals-you").textContent = v.totals.you; $("totals-engine").textContent = v.totals.engine;
  const melds = [];
  for (const who of ["you", "engine"]) {
    for (const m of v.melds[who]) melds.push(`<li data-meld="${m.move}">${who === "you" ? "You" : "The engine"}: ${redSuits(m.label)} <span class="points">+${m.points}</span></li>`);
  }
  $("melds").innerHTML = melds.length ? `<ul class="melds">${melds.join("")}</ul>` : "";
  // the seed deals every card: the server gives it once the game is over, as a link to share
  const share = v.seed === null ? "" :
    ` · seed <a id="share" href="${location.origin}/play?game=${v.game}&level=${v.level.number}&seed=${v.seed}&seat=${v.you}${v.whole_game ? "&whole=1" : ""}">${v.seed}</a>`;
  $("deal-info").innerHTML = `${v.game}, deal ${v.deal}${v.whole_game ? ` (game to ${v.target})` : ""}${share}`;
  // the tricks played
  const played = $("played");
  played.replaceChildren();
  v.played.forEach((t) => {
    const li = document.createElement("li");
    li.innerHTML = t.cards.map((c) => `${c.by === "you" ? "you" : "engine"} ${pretty(c.card)}`).join(", ") +
      ` → <span class="${t.winner === "you" ? "won" : ""}">${t.winner}</span>`;
    played.appendChild(li);
  });
  played.scrollTop = played.scrollHeight;
}

function renderResult(v) {
  const box = $("result");
  box.hidden = !v.over;
  if (!v.over) { $("review").hidden = true; return; }
  const r = v.result;
  const title = r.game_won ? (r.game_won === "you" ? "You won the game outright" : "The engine won the game outright")
    : r.winner === "you" ? "You won the deal" : r.winner === "engine" ? "The engine won the deal" : "A drawn deal";
  $("result-title").textContent = title;
  let text = `Points: you ${r.score.you}, engine ${r.score.engine}.`;
  if (v.whole_game) {
    text += ` Game: you ${v.totals.you}, engine ${v.totals.engine} (to ${v.target}).`;
    if (v.game_over) text += v.game_winner === "you" ? " You won the game." : v.game_winner === "engine" ? " The engine won the game." : "";
  }
  // (a result reached by taking moves back is no result against the engine alone)
  if (v.take_backs) text += ` This game was played with ${v.take_backs} take-back${v.take_backs > 1 ? "s" : ""}.`;
  const c = v.comparison;
  if (c) {
    const sign = (x) => (x > 0 ? "+" : "") + x;
    text += ` The same cards, seat ${c.seat}: you made ${sign(c.you)} with them, the engine ${sign(c.engine)}.`;
  }
  $("result-text").textContent = text;
  $("result-text").dataset.comparison = c ? JSON.stringify(c) : "";
  $("next-deal").hidden = !v.whole_game || v.game_over;
  $("download").href = `/api/games/${state.id}/records`;
}

// ------------------------------------------------------------------ hint
async function hint() {
  try {
    $("hint-text").textContent = "Thinking about your best move…";
    let job = await api("POST", `/api/games/${state.id}/hint`);
    while (job.state === "running") {
      await new Promise((r) => setTimeout(r, 200));
      job = await api("GET", `/api/games/${state.id}/hint`);
    }
    if (job.state !== "done") throw new Error(job.error || "no hint");
    const best = job.answer.best;
    $("hint-text").innerHTML = `Hint: <strong>${redSuits(best.label)}</strong>, worth ${job.answer.value >= 0 ? "+" : ""}${job.answer.value.toFixed(1)} from what you can see.`;
    document.querySelectorAll("#hand .card, #actions button").forEach((el) => el.classList.toggle("hinted", el.dataset.move === best.move));
  } catch (e) {
    $("hint-text").textContent = "";
    showError(e.message);
  }
}

// ------------------------------------------------------------------ review
async function review() {
  const v = state.view;
  state.review = null;  // (the steps of an earlier review are not this deal's)
  state.step = -1;
  $("review-diagram").replaceChildren();
  $("review").hidden = false;
  $("review-status").textContent = "· grading every decision from what you could see…";
  $("review-rows").replaceChildren();
  $("review-graph").replaceChildren();
  try {
    let job = await api("POST", `/api/games/${state.id}/review`, { deal: v.deal - 1 });
    while (job.state === "running") {
      await new Promise((r) => setTimeout(r, 300));
      job = await api("GET", `/api/games/${state.id}/review`);
    }
    if (job.state !== "done") throw new Error(job.error || "the review failed");
    state.review = job.answer;
    renderReview();
  } catch (e) {
    $("review-status").textContent = "";
    showError(e.message);
  }
}

function renderReview() {
  const r = state.review;
  const c = r.result.counts;
  $("review-status").textContent = `· ${c.blunder} blunders, ${c.mistake} mistakes, ${c.inaccuracy} inaccuracies`;
  $("review-graph").innerHTML = r.svg;
  // a deal of a whole game is graded by the chance of winning the game, not the deal
  const of = (r.rows.find((row) => row.own_win_of) || {}).own_win_of || "deal";
  $("chance-head").textContent = `${of} chance given up`;
  $("chance-head").title = `how much the move lowered your chance of winning the ${of}`;
  const rows = $("review-rows");
  rows.replaceChildren();
  r.rows.forEach((row, i) => {
    const tr = document.createElement("tr");
    tr.dataset.number = row.number;
    tr.dataset.grade = row.grade || "";
    const drop = row.own_win_drop == null ? "" : `${(100 * row.own_win_drop).toFixed(0)}%`;
    tr.innerHTML = `<td>${row.number}</td><td>${row.trick}</td><td>${prettyMove(row.move)}</td>` +
      `<td>${row.best.slice(0, 3).map(prettyMove).join(" ")}</td>` +
      `<td>${row.own_loss.toFixed(1)} ± ${row.own_stderr == null ? "?" : row.own_stderr.toFixed(1)}</td>` +
      `<td>${drop}</td><td>${row.dd_loss}</td>` +
      `<td>${row.grade ? `<span class="grade ${GRADES[row.grade]}">${row.grade}</span>` : ""}` +
      // (early in the talon the worlds are valued by a depth-limited search: say so)
      `${row.grade && row.estimate ? ` <span class="estimate" title="judged on depth-limited estimates, early in the talon">estimate</span>` : ""}</td>`;
    tr.dataset.estimate = row.estimate ? "yes" : "no";
    tr.addEventListener("click", () => showStep(i));
    rows.appendChild(tr);
  });
  showStep(r.rows.length ? 0 : -1);
}

async function showStep(i) {
  const r = state.review;
  if (!r || i < 0 || i >= r.rows.length) return;
  state.step = i;
  document.querySelectorAll("#review-rows tr").forEach((tr, k) => tr.classList.toggle("current", k === i));
  const row = r.rows[i];
  try {
    const info = await api("GET", `/api/position?${new URLSearchParams({ bpn: row.bpn, pov: r.seat })}`);
    $("review-diagram").replaceChildren(drawTable({ ...info.table, playable: [] }, info.bpn));  // (to look at)
    $("review-diagram").dataset.bpn = row.bpn;
  } catch (e) {
    showError(e.message);
  }
}

async function takeBack() {
  const r = state.review;
  if (!r || state.step < 0) return;
  const row = r.rows[state.step];
  try {
    const v = await api("POST", `/api/games/${state.id}/takeback`, { moves_kept: row.number - 1 });
    $("review").hidden = true;
    render(v);
  } catch (e) {
    showError(e.message);
  }
}

// ------------------------------------------------------------------ wiring
function showSetup() {
  stopPolling();
  forgetReview();
  state.id = null;
  setUrl(null);
  $("table").hidden = true;
  $("result").hidden = true;
  $("review").hidden = true;
  $("setup").hidden = false;
}

function settingsFromForm() {
  const seed = $("seed").value.trim();
  const s = { game: $("game").value, seat: $("seat").value, level: Number($("level").value), whole_game: $("length").value === "game" };
  if (seed) s.seed = seed;  // (as text: a JavaScript number rounds seeds beyond 2^53)
  return s;
}

$("setup-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const seed = $("seed").value.trim();
  if (seed && !/^\d{1,19}$/.test(seed)) { showError(`seed ${JSON.stringify(seed)}: expected a whole number`); return; }
  try { await newGame(settingsFromForm()); } catch (err) { showError(err.message); }
});
$("hint").addEventListener("click", hint);
$("new-game").addEventListener("click", showSetup);
$("again").addEventListener("click", showSetup);
$("review-button").addEventListener("click", review);
$("take-back").addEventListener("click", takeBack);
$("next-deal").addEventListener("click", async () => {
  try { forgetReview(); render(await api("POST", `/api/games/${state.id}/next`)); } catch (e) { showError(e.message); }
});
$("swap").addEventListener("click", async () => {
  try {
    const v = await api("POST", `/api/games/${state.id}/swap`);
    forgetReview(); state.id = v.id; setUrl(v.id); render(v);
  } catch (e) { showError(e.message); }
});
document.addEventListener("keydown", (e) => {
  if ($("review").hidden || !state.review) return;
  if (e.key === "ArrowRight") { showStep(Math.min(state.step + 1, state.review.rows.length - 1)); e.preventDefault(); }
  if (e.key === "ArrowLeft") { showStep(Math.max(state.step - 1, 0)); e.preventDefault(); }
});

(async function start() {
  const params = new URLSearchParams(location.search);
  for (const key of ["game", "seat", "level", "seed"]) if (params.get(key)) $(key).value = params.get(key);
  if (params.get("whole") === "1") $("length").value = "game";
  const fromHash = location.hash.match(/g=([0-9a-f]{24})/);
  const id = fromHash ? fromHash[1] : localStorage.getItem("brisque-game");
  if (id && await load(id)) return;
  showSetup();
})();

// What both pages share (imported by board.js and play.js): the calls to the board's API,
// the error box, and the drawing of cards, so that a card looks and behaves the same on
// both pages.  No library, no network but this server's own API.
//
//   import { api, drawCard } from "/static/common.js";
//   const info = await api("GET", `/api/position?bpn=${encodeURIComponent(bpn)}`);
//   hand.append(drawCard("TH", { move: "TH" }));   // a playable ten of hearts

export const $ = (id) => document.getElementById(id);
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const RED = new Set(["H", "D"]);

// ------------------------------------------------------------------ the API and errors
// The answer of the board's API, or an Error whose message is the server's own words.  A
// string body goes as text (a file's text), anything else as JSON.
export async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = typeof body === "string" ? "text/plain" : "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(path, options);
  let data;
  try {
    data = await res.json();
  } catch (e) {
    throw new Error(`the server answered ${res.status} without JSON`);
  }
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

// Show a message in the page's #error box; with hideAfter (milliseconds), hide it then.
export function showError(message, { hideAfter = 0 } = {}) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(showError.timer);
  if (hideAfter) showError.timer = setTimeout(clearError, hideAfter);
}

export function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

// ------------------------------------------------------------------ cards
export function rankText(card) {
  return card[0] === "T" ? "10" : card[0];
}

// A card (such as "TH") as an element with class "card" and data-card.  Given a move, the
// card is a button with data-move that can be played (class "playable"); shown: a card the
// engine showed face up.
export function drawCard(card, { move = null, shown = false, disabled = false } = {}) {
  const el = document.createElement(move || disabled ? "button" : "div");
  el.className = "card" + (RED.has(card[1]) ? " red" : "") + (move ? " playable" : "") + (shown ? " shown" : "");
  el.innerHTML = `<span class="rank">${rankText(card)}</span><span class="suit">${SUITS[card[1]]}</span>`;
  el.dataset.card = card;
  el.setAttribute("aria-label", `${rankText(card)}${SUITS[card[1]]}`);
  if (move) el.dataset.move = move;
  if (disabled) el.disabled = true;
  return el;
}

// A card face down: a hidden card, or the talon with its count as label.
export function drawBack(label = "", title = "a hidden card") {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-label", title);
  if (label) el.innerHTML = `<span class="count">${label}</span>`;
  return el;
}

// A card in a line of text, with its suit symbol (red for hearts and diamonds).
export function pretty(card) {
  const cls = RED.has(card[1]) ? "suit-red" : "";
  return `<span class="${cls}">${rankText(card)}${SUITS[card[1]]}</span>`;
}

export function redSuits(text) {
  return text.replace(/([789JQKA]|10)?[♥♦]/g, '<span class="suit-red">$&</span>');
}

// ------------------------------------------------------------------ a position's table
function element(tag, className, text = "") {
  const el = document.createElement(tag);
  el.className = className;
  el.textContent = text;
  return el;
}

function seatRow(table, seat) {
  const hand = table.hands[seat];
  const row = element("div", "row");
  row.dataset.seat = seat;
  const playable = new Set(seat === table.turn ? table.playable : []);
  hand.cards.forEach((c) => row.append(drawCard(c, { move: playable.has(c) ? c : null })));
  for (let i = 0; i < hand.hidden; i++) row.append(drawBack());
  const counts = `${hand.points} point${hand.points === 1 ? "" : "s"}, ${hand.tricks} trick${hand.tricks === 1 ? "" : "s"}`;
  const melds = hand.melds.length ? `  ${hand.melds.join(" ")}` : "";
  const label = element("div", "label", `${seat}: ${counts}${melds}${table.turn === seat ? " ◀ to play" : ""}`);
  return [row, label];
}

function middle(table) {
  const box = element("div", "middle");
  const stock = element("div", "stock");
  stock.append(element("div", "caption", `${table.game}, trump ${SUITS[table.trump]}`));
  const cards = element("div", "cards");
  if (table.draws && table.talon) cards.append(drawBack(String(table.talon), `the talon: ${table.talon} cards`));
  if (table.turnup) cards.append(drawCard(table.turnup));
  stock.append(cards);
  const talon = table.draws ? `talon ${table.talon}` + (table.turnup ? " + turnup" : "") : `${table.talon} dead cards`;
  stock.append(element("div", "caption", talon));
  const centre = element("div", "centre");
  if (table.trick) centre.append(drawCard(table.trick), element("div", "caption", `${table.leader} led`));
  if (table.result) centre.append(element("div", "result", table.result));
  const out = element("div", "out", table.out.length ? "out:" : "");
  table.out.forEach((line) => out.append(element("div", "", line)));
  box.append(stock, centre, out);
  return box;
}

// The table of a position (the "table" of GET /api/position) as an element: the hand at
// the top, the talon, turnup, trick and cards out in the middle, the hand at the bottom.
export function drawTable(table, bpn) {
  const el = element("div", "diagram felt");
  el.dataset.bottom = table.bottom;
  el.dataset.bpn = bpn;
  const top = table.bottom === "a" ? "b" : "a";
  const [topRow, topLabel] = seatRow(table, top);
  const [bottomRow, bottomLabel] = seatRow(table, table.bottom);
  el.append(topLabel, topRow, middle(table), bottomRow, bottomLabel);
  return el;
}

// The lobby: pick a built-in ruleset, its options, the players and who sits where, and
// start; the server answers with the link of each person's seat.
"use strict";

let rulesets = [];
let kinds = [];
let budgets = {};  // bot kind -> {budget: what its number counts, max: the most allowed}
let opponent = "greedy";  // the bot the other seats start as (the server says which)

function chosen() {
  const name = document.getElementById("ruleset").value;
  return rulesets.find((r) => r.name === name);
}

// The number a seat's bot may be given (its budget a decision), shown for the bots that
// take one, within the server's cap.
function budgetInput(select) {
  const input = el("input");
  input.type = "number";
  input.min = "1";
  input.placeholder = "default";
  input.className = "budget";
  input.name = select.name + "-budget";
  const update = () => {
    const offer = budgets[select.value];
    input.hidden = !(offer && offer.budget);
    if (!input.hidden) {
      input.max = String(offer.max);
      input.title = offer.budget + " a decision, up to " + offer.max;
    }
  };
  select.addEventListener("change", update);
  update();
  return input;
}

function drawSeats() {
  const box = document.getElementById("seats");
  const count = Number(document.getElementById("players").value);
  const before = Array.from(box.querySelectorAll("select")).map((s) => s.value);
  box.replaceChildren(el("legend", "", "Who sits where"));
  for (let seat = 1; seat <= count; seat++) {
    const label = el("label", "", "Seat " + seat + " ");
    const select = el("select");
    select.name = "seat" + seat;
    for (const kind of kinds) {
      const option = el("option", "", kind === "human" ? "a person (a link)" : "bot: " + kind);
      option.value = kind;
      select.appendChild(option);
    }
    select.value = before[seat - 1] || (seat === 1 ? "human" : opponent);
    label.appendChild(select);
    label.appendChild(budgetInput(select));
    box.appendChild(label);
  }
}

// A seat's kind as the server takes it: "ismcts:50" when a budget is written.
function seatKind(select) {
  const input = select.parentNode.querySelector("input.budget");
  const budget = input && !input.hidden ? input.value.trim() : "";
  return budget === "" ? select.value : select.value + ":" + budget;
}

function drawBudgets() {
  const parts = [];
  for (const [kind, offer] of Object.entries(budgets)) {
    if (offer.budget) parts.push(kind + " up to " + offer.max + " " + offer.budget);
  }
  document.getElementById("budgets").textContent = parts.length ?
    "A bot's number is its budget a decision (empty: its default): " + parts.join(", ") + "." : "";
}

function optionInput(option) {
  if (option.choices) {
    const select = el("select");
    for (const value of option.choices) {
      const item = el("option", "", String(value));
      item.value = String(value);
      select.appendChild(item);
    }
    select.value = String(option.default);
    return select;
  }
  const input = el("input");
  if (typeof option.default === "boolean") {
    input.type = "checkbox";
    input.checked = option.default;
  } else {
    input.type = typeof option.default === "number" ? "number" : "text";
    input.value = String(option.default);
  }
  return input;
}

function drawOptions() {
  const rules = chosen();
  document.getElementById("ruleset-summary").textContent = rules.summary;
  const players = document.getElementById("players");
  players.min = rules.players.min;
  players.max = rules.players.max;
  players.value = rules.players.default;
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", "", "Options"));
  for (const option of rules.options) {
    // By its label; its name (what --option takes) is a detail.
    const label = el("label", "option", (option.label || option.name) + " ");
    const input = optionInput(option);
    input.dataset.option = option.name;
    label.title = option.doc;
    label.appendChild(input);
    label.appendChild(el("span", "name", option.name));
    label.appendChild(el("span", "doc", option.doc));
    box.appendChild(label);
  }
  if (!rules.options.length) box.appendChild(el("span", "nothing", "none"));
  drawSeats();
}

async function start(event) {
  event.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    options[input.dataset.option] = input.type === "checkbox" ? input.checked : input.value;
  }
  const seed = document.getElementById("seed").value;
  const body = {
    ruleset: chosen().name,
    players: Number(document.getElementById("players").value),
    seats: Array.from(document.querySelectorAll("#seats select")).map(seatKind),
    options: options,
    seed: seed === "" ? null : Number(seed),
  };
  const result = await postJSON("/api/games", body);
  const refusal = document.getElementById("refusal");
  if (!result.ok) {
    refusal.textContent = "Refused: " + (result.data.error || "the game cannot start");
    return;
  }
  refusal.textContent = "";
  const list = document.getElementById("links");
  list.replaceChildren();
  for (const link of result.data.links) {
    const item = el("li", "", "Seat " + link.seat + ": ");
    const a = el("a", "", link.url);
    a.href = link.url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    item.appendChild(a);
    list.appendChild(item);
  }
  document.getElementById("saved").textContent = result.data.save ?
    "Saved as it goes, as " + result.data.save + " in the server's save folder." : "";
  document.getElementById("started").hidden = false;
}

async function load() {
  const response = await fetch("/api/rulesets");
  const data = await response.json();
  rulesets = data.rulesets;
  kinds = data.kinds;
  opponent = data.opponent || opponent;
  budgets = {};
  for (const bot of data.bots || []) budgets[bot.kind] = bot;
  drawBudgets();
  const select = document.getElementById("ruleset");
  for (const rules of rulesets) {
    const option = el("option", "", rules.title + " (" + rules.name + ")");
    option.value = rules.name;
    select.appendChild(option);
  }
  select.addEventListener("change", drawOptions);
  document.getElementById("players").addEventListener("change", drawSeats);
  document.getElementById("new-game").addEventListener("submit", start);
  drawOptions();
}

document.addEventListener("DOMContentLoaded", load);

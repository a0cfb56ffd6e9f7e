// One seat's page: draws the table from the ruleset's declarations and the seat's view,
// lists the seat's choices, and sends the one picked. Everything about the game comes
// from the server's payload for this seat (its player view); nothing game-specific here.
"use strict";

const TOKEN = decodeURIComponent(location.pathname.split("/").pop());
const API = "/api/seat/" + encodeURIComponent(TOKEN);
const SUITS = {clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠"};
const SHOWN_CHOICES = 30;  // a longer list shows this many, and a box to narrow it

let table = null;     // the ruleset's declarations (sent with the first payload)
let current = null;   // the latest payload
let selected = [];    // places of the cards clicked, narrowing the choices
let filter = "";      // words typed to narrow a long list
let writing = null;   // the choice whose text is being written
let sending = false;

// ------------------------------------------------------------------ cards
function placeKey(place) {
  return place.map((part) => (part === null ? "" : String(part))).join("|");
}

// A card as the seat sees it: a face (up, or known but face down), a back, or a gap.
function cardElement(entry, key) {
  if (entry === null || entry === undefined) return el("div", "card empty");
  if (entry.card === null) {
    const back = el("div", "card back");
    back.title = "a card you do not know";
    if (key) back.dataset.key = key;
    return back;
  }
  const node = faceElement(entry.card);
  if (!entry.up) {
    node.classList.add("down");
    node.title = entry.card + " (face down: you know it)";
  }
  if (key) node.dataset.key = key;
  return node;
}

function faceElement(name) {
  const face = (table && table.faces[name]) || {rank: name, suit: "", colour: "none"};
  const node = el("div", "card face " + (face.colour === "red" ? "red" : "black"));
  if (face.joker) {
    node.appendChild(el("span", "rank", "Jk"));
    node.appendChild(el("span", "suit", "★"));
  } else {
    node.appendChild(el("span", "rank", face.rank));
    node.appendChild(el("span", "suit", SUITS[face.suit] || face.suit.charAt(0)));
  }
  node.dataset.card = name;
  node.title = name;
  return node;
}

// The deck's card names as a pattern that finds them as words in a text.
let namePattern = null;
function cardNames() {
  if (!namePattern) {
    const names = Object.keys(table.faces).sort((a, b) => b.length - a.length)
      .map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    namePattern = new RegExp("(?<![0-9A-Za-z])(" + names.join("|") + ")(?![0-9A-Za-z])");
  }
  return namePattern;
}

// A text with the deck's card names in it shown as small cards (text stays text).
function richText(text) {
  const out = el("span");
  const names = table ? table.faces : {};
  const parts = table ? String(text).split(cardNames()) : [String(text)];
  for (const part of parts) {
    if (part && Object.prototype.hasOwnProperty.call(names, part)) {
      const face = names[part];
      const mini = el("span", "mini " + (face.colour === "red" ? "red" : "black"),
        face.joker ? "Jk" : face.rank + (SUITS[face.suit] || face.suit.charAt(0)));
      out.appendChild(mini);
    } else if (part) {
      out.appendChild(document.createTextNode(part));
    }
  }
  return out;
}

// ------------------------------------------------------------------ zones
function zoneElement(zone, seen, owner, group) {
  const box = el("div", "zone layout-" + zone.layout + " vis-" + zone.visibility);
  const count = seen.count;
  if (!("cards" in seen)) {  // a hidden zone: its size only
    box.appendChild(count ? el("div", "card back") : el("div", "card empty"));
    box.appendChild(el("span", "count", count + (count === 1 ? " card" : " cards")));
    return box;
  }
  const key = (slot) => placeKey([zone.name, owner, group, slot]);
  const cards = seen.cards;
  if (zone.layout === "stack") {
    if (cards.length) {
      box.appendChild(cardElement(cards[cards.length - 1], key(cards.length - 1)));
    } else {
      box.appendChild(el("div", "card empty"));
    }
    box.appendChild(el("span", "count", count + (count === 1 ? " card" : " cards")));
    return box;
  }
  const holder = el("div", "cards");
  if (zone.layout === "grid") {
    holder.style.gridTemplateColumns = "repeat(" + Math.max(zone.columns, 1) + ", auto)";
  }
  cards.forEach((entry, slot) => holder.appendChild(cardElement(entry, key(slot))));
  if (!cards.length) holder.appendChild(el("span", "nothing", "empty"));
  box.appendChild(holder);
  return box;
}

function ownedZone(zone, seen, owner) {
  const wrap = el("div", "owned-zone");
  wrap.dataset.zone = zone.name;
  wrap.appendChild(el("div", "zone-name", zone.name));
  if (zone.groups) {
    const groups = el("div", "groups");
    seen.forEach((part, index) => {
      if (part.count) groups.appendChild(zoneElement(zone, part, owner, index));
    });
    if (!groups.childNodes.length) groups.appendChild(el("span", "nothing", "none"));
    wrap.appendChild(groups);
  } else {
    wrap.appendChild(zoneElement(zone, seen, owner, null));
  }
  return wrap;
}

function drawShared(view) {
  const shared = document.getElementById("shared");
  shared.replaceChildren();
  for (const zone of table.zones) {
    if (zone.owned) continue;
    const wrap = el("div", "shared-zone");
    wrap.dataset.zone = zone.name;
    wrap.appendChild(el("div", "zone-name", zone.name));
    if (zone.groups) {  // the table's piles, side by side, each in its place (empty or not)
      const groups = el("div", "groups");
      view.zones[zone.name].forEach((part, index) => {
        groups.appendChild(zoneElement(zone, part, null, index));
      });
      wrap.appendChild(groups);
    } else {
      wrap.appendChild(zoneElement(zone, view.zones[zone.name], null, null));
    }
    shared.appendChild(wrap);
  }
}

function seatName(p) {
  const seat = current.seats[p - 1];
  if (p === current.seat) return "Seat " + p + " (you)";
  return "Seat " + p + (seat.kind === "human" ? "" : " (" + seat.kind + ")");
}

function drawPlayers(view) {
  const players = document.getElementById("players");
  players.replaceChildren();
  const order = [];
  for (let i = 0; i < view.players; i++) order.push(((current.seat - 1 + i) % view.players) + 1);
  for (const p of order) {
    const panel = el("div", "player");
    panel.dataset.seat = String(p);
    if (p === current.seat) panel.classList.add("me");
    if (p === view.to_move) panel.classList.add("to-move");
    const head = el("div", "player-head");
    head.appendChild(el("span", "player-name", seatName(p)));
    if (p === view.dealer) head.appendChild(el("span", "tag", "dealer"));
    if (p === view.to_move) head.appendChild(el("span", "tag move", "to move"));
    if (view.winners.includes(p)) head.appendChild(el("span", "tag won", "winner"));
    head.appendChild(el("span", "total", "total " + view.totals[p - 1]));
    panel.appendChild(head);
    const zones = el("div", "player-zones");
    for (const zone of table.zones) {
      if (zone.owned) zones.appendChild(ownedZone(zone, view.zones[zone.name][String(p)], String(p)));
    }
    panel.appendChild(zones);
    const vars = el("div", "player-vars");
    for (const [name, values] of Object.entries(view.player_variables)) {
      vars.appendChild(el("span", "var", name + ": " + shown(values[p - 1])));
    }
    panel.appendChild(vars);
    players.appendChild(panel);
  }
  if (view.house) players.appendChild(housePanel(view));
}

// The house (a ruleset's `house:`): a party that is not a seat; its zones are under the
// owner "house", its cards shown exactly as the view holds them.
function housePanel(view) {
  const house = view.house;
  const panel = el("div", "player house");
  panel.dataset.seat = "house";
  const head = el("div", "player-head");
  head.appendChild(el("span", "player-name", house.name));
  if (house.winner) head.appendChild(el("span", "tag won", "winner"));
  head.appendChild(el("span", "total", "total " + house.total));
  panel.appendChild(head);
  const zones = el("div", "player-zones");
  for (const zone of table.zones) {
    if (zone.owned) zones.appendChild(ownedZone(zone, view.zones[zone.name].house, "house"));
  }
  panel.appendChild(zones);
  const vars = el("div", "player-vars");
  for (const [name, value] of Object.entries(house.variables)) {
    vars.appendChild(el("span", "var", name + ": " + shown(value)));
  }
  panel.appendChild(vars);
  return panel;
}

function shown(value) {
  if (value === null || value === undefined) return "?";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === "") return "-";
  return String(value);
}

// ------------------------------------------------------------------ scores, news
function drawScores(view) {
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  const head = el("tr");
  head.appendChild(el("th", "", "round"));
  for (let p = 1; p <= view.players; p++) head.appendChild(el("th", "", "seat " + p));
  if (view.house) head.appendChild(el("th", "", view.house.name));
  scores.appendChild(head);
  view.round_scores.forEach((row, index) => {
    const line = el("tr");
    line.appendChild(el("td", "", String(index + 1)));
    row.forEach((score) => line.appendChild(el("td", "", String(score))));
    if (view.house) line.appendChild(el("td", "", String(view.house.round_scores[index])));
    scores.appendChild(line);
  });
  const total = el("tr", "total-row");
  total.appendChild(el("td", "", "total"));
  view.totals.forEach((score) => total.appendChild(el("td", "", String(score))));
  if (view.house) total.appendChild(el("td", "", String(view.house.total)));
  scores.appendChild(total);
  const vars = document.getElementById("variables");
  vars.replaceChildren();
  for (const [name, value] of Object.entries(view.variables)) {
    vars.appendChild(el("div", "var", name + ": " + (value === null ? "none" : shown(value))));
  }
  vars.appendChild(el("div", "var", table.winner + " total wins"));
}

function drawNews(news) {
  const list = document.getElementById("news");
  list.replaceChildren();
  for (const line of news.slice().reverse()) {
    const item = el("li");
    item.appendChild(richText(line));
    list.appendChild(item);
  }
}

// ------------------------------------------------------------------ choices
function narrowed() {
  let choices = current.choices;
  for (const key of selected) {
    choices = choices.filter((c) => c.cards.some((place) => placeKey(place) === key));
  }
  if (filter) {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    choices = choices.filter((c) => {
      const have = c.text.toLowerCase().match(/[0-9a-z]+/g) || [];
      return words.every((w) => have.some((h) => h.startsWith(w)));
    });
  }
  return choices;
}

function statusText(view) {
  if (view.over) {
    const names = view.winners.map((w) => "seat " + w);
    if (view.house && view.house.winner) names.unshift(view.house.name);
    const forfeited = (current.results && current.results.forfeited) || [];
    const over = "Game over" + forfeited.map((s) => ", seat " + s + " forfeited").join("") + ". ";
    if (!names.length) return over + "No winner.";
    return over + (names.length === 1 ? "Winner: " : "Tied winners: ") + names.join(", ");
  }
  if (view.to_move === current.seat) {
    if (current.reaction) return "A chance to react: act now, or pass.";
    return "Your move (" + view.phase + ": " + view.step + ").";
  }
  return seatName(view.to_move) + " to move (" + view.phase + ": " + view.step + ").";
}

function drawChoices() {
  const view = current.view;
  document.getElementById("status").textContent = statusText(view);
  const box = document.getElementById("choices");
  box.replaceChildren();
  const selection = document.getElementById("selection");
  selection.replaceChildren();
  if (!current.choices.length) return;
  if (writing !== null) {
    box.appendChild(writingForm(writing));
    return;
  }
  if (selected.length) {
    selection.appendChild(el("span", "", "Cards picked: " + selected.length + " "));
    const clear = el("button", "small", "clear");
    clear.addEventListener("click", () => { selected = []; render(); });
    selection.appendChild(clear);
  }
  if (current.choices.length > SHOWN_CHOICES) {
    const input = el("input", "narrow");
    input.type = "search";
    input.placeholder = "type words to narrow the " + current.choices.length + " choices";
    input.value = filter;
    input.addEventListener("input", () => {
      filter = input.value;
      drawChoices();
      const again = document.querySelector("input.narrow");
      if (again) { again.focus(); again.setSelectionRange(again.value.length, again.value.length); }
    });
    box.appendChild(input);
  }
  const choices = narrowed();
  const passing = choices.filter((c) => c.pass);
  const others = choices.filter((c) => !c.pass);
  for (const c of passing) {
    const button = el("button", "choice pass", "Pass");
    button.title = c.text;
    button.addEventListener("click", () => pick(c));
    box.appendChild(button);
  }
  for (const c of others.slice(0, SHOWN_CHOICES)) {
    const button = el("button", "choice");
    button.appendChild(richText(c.text));
    if (c.texts.length) button.appendChild(el("span", "hint", " (you write it next)"));
    button.dataset.index = String(c.index);
    button.addEventListener("click", () => pick(c));
    box.appendChild(button);
  }
  if (others.length > SHOWN_CHOICES) {
    box.appendChild(el("p", "more", "… and " + (others.length - SHOWN_CHOICES) +
      " more: type words above, or click cards, to narrow the list"));
  }
  if (!choices.length) box.appendChild(el("p", "more", "No choice has all of that."));
}

function writingForm(c) {
  const form = el("form", "writing");
  form.appendChild(el("div", "", c.text));
  const inputs = [];
  for (const t of c.texts) {
    const label = el("label", "", "Write the " + t.name + ": " + t.about);
    const input = el("input");
    input.type = "text";
    input.name = t.name;
    input.autocomplete = "off";
    input.dataset.at = String(t.at);
    label.appendChild(input);
    form.appendChild(label);
    inputs.push(input);
  }
  const send = el("button", "choice", "Send");
  send.type = "submit";
  const back = el("button", "small", "Back to the choices");
  back.type = "button";
  back.addEventListener("click", () => { writing = null; refuse(""); render(); });
  form.appendChild(send);
  form.appendChild(back);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const texts = {};
    for (const input of inputs) texts[input.dataset.at] = input.value;
    send_move(c, texts);
  });
  setTimeout(() => { if (inputs.length) inputs[0].focus(); }, 0);
  return form;
}

function pick(c) {
  if (c.texts.length) {
    writing = c;
    render();
    return;
  }
  send_move(c, {});
}

async function send_move(c, texts) {
  if (sending) return;
  sending = true;
  refuse("");
  const result = await postJSON(API + "/move", {version: current.version, index: c.index, texts: texts});
  sending = false;
  if (!result.ok) {
    refuse(result.data.error || "refused");
    return;
  }
  writing = null;
  selected = [];
  filter = "";
  render();
}

function refuse(reason) {
  document.getElementById("refusal").textContent = reason ? "Refused: " + reason : "";
}

// Clicking a card picks the choices that name it: one left is made at once.
function clickCard(key) {
  if (selected.includes(key)) {
    selected = selected.filter((k) => k !== key);
    render();
    return;
  }
  selected = selected.concat([key]);
  let choices = narrowed();
  if (!choices.length) {
    selected = [key];
    choices = narrowed();
  }
  if (choices.length === 1) {
    pick(choices[0]);
    if (!choices[0].texts.length) return;
  }
  render();
}

function markPlayable() {
  const keys = new Set();
  for (const c of narrowed()) for (const place of c.cards) keys.add(placeKey(place));
  for (const node of document.querySelectorAll("#board [data-key]")) {
    const key = node.dataset.key;
    if (selected.includes(key)) node.classList.add("selected");
    if (keys.has(key) && writing === null) {
      node.classList.add("playable");
      node.tabIndex = 0;
      node.addEventListener("click", () => clickCard(key));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); clickCard(key); }
      });
    }
  }
}

// ------------------------------------------------------------------ the page
function render() {
  if (!current || !table) return;
  const view = current.view;
  document.title = table.title + " - seat " + current.seat;
  document.getElementById("title").textContent = table.title;
  document.getElementById("round").textContent = "Round " + view.round + " of " + view.rounds +
    " · dealer seat " + view.dealer + " · you are seat " + current.seat + " of " + view.players;
  document.getElementById("summary").textContent = table.summary;
  document.body.classList.toggle("my-move", current.choices.length > 0);
  drawShared(view);
  drawPlayers(view);
  drawScores(view);
  drawNews(current.news);
  drawChoices();
  markPlayable();
}

function receive(payload) {
  if (payload.table) table = payload.table;
  const moved = !current || current.version !== payload.version;
  current = payload;
  if (moved) {  // a new decision: what was picked for the last one no longer holds
    selected = [];
    filter = "";
    if (writing !== null) {
      writing = current.choices.find((c) => c.index === writing.index && c.text === writing.text) || null;
    }
  }
  render();
}

function connect() {
  const status = document.getElementById("connection");
  const source = new EventSource(API + "/events");
  source.onopen = () => { status.textContent = "live"; status.className = "connection live"; };
  source.onmessage = (event) => receive(JSON.parse(event.data));
  source.onerror = () => { status.textContent = "reconnecting…"; status.className = "connection lost"; };
}

document.addEventListener("DOMContentLoaded", connect);

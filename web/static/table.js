// One seat's page: draws the table from the ruleset's declarations and the seat's view
// (its choices are choices.js's). Everything about the game comes
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

// A card as the seat sees it: a face (up, or known but face down), a back, or a gap; with
// what clues told of it beneath, if any ("red, not 3").
function cardElement(entry, key) {
  if (entry === null || entry === undefined) return el("div", "card empty");
  if (entry.card === null) {
    const back = el("div", "card back");
    back.title = "a card you do not know";
    if (key) back.dataset.key = key;
    return withTold(back, entry);
  }
  const node = faceElement(entry.card);
  if (!entry.up) {
    node.classList.add("down");
    node.title = entry.card + " (face down: you know it)";
  }
  if (key) node.dataset.key = key;
  return withTold(node, entry);
}

function withTold(node, entry) {
  if (entry.told) {
    node.appendChild(el("span", "told", entry.told));
    node.title += " - told: " + entry.told;
  }
  if (entry.as) {  // a wild card in a laid run: the card it stands for
    const stands = el("span", "told stands");
    stands.appendChild(richText("= " + entry.as));
    node.appendChild(stands);
    node.title += " - stands for " + entry.as;
  }
  if (entry.by) {  // a trick's card: who played it
    const who = entry.by === current.seat ? "you" : "seat " + entry.by;
    node.appendChild(el("span", "by", who));
    node.title += " - played by " + who;
  }
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
      const item = variable(name, values[p - 1]);
      if (item) vars.appendChild(item);
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
    const item = variable(name, value);
    if (item) vars.appendChild(item);
  }
  panel.appendChild(vars);
  return panel;
}

// A variable as people see it: its label (the ruleset's `label:`, else its name) and its
// value in the page's card style. One the seat may not see (null: secret, or a card it
// does not know) or that the rules keep to themselves (internal) is not shown at all.
function variable(name, value) {
  // (a text nothing was written in says nothing: present/render.written)
  if (value === null || value === undefined || value === "") return null;
  const declared = table.variables.find((v) => v.name === name);
  if (!declared) return null;
  const item = el("span", "var");
  item.appendChild(el("span", "var-label", declared.label + ": "));
  item.appendChild(richText(shown(value)));
  return item;
}

function shown(value) {
  if (value === null || value === undefined) return "?";
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === "") return "-";
  if (Array.isArray(value)) return value.map(shown).join(" ") || "-";
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
  const rule = document.getElementById("winner-rule");
  rule.replaceChildren(el("div", "", table.winner_rule));
  if (current.results) {  // the game's end: the standings every front end shows
    const standings = el("pre", "standings");
    standings.textContent = current.results.standings.join("\n");
    rule.appendChild(standings);
  }
  const vars = document.getElementById("variables");
  vars.replaceChildren();
  for (const [name, value] of Object.entries(view.variables)) {
    const item = variable(name, value);
    if (item) vars.appendChild(item);
  }
}

// The whole log: everything this seat has been told (what the news shows the end of), until
// the game moves on. Once the game is over it is asked for once and kept (`keptLog`), so the
// page shows it still when the server has let the finished game go.
let keptLog = null;
let keeping = false;  // the kept log is being asked for
async function showLog() {
  if (keptLog) { drawNews(keptLog); return; }
  const result = await postJSON(API + "/log", {});
  if (result.ok) drawNews(result.data.news);
  else refuse(result.data.error || "the log cannot be read");
}

async function keepLog() {
  if (keeping || keptLog) return;
  keeping = true;
  const result = await postJSON(API + "/log", {});
  if (result.ok) keptLog = result.data.news;
  keeping = false;
}

// What happened, the latest first: each action as this seat read it, with what came of it.
function drawNews(news) {
  const list = document.getElementById("news");
  list.replaceChildren();
  for (const entry of news.slice().reverse()) {
    const item = el("li", "news-" + entry.kind);
    item.appendChild(richText(entry.text));
    if (entry.then.length) {
      const then = el("ul", "then");
      for (const line of entry.then) {
        const sub = el("li");
        sub.appendChild(richText(line));
        then.appendChild(sub);
      }
      item.appendChild(then);
    }
    list.appendChild(item);
  }
}

// The rules in the words every front end shows: the summary and the options in force.
function drawRules() {
  const box = document.getElementById("rules");
  box.replaceChildren();
  for (const part of table.rules) {
    if (part.kind === "title") continue;  // (the page's title says it)
    box.appendChild(el(part.kind === "summary" ? "p" : "div", "rules-" + part.kind,
      part.kind === "options" ? "Options:" : part.text));
  }
}

// A round's account: what each seat scored and why, shown as the round ends (before the
// next deal is played); it stays until the person closes it.
let accountSeen = 0;
function drawAccount() {
  const box = document.getElementById("account");
  const account = current.account;
  if (!account || account.round <= accountSeen) { box.hidden = true; return; }
  box.replaceChildren();
  box.appendChild(el("h2", "", account.title)).id = "account-title";
  const grid = el("table", "scores");
  const head = el("tr");
  for (const cell of account.header) head.appendChild(el("th", "", cell));
  grid.appendChild(head);
  for (const row of account.rows) {
    const line = el("tr");
    row.forEach((cell, i) => {
      const td = el(i ? "td" : "th");
      td.appendChild(richText(cell));
      line.appendChild(td);
    });
    grid.appendChild(line);
  }
  box.appendChild(grid);
  for (const note of account.notes) {
    const p = el("p", "note");
    p.appendChild(richText(note));
    box.appendChild(p);
  }
  const close = el("button", "choice", current.view.over ? "Close" : "Play on");
  close.id = "account-close";
  close.addEventListener("click", () => { accountSeen = account.round; box.hidden = true; });
  box.appendChild(close);
  box.hidden = false;
}

// ------------------------------------------------------------------ the page
function render() {
  if (!current || !table) return;
  const view = current.view;
  document.title = table.title + " - seat " + current.seat;
  document.getElementById("title").textContent = table.title;
  document.getElementById("round").textContent = "Round " + view.round + " of " + view.rounds +
    " · dealer seat " + view.dealer + " · you are seat " + current.seat + " of " + view.players +
    (view.direction ? " · play goes " + view.direction : "");
  document.body.classList.toggle("my-move", current.choices.length > 0);
  drawShared(view);
  drawPlayers(view);
  drawScores(view);
  drawNews(current.news);
  drawRules();
  drawReact();
  drawChoices();
  drawTools();
  drawAccount();
  markPlayable();
}

function receive(payload) {
  if (payload.table) table = payload.table;
  const moved = !current || current.version !== payload.version;
  current = payload;
  if (current.view.over) keepLog();
  if (moved) {  // a new decision: what was picked for the last one no longer holds
    selected = [];
    filter = "";
    keyed = null;
    typed = "";
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
  // The server refuses a stream where the seat has too many pages open: say so, and stop.
  source.addEventListener("refused", (event) => {
    source.close();
    status.textContent = JSON.parse(event.data).error;
    status.className = "connection lost";
  });
}

document.addEventListener("DOMContentLoaded", connect);
document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("log-button").addEventListener("click", showLog);
});
document.addEventListener("keydown", onKey);

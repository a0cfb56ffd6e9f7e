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
  if (value === null || value === undefined) return null;
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

// ------------------------------------------------------------------ choices
function narrowed() {
  let choices = current.choices;
  for (const key of selected) {
    choices = choices.filter((c) => c.cards.some((place) => placeKey(place) === key));
  }
  if (filter) {
    const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    choices = choices.filter((c) => {
      // each word typed begins a word of the choice, in the order typed
      const have = c.text.toLowerCase().match(/[0-9a-z]+/g) || [];
      let at = 0;
      return words.every((w) => {
        while (at < have.length && !have[at].startsWith(w)) at++;
        return at++ < have.length;
      });
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
    if (current.reaction) {
      const left = current.react && current.react.left !== null ?
        " (it goes by in " + Math.ceil(current.react.left) + " s)" : "";
      return "Your chance to react: choose, or let it go by" + left + ".";
    }
    return "Your move (" + view.phase + ": " + view.step + ").";
  }
  return seatName(view.to_move) + " to move (" + view.phase + ": " + view.step + ").";
}

// The choices shown now, numbered as the keyboard picks them: 1, 2... and 0 to pass.
let shownChoices = [];
let keyed = null;     // the choice the number keys picked, sent with Enter
let typed = "";       // digits typed so far
let typedAt = 0;

function drawChoices() {
  const view = current.view;
  document.getElementById("status").textContent = statusText(view);
  const box = document.getElementById("choices");
  box.replaceChildren();
  const selection = document.getElementById("selection");
  selection.replaceChildren();
  shownChoices = [];
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
    input.setAttribute("aria-label", "narrow the choices");
    input.value = filter;
    input.addEventListener("input", () => {
      filter = input.value;
      drawChoices();
      const again = document.querySelector("input.narrow");
      if (again) { again.focus(); again.setSelectionRange(again.value.length, again.value.length); }
    });
    input.addEventListener("keydown", (event) => {
      const others = narrowed().filter((c) => !c.pass);
      if (event.key === "Enter" && others.length === 1) { event.preventDefault(); pick(others[0]); }
    });
    box.appendChild(input);
  }
  const choices = narrowed();
  const passing = choices.filter((c) => c.pass);
  const others = choices.filter((c) => !c.pass);
  for (const c of passing) {
    const button = el("button", "choice pass", "0. Let it go by");
    button.title = c.text;
    button.dataset.number = "0";
    button.addEventListener("click", () => pick(c));
    box.appendChild(button);
    shownChoices[0] = c;
  }
  others.slice(0, SHOWN_CHOICES).forEach((c, i) => {
    const button = el("button", "choice");
    button.appendChild(el("span", "number", (i + 1) + ". "));
    button.appendChild(richText(c.text));
    if (c.texts.length) button.appendChild(el("span", "hint", " (you write it next)"));
    button.dataset.index = String(c.index);
    button.dataset.number = String(i + 1);
    button.addEventListener("click", () => pick(c));
    box.appendChild(button);
    shownChoices[i + 1] = c;
  });
  if (others.length > SHOWN_CHOICES) {
    box.appendChild(el("p", "more", "… and " + (others.length - SHOWN_CHOICES) +
      " more: type words above, or click cards, to narrow the list"));
  }
  if (!choices.length) box.appendChild(el("p", "more", "No choice has all of that."));
  markKeyed();
}

// Number keys pick a choice (several digits in a row for 10 and up), Enter makes it,
// Escape lets it go; keys typed into a text box are the box's.
function onKey(event) {
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" ||
                 target.tagName === "TEXTAREA")) return;
  if (event.ctrlKey || event.metaKey || event.altKey || !current) return;
  if (/^[0-9]$/.test(event.key)) {
    const now = Date.now();
    typed = (now - typedAt < 1200 ? typed : "") + event.key;
    typedAt = now;
    let choice = shownChoices[Number(typed)];
    if (!choice) { typed = event.key; choice = shownChoices[Number(typed)]; }
    keyed = choice || null;
    markKeyed();
    event.preventDefault();
  } else if (event.key === "Enter" && keyed) {
    event.preventDefault();
    const choice = keyed;
    keyed = null;
    pick(choice);
  } else if (event.key === "Escape") {
    keyed = null;
    typed = "";
    markKeyed();
  }
}

function markKeyed() {
  for (const node of document.querySelectorAll("#choices button.choice")) {
    const on = keyed !== null && node.dataset.number !== undefined &&
      shownChoices[Number(node.dataset.number)] === keyed;
    node.classList.toggle("keyed", on);
    if (on) node.scrollIntoView({block: "nearest"});
  }
}

// The reaction control: always there in a game with reactions, for the person to react
// whenever they want; the game goes on meanwhile, and waits at their next chance.
function drawReact() {
  const box = document.getElementById("react");
  const react = current.react;
  box.replaceChildren();
  box.hidden = !react || !react.offered || current.view.over;
  if (box.hidden) return;
  if (react.open) {
    box.appendChild(el("span", "react-state", react.label + ": choose below, or let it go by."));
  } else if (react.wanted) {
    box.appendChild(el("span", "react-state", "Your next chance to react will wait for you. "));
    const cancel = el("button", "small", "Never mind");
    cancel.addEventListener("click", () => ask("react", {want: false}));
    box.appendChild(cancel);
  } else {
    const button = el("button", "react-button", react.label + "…");
    button.id = "react-now";
    button.title = "The game goes on; your next chance to react will wait for you";
    button.addEventListener("click", () => ask("react", {want: true}));
    box.appendChild(button);
  }
  const label = el("label", "react-stop");
  const stop = el("input");
  stop.type = "checkbox";
  stop.id = "react-stop";
  stop.checked = react.stop;
  stop.addEventListener("change", () => ask("react", {stop: stop.checked}));
  label.appendChild(stop);
  label.appendChild(document.createTextNode(" stop at every chance to react"));
  box.appendChild(label);
}

// A hint (a bot's pick, with what it makes of each choice) and taking a decision back.
let hinted = null;
function drawTools() {
  const box = document.getElementById("tools");
  box.replaceChildren();
  const mine = current.choices.length > 0 && writing === null;
  if (mine && table.hints.length) {
    const select = el("select");
    select.id = "hint-bot";
    select.setAttribute("aria-label", "the bot to ask");
    for (const kind of table.hints) select.appendChild(el("option", "", kind));
    if (hinted) select.value = hinted.bot;
    const button = el("button", "small", "Hint");
    button.id = "hint-button";
    button.addEventListener("click", () => askHint(select.value));
    box.appendChild(button);
    box.appendChild(select);
  }
  if (current.takeback) {
    const back = el("button", "small", "Take back my last decision");
    back.id = "take-back";
    back.addEventListener("click", () => ask("takeback", {}));
    box.appendChild(back);
  }
  const shown = document.getElementById("hint");
  shown.hidden = !(hinted && hinted.version === current.version && mine);
  if (shown.hidden) return;
  shown.replaceChildren();
  const head = el("div", "hint-head", "Hint from " + hinted.bot + ": ");
  head.appendChild(richText(hinted.pick.text));
  shown.appendChild(head);
  const list = el("ol", "estimates");
  for (const e of hinted.estimates) {
    const item = el("li");
    item.appendChild(richText(e.text));
    item.appendChild(el("span", "words", " — " + e.words));
    list.appendChild(item);
  }
  shown.appendChild(list);
  if (hinted.more) shown.appendChild(el("p", "more", "… and " + hinted.more + " more"));
}

async function askHint(bot) {
  refuse("");
  document.getElementById("hint-button").disabled = true;
  const result = await postJSON(API + "/hint", {bot: bot});
  if (!result.ok) { refuse(result.data.error || "refused"); render(); return; }
  hinted = result.data;
  render();
}

async function ask(what, body) {
  refuse("");
  const result = await postJSON(API + "/" + what, body);
  if (!result.ok) refuse(result.data.error || "refused");
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
}

document.addEventListener("DOMContentLoaded", connect);
document.addEventListener("keydown", onKey);

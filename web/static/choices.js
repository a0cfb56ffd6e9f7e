// One seat's page, its choices: lists what the seat may do now (numbered for the keyboard,
// narrowed by the cards clicked or the words typed), the reaction control, hints and taking a
// decision back, and sends the one picked. Loaded before table.js, which draws the table
// and holds the page's state (`table`, `current`, `selected`, `filter`, `writing`).
"use strict";

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
    const forfeited = (current.results && current.results.forfeited) || [];
    const over = "Game over" + forfeited.map((s) => ", seat " + s + " forfeited").join("") + ". ";
    // who won, in the standings' own last line (a team as a team, the house by its name)
    const standings = (current.results && current.results.standings) || [];
    if (standings.length) return over + standings[standings.length - 1];
    const names = view.winners.map((w) => "seat " + w);
    if (view.house && view.house.winner) names.unshift(view.house.name);
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

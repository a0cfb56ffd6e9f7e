// Small helpers shared by the lobby and the table pages. Every text that comes from a
// rule file (titles, labels, names) goes into the page as text, never as markup.
"use strict";

// An element with an optional class and text.
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// Send JSON, get JSON back: {ok, status, data}.
async function postJSON(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    return {ok: response.ok, status: response.status, data: data};
  } catch (e) {
    return {ok: false, status: 0, data: {error: "the server cannot be reached"}};
  }
}

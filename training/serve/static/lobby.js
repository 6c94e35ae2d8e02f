// The lobby: choose a game, a CPU level and a seat, then start a table (POST /api/tables) and go to it.
"use strict";
(function () {
  const game = document.getElementById("game");
  const level = document.getElementById("level");
  const seat = document.getElementById("seat");
  const notice = document.getElementById("notice");
  let games = [];

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function fill() {
    const g = games.find((x) => x.name === game.value);
    level.replaceChildren();
    seat.replaceChildren();
    if (!g) return;
    for (const lv of g.levels) option(level, lv, lv);
    level.value = g.default_level;
    for (let p = 0; p < g.players; p++) option(seat, String(p), "seat " + p + (p === 0 ? " (first)" : ""));
  }

  fetch("/api/games").then((r) => r.json()).then((data) => {
    games = data.games;
    for (const g of games) option(game, g.name, g.name + " (" + g.players + " players)");
    const wanted = new URLSearchParams(location.search).get("game");
    if (wanted && games.some((g) => g.name === wanted)) game.value = wanted;
    fill();
  }).catch((e) => { notice.textContent = "could not list the games: " + e; });

  game.addEventListener("change", fill);

  document.getElementById("new-table").addEventListener("submit", (ev) => {
    ev.preventDefault();
    notice.textContent = "dealing…";
    fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: game.value, level: level.value, seat: Number(seat.value) }),
    }).then((r) => r.json()).then((data) => {
      if (data.error) { notice.textContent = data.error; return; }
      location.href = data.url;
    }).catch((e) => { notice.textContent = "could not start a table: " + e; });
  });
})();

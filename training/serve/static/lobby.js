// The lobby: choose a game, a CPU level and a seat, then start a table (POST /api/tables) and go to it.
// For ninja daifugō's faithful table it also chooses seat 0's loadout: the school (流派) and at most two
// ninjutsu with their levels (and 極意 with a jutsu at level 5), sent as "loadout", each ninjutsu up to
// the level the career has reached; the 道場 shows the career and raises a ninjutsu for 修行ポイント, and
// sells the cosmetics (table colours, card backs) for held points and wears an owned one (looks.js).
"use strict";
(function () {
  const game = document.getElementById("game");
  const level = document.getElementById("level");
  const seat = document.getElementById("seat");
  const notice = document.getElementById("notice");
  const ninja = document.getElementById("ninja");
  const school = document.getElementById("school");
  const jutsuBox = document.getElementById("jutsu-choice");
  const gokui = document.getElementById("gokui");
  let games = [];

  function option(select, value, text) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }

  function current() { return games.find((x) => x.name === game.value); }

  function fillNinja(d) {
    school.replaceChildren();
    for (const s of d.schools) option(school, s.name === null ? "" : s.name, s.ja + (s.name ? " (" + s.name + ")" : ""));
    school.value = d.default.school || "";
    document.getElementById("cpus").textContent = "対戦相手 opponents: " + d.cpus.join(", ");
    jutsuBox.replaceChildren();
    for (const j of d.jutsu) {
      const row = document.createElement("div");
      row.className = "jutsu-row";
      const box = document.createElement("input");
      box.type = "checkbox";
      box.id = "jutsu-" + j.name;
      box.dataset.jutsu = j.name;
      const most = d.max_levels ? d.max_levels[j.name] : d.levels[d.levels.length - 1];
      box.checked = j.name in d.default.jutsu && most >= 1;
      box.dataset.locked = most < 1 ? "1" : "";
      const lab = document.createElement("label");
      lab.className = "inline";
      lab.htmlFor = box.id;
      lab.textContent = j.ja + " " + j.name + " (cost " + j.cost + ")";
      const lv = document.createElement("select");
      lv.id = "jlevel-" + j.name;
      for (const n of d.levels) {
        if (n <= Math.max(most, 1)) option(lv, String(n), "Lv" + n + " (uses " + d.uses_by_level[n] + ")");
      }
      lv.value = String(Math.min(Math.max(most, 1), d.default.jutsu[j.name] || most || 1));
      if (most < 1) lab.textContent += " — 道場で解放 (unlock in the dojo)";
      row.append(box, lab, lv);
      jutsuBox.appendChild(row);
      box.addEventListener("change", () => limitJutsu(d));
      lv.addEventListener("change", () => limitJutsu(d));
    }
    limitJutsu(d);
  }

  // At most two ninjutsu: once two are checked the others cannot be; 極意 only with a level-5 jutsu.
  function limitJutsu(d) {
    const boxes = [...jutsuBox.querySelectorAll("input[type=checkbox]")];
    const checked = boxes.filter((b) => b.checked);
    for (const b of boxes) b.disabled = b.dataset.locked === "1" || (!b.checked && checked.length >= d.max_jutsu);
    const five = checked.some((b) => document.getElementById("jlevel-" + b.dataset.jutsu).value === "5");
    gokui.disabled = !five;
    if (!five) gokui.checked = false;
  }

  function loadout() {
    const jutsu = {};
    for (const b of jutsuBox.querySelectorAll("input[type=checkbox]:checked")) {
      jutsu[b.dataset.jutsu] = Number(document.getElementById("jlevel-" + b.dataset.jutsu).value);
    }
    return { school: school.value || null, jutsu: jutsu, gokui: gokui.checked };
  }

  function fill() {
    const g = current();
    level.replaceChildren();
    seat.replaceChildren();
    ninja.hidden = true;
    seat.disabled = false;
    if (!g) return;
    for (const lv of g.levels) option(level, lv, lv);
    level.value = g.default_level;
    for (let p = 0; p < g.players; p++) option(seat, String(p), "seat " + p + (p === 0 ? " (first)" : ""));
    if (g.daifugo && g.daifugo.loadout) {
      ninja.hidden = false;
      seat.value = "0";
      seat.disabled = true;  // the faithful table's loadout is seat 0's
      fillNinja(g.daifugo);
    }
  }

  function loadGames(keep) {
    return fetch("/api/games").then((r) => r.json()).then((data) => {
      const chosen = game.value;
      games = data.games;
      game.replaceChildren();
      for (const g of games) option(game, g.name, g.name + " (" + g.players + " players)");
      const wanted = keep ? chosen : new URLSearchParams(location.search).get("game");
      if (wanted && games.some((g) => g.name === wanted)) game.value = wanted;
      fill();
      if (games.some((g) => g.daifugo)) loadCareer();
    }).catch((e) => { notice.textContent = "could not list the games: " + e; });
  }

  // ---- the 道場 ----
  const dojo = document.getElementById("dojo");
  function showCareer(c) {
    dojo.hidden = false;
    const line = document.getElementById("career-line");
    const err = document.getElementById("career-error");
    const box = document.getElementById("dojo-jutsu");
    box.replaceChildren();
    err.textContent = c.error || "";
    document.getElementById("shop").replaceChildren();
    if (!c.enabled) {
      line.textContent = c.error ? "" : "this server keeps no career";
      document.getElementById("career-reset").hidden = !c.error;
      return;
    }
    document.getElementById("career-reset").hidden = false;
    line.textContent = "忍者ランク " + c.rank + " · 累計 " + c.earned + " 修行ポイント (earned) · 所持 " + c.held +
      " (held)" + (c.next_rank ? " · 次の " + c.next_rank + " まで " + (c.next_rank_at - c.earned) : "") +
      " · " + c.games + " games";
    line.dataset.held = String(c.held);
    line.dataset.earned = String(c.earned);
    for (const [name, lv] of Object.entries(c.levels)) {
      const row = document.createElement("div");
      row.className = "dojo-row";
      row.dataset.jutsu = name;
      const cost = c.next_cost[name];
      const text = document.createElement("span");
      text.textContent = (c.ja[name] || "") + " " + name + (lv ? " Lv" + lv : " (locked)");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "dojo-up";
      b.dataset.jutsu = name;
      b.textContent = cost === null ? "MAX" : (lv ? "Lv" + (lv + 1) + " へ" : "解放 unlock") + " (" + cost + ")";
      b.disabled = cost === null || c.held < cost;
      b.addEventListener("click", () => post("/api/career/level_up", { jutsu: name }));
      row.append(text, b);
      box.appendChild(row);
    }
    document.getElementById("career-note").textContent = "修行ポイント per game by place: " +
      c.points_by_place.join(" / ") + " (1st … 4th), at the faithful table's seat 0";
    drawShop(c);
    window.yuugiLooks.apply(c);
  }

  // The cosmetics: buy with held points (the rank stays), wear any owned one.
  function swatch(kind, colours) {
    const s = document.createElement("span");
    s.className = "swatch";
    if (kind === "card_back") {
      s.style.background = "repeating-linear-gradient(45deg, " + colours.back + ", " + colours.back + " 4px, " +
        colours.back2 + " 4px, " + colours.back2 + " 8px)";
    } else {
      s.style.background = colours.felt;
      s.style.borderColor = colours.edge;
    }
    return s;
  }
  function drawShop(c) {
    const shop = document.getElementById("shop");
    const looks = c.cosmetics;
    for (const [kind, items] of Object.entries(looks.catalogue)) {
      const h = document.createElement("h3");
      h.textContent = looks.kinds_ja[kind] || kind;
      shop.appendChild(h);
      for (const x of items) {
        const row = document.createElement("div");
        row.className = "shop-row";
        row.dataset.kind = kind;
        row.dataset.item = x.item;
        const text = document.createElement("span");
        text.append(swatch(kind, x.colours), x.ja + " (" + x.item + ")" + (x.price ? " · " + x.price + " pt" : " · free"));
        const b = document.createElement("button");
        b.type = "button";
        const worn = looks.chosen[kind] === x.item;
        if (!x.owned) {
          b.className = "shop-buy";
          b.textContent = "買う buy (" + x.price + ")";
          b.disabled = c.held < x.price;
          b.addEventListener("click", () => post("/api/career/buy", { kind: kind, item: x.item }));
        } else {
          b.className = "shop-choose";
          b.textContent = worn ? "使用中 in use" : "使う use";
          b.disabled = worn;
          b.addEventListener("click", () => post("/api/career/choose", { kind: kind, item: x.item }));
        }
        row.append(text, b);
        shop.appendChild(row);
      }
    }
  }
  // One career request at a time, each sent after the previous answer is drawn. Sent side by side, a
  // GET that went out while a purchase was in flight could be answered with the state before it and
  // drawn after it, putting the bought item back on sale.
  let careerQueue = Promise.resolve();
  function careerCall(url, init, then) {
    careerQueue = careerQueue.then(() => fetch(url, init).then((r) => r.json()).then(then)).catch((e) => {
      document.getElementById("career-error").textContent = "the career did not answer: " + e;
    });
  }
  function loadCareer() {
    careerCall("/api/career", undefined, showCareer);
  }
  function post(url, body) {
    const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    careerCall(url, init, (c) => {
      if (c.error && c.enabled === undefined) { document.getElementById("career-error").textContent = c.error; return; }
      showCareer(c);
      loadGames(true);
    });
  }
  document.getElementById("career-reset").addEventListener("click", () => {
    if (confirm("修行をやり直しますか? Reset the career (points, ranks, ninjutsu levels)?")) {
      post("/api/career/reset", { confirm: true });
    }
  });

  loadGames(false);

  game.addEventListener("change", fill);

  document.getElementById("new-table").addEventListener("submit", (ev) => {
    ev.preventDefault();
    notice.textContent = "dealing…";
    const body = { game: game.value, level: level.value, seat: Number(seat.value) };
    const g = current();
    if (g && g.daifugo && g.daifugo.loadout) body.loadout = loadout();
    fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json()).then((data) => {
      if (data.error) { notice.textContent = data.error; return; }
      location.href = data.url;
    }).catch((e) => { notice.textContent = "could not start a table: " + e; });
  });
})();

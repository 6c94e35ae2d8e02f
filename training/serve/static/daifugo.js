// The ninja daifugō screen. It draws only msg.view, the seat's view built by the server
// (yuugi.training.serve.daifugo.seat_view), and plays the effects of msg.events (points, revolution,
// lock, 都落ち, the end of a game, a new declaration) that this tab has not shown yet.
// Moves: {"type": "move", "action": A, "turn": T}; the exchange's picks go together as
// {"type": "move", "actions": [A, B], "turn": T}. Only cards that make a legal move can be chosen.
"use strict";
(function () {
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const el = (id) => document.getElementById(id);
  const eventKey = "yuugi-daifugo-events-" + tableId;
  let socket = null;
  let current = null;
  let closedByServer = false;
  let selected = [];  // card ids, in the order chosen
  let shownTurn = -1;
  let lastEvent = Number(sessionStorage.getItem(eventKey) || "-1");  // -1: this tab has shown none yet
  const fell = {};  // "game:seat" -> true where 都落ち struck

  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function cardEl(c, extra) {
    const d = make("div", "card" + (c.red ? " red" : "") + (c.joker ? " joker" : "") + (extra ? " " + extra : ""));
    d.dataset.card = c.id;
    if (c.joker) {
      d.append(make("span", "rank", "JK"), make("span", "suit", "★"));
    } else {
      d.append(make("span", "rank", c.rank), make("span", "suit", c.suit));
    }
    d.title = c.joker ? "joker" : c.suit + c.rank;
    return d;
  }

  function backs(n) {
    const box = make("div", "backs");
    for (let k = 0; k < Math.min(n, 16); k++) box.appendChild(make("div", "back"));
    return box;
  }

  function sameSet(a, b) {
    return a.length === b.length && a.every((x) => b.includes(x));
  }

  // ---- what the seat may do now ------------------------------------------------------------------
  function mode(v) {
    if (!v.mine) return "wait";
    if (v.phase === "exchange") return "exchange";
    if (v.phase === "shuriken") return "shuriken";
    return "play";
  }

  function selectable(v) {
    const m = mode(v);
    if (m === "exchange" || m === "shuriken") return new Set(v.picks.map(([, id]) => id));
    if (m === "play") return new Set(v.plays.flatMap((p) => p.cards));
    return new Set();
  }

  function needed(v) {
    const m = mode(v);
    if (m === "exchange") return v.exchange ? v.exchange.picks_left : 0;
    if (m === "shuriken") return 1;
    return 0;
  }

  function toggle(id) {
    const v = current.view;
    if (!selectable(v).has(id)) return;
    const at = selected.indexOf(id);
    if (at >= 0) {
      selected.splice(at, 1);
    } else {
      const need = needed(v);
      if (need && selected.length >= need) {
        if (need === 1) selected = [];
        else { el("notice").textContent = need + " 枚まで: unselect a card first"; return; }
      }
      selected.push(id);
    }
    el("notice").textContent = "";
    drawHand(v);
    drawActions(v);
  }

  // ---- drawing -----------------------------------------------------------------------------------
  function drawHand(v) {
    const hand = el("hand");
    hand.replaceChildren();
    const ok = selectable(v);
    const n = v.hand.length;
    v.hand.forEach((c, k) => {
      const d = cardEl(c, (ok.has(c.id) ? "playable" : "dim") + (selected.includes(c.id) ? " selected" : ""));
      const tilt = n > 1 ? (k - (n - 1) / 2) * Math.min(3, 36 / n) : 0;  // the fan
      d.style.setProperty("--tilt", tilt + "deg");
      d.style.setProperty("--lift", Math.abs(tilt) * 0.8 + "px");
      d.style.zIndex = String(k + 1);
      d.addEventListener("click", () => toggle(c.id));
      hand.appendChild(d);
    });
    hand.dataset.order = v.sort_order + (v.joker_weak ? " joker-weak" : "");
  }

  function button(cls, text, onClick, enabled) {
    const b = make("button", cls, text);
    b.disabled = !enabled;
    b.addEventListener("click", onClick);
    return b;
  }

  function drawActions(v) {
    const m = mode(v);
    const choices = el("choices");
    choices.replaceChildren();
    const play = el("play");
    const pass = el("pass");
    el("clear").disabled = selected.length === 0;
    pass.disabled = !(m === "play" && v.pass !== null);
    play.disabled = true;
    play.textContent = "出す play";
    play.onclick = null;
    const ex = el("exchange");
    ex.hidden = !(m === "exchange" || m === "shuriken");
    if (m === "exchange" || m === "shuriken") {
      const need = needed(v);
      el("exchange-text").textContent = m === "exchange"
        ? "交換: " + v.exchange.to + " に渡す札を " + need + " 枚選んでください (choose " + need +
          " card(s) to give) — " + selected.length + "/" + need
        : "手裏剣: " + v.shuriken_to + " に投げる札を 1 枚 (choose the card to throw)";
      const confirm = el("confirm-exchange");
      confirm.textContent = m === "exchange" ? "渡す give" : "投げる throw";
      confirm.disabled = selected.length !== need;
      confirm.onclick = () => {
        const byId = Object.fromEntries(v.picks.map(([a, id]) => [id, a]));
        const actions = selected.map((id) => byId[id]);
        if (actions.length !== need || actions.some((a) => a === undefined)) return;
        send(actions.length === 1 ? { action: actions[0] } : { actions: actions });
      };
      return;
    }
    if (m !== "play") return;
    const exact = v.plays.filter((p) => sameSet(p.cards, selected));
    if (exact.length === 1) {
      play.disabled = false;
      play.textContent = "出す: " + exact[0].label;
      play.onclick = () => send({ action: exact[0].action });
    } else if (exact.length > 1) {  // a joker that can stand for several cards: say which
      for (const p of exact) choices.appendChild(button("choice-play", "出す: " + p.label, () => send({ action: p.action }), true));
    } else if (selected.length) {
      const wider = v.plays.filter((p) => selected.every((id) => p.cards.includes(id))).slice(0, 12);
      for (const p of wider) {
        choices.appendChild(button("choice", p.label, () => {
          selected = p.cards.slice();
          drawHand(v);
          drawActions(v);
        }, true));
      }
    }
  }

  function jutsuRow(j, actions) {
    const box = make("div", "jutsu-card");
    box.dataset.jutsu = j.jutsu;
    box.append(make("span", "jname", j.ja), make("span", "jlevel", "Lv" + j.level),
      make("span", "jcost", "コスト " + j.cost), make("span", "juses", "残り " + j.uses_left + " 回"));
    if (actions && actions.length) {
      for (const [a, label] of actions) box.appendChild(button("jutsu-act", label, () => send({ action: a }), true));
    } else {
      box.appendChild(button("jutsu-act", j.ja, () => {}, false));
    }
    return box;
  }

  function seatNote(s, v) {
    const parts = [];
    if (s.title) parts.push(s.title);
    if (s.place) parts.push(s.place + "位");
    if (fell[v.game + ":" + s.seat]) parts.push("都落ち");
    if (s.skips) parts.push("足止め " + s.skips);
    if (s.miyako_candidate && !s.out) parts.push("(都落ち候補)");
    if (s.school) parts.push(s.school);
    return parts.join(" · ");
  }

  function drawOpponents(v) {
    const box = el("opponents");
    box.replaceChildren();
    const n = v.seats.length;
    for (let k = 1; k < n; k++) {  // the others in the order of play
      const p = (v.seat + k) % n;
      const s = v.seats[p];
      const panel = make("div", "seat-panel opponent" + (v.to_play === p ? " to-play" : "") + (s.out ? " out" : ""));
      panel.dataset.seat = String(p);
      const head = make("div", "me-line");
      head.append(make("span", "name", s.name), make("span", "points", "忍 " + s.points),
        make("span", "count", s.count + " 枚"));
      panel.appendChild(head);
      panel.appendChild(make("div", "note", seatNote(s, v)));
      panel.appendChild(backs(s.count - s.known.length));
      if (s.known.length) {
        const known = make("div", "known");
        known.appendChild(make("span", "note", "known: "));
        for (const c of s.known) known.appendChild(cardEl(c, "mini"));
        panel.appendChild(known);
      }
      const js = make("div", "note jutsu-line",
        s.jutsu.map((j) => j.ja + "Lv" + j.level + "×" + j.uses_left).join("  "));
      panel.appendChild(js);
      box.appendChild(panel);
    }
  }

  function drawField(v) {
    const field = el("field");
    field.replaceChildren();
    const board = el("board");
    board.classList.toggle("locked", v.lock.length > 0);
    board.classList.toggle("revolution", v.revolution);
    let note = "";
    if (v.field) {
      for (const c of v.field.cards) field.appendChild(cardEl(c, "on-field"));
      note = "by " + v.names[v.field.owner] + (v.field.boosted_low ? " · 変化: counts as " + v.field.boosted_low : "");
    } else if (v.phase === "exchange" && !v.over) {
      note = "交換 exchange: " + v.names[v.to_play] + " chooses";
    } else {
      field.appendChild(make("span", "empty", "場は空 (empty)"));
    }
    if (v.henge_shift) note += " · 変化 +" + v.henge_shift;
    note += "  ·  捨て札 " + v.discard + (v.removed ? "  ·  都落ち " + v.removed + " 枚 face down" : "");
    el("field-note").textContent = note;
  }

  function drawMe(v) {
    const s = v.seats[v.seat];
    const me = el("me");
    me.dataset.seat = String(v.seat);
    me.classList.toggle("to-play", v.mine);
    el("me-name").textContent = s.name + " (" + s.count + " 枚)";
    el("me-points").textContent = "忍法ポイント " + s.points;
    el("me-note").textContent = seatNote(s, v);
    const jutsu = el("jutsu");
    jutsu.replaceChildren();
    const rows = v.mine && mode(v) === "play" ? v.jutsu : s.jutsu.map((j) => Object.assign({ actions: [] }, j));
    for (const j of rows) jutsu.appendChild(jutsuRow(j, j.actions));
  }

  function drawSeries(v) {
    const t = el("series-score");
    t.replaceChildren();
    for (const s of v.seats) {
      const tr = make("tr", s.seat === v.seat ? "mine" : "");
      tr.dataset.seat = String(s.seat);
      tr.append(make("td", "", s.name), make("td", "", s.title), make("td", "num", (s.series_score > 0 ? "+" : "") + s.series_score.toFixed(2)));
      t.appendChild(tr);
    }
  }

  function drawLog(msg) {
    const log = el("log");
    log.replaceChildren();
    for (const line of msg.log) log.appendChild(make("li", "", line));
    log.scrollTop = log.scrollHeight;
  }

  function drawScores(msg) {
    const scores = el("scores");
    if (!(msg.over && msg.scores)) { scores.hidden = true; return; }
    scores.hidden = false;
    scores.replaceChildren(make("h2", "", "final scores"));
    const ul = make("ul");
    msg.scores.forEach((s, p) => {
      const li = make("li", "score" + (p === msg.seat ? " mine" : ""),
        msg.view.names[p] + ": " + (s > 0 ? "+" : "") + s);
      li.dataset.seat = String(p);
      ul.appendChild(li);
    });
    scores.appendChild(ul);
    for (const line of msg.final) scores.appendChild(make("p", "", line));
    const again = make("a", "", "another table");
    again.href = "/?game=" + encodeURIComponent(msg.game);
    scores.appendChild(again);
  }

  function show(msg) {
    current = msg;
    const v = msg.view;
    if (msg.turn !== shownTurn) { selected = []; shownTurn = msg.turn; }
    document.body.dataset.turn = String(msg.turn);  // what a test waits on
    el("title").textContent = "忍者大富豪 ninja daifugō — " + v.names[v.seat] + " (seat " + v.seat + ")";
    el("game-no").textContent = "第 " + v.game + " 局 / " + v.series_games;
    document.title = "yuugi — 忍者大富豪";
    const d = v.declaration;
    el("declaration").textContent = "お館様の宣言 D" + d.number + ": " + d.ja + " — " + d.en;
    el("revolution-marker").hidden = !v.revolution;
    el("eleven-marker").hidden = !v.eleven_back;
    const lock = el("lock-banner");
    lock.hidden = v.lock.length === 0;
    lock.textContent = v.lock.length ? "🔒 " + v.lock.join("") + " 縛り中" : "";
    el("notice").textContent = "";
    drawOpponents(v);
    drawField(v);
    drawMe(v);
    drawHand(v);
    drawActions(v);
    drawSeries(v);
    drawLog(msg);
    drawScores(msg);
    const m = mode(v);
    if (msg.over) el("status").textContent = "the game is over";
    else if (m === "exchange") el("status").textContent = "交換: 渡す札を選んでください (your exchange)";
    else if (m === "shuriken") el("status").textContent = "手裏剣: 投げる札を選んでください";
    else if (m === "play") el("status").textContent = "あなたの番 (your move)";
    else el("status").textContent = "waiting for " + v.names[v.to_play] + "…";
    playEvents(msg);
  }

  // ---- effects -----------------------------------------------------------------------------------
  function flash(id, text, ms) {
    const o = el(id);
    o.textContent = text;
    o.hidden = false;
    o.classList.remove("show");
    void o.offsetWidth;  // restart the animation
    o.classList.add("show");
    clearTimeout(o._timer);
    o._timer = setTimeout(() => { o.hidden = true; o.classList.remove("show"); }, ms);
  }

  function pop(seat, text) {
    const target = document.querySelector('.seat-panel[data-seat="' + seat + '"]');
    if (!target) return;
    const r = target.getBoundingClientRect();
    const p = make("div", "pop", text);
    p.dataset.seat = String(seat);
    p.style.left = (r.left + r.width / 2 + window.scrollX) + "px";
    p.style.top = (r.top + 10 + window.scrollY) + "px";
    el("pops").appendChild(p);
    setTimeout(() => p.remove(), 1800);
  }

  function gameOver(e, v) {
    const box = el("series");
    box.hidden = false;
    box.replaceChildren(make("h2", "", "第 " + e.game + " 局 結果 (game " + e.game + " of " + v.series_games + ")"));
    const t = make("table", "series-table");
    const order = e.places.map((_, p) => p).sort((a, b) => e.places[a] - e.places[b]);
    for (const p of order) {
      const tr = make("tr", p === v.seat ? "mine" : "");
      tr.append(make("td", "", e.places[p] + "位"), make("td", "", e.titles[p]), make("td", "", v.names[p]),
        make("td", "num", "series " + (e.series_score[p] > 0 ? "+" : "") + e.series_score[p].toFixed(2)));
      t.appendChild(tr);
    }
    box.appendChild(t);
    if (e.career) {
      const c = make("p", "career", "修行ポイント +" + e.career.earned + " (累計 " + e.career.total + " · 所持 " +
        e.career.held + " · 忍者ランク " + e.career.rank + ")");
      c.id = "career-earned";
      box.appendChild(c);
    }
    if (!e.series_over) {
      box.appendChild(button("close", "次の局へ (next game)", () => { box.hidden = true; }, true));
    }
  }

  function effect(e, v) {
    if (e.kind === "points") pop(e.seat, "+" + e.gain);
    else if (e.kind === "revolution") flash("revolution-effect", e.on ? "革命!" : "革命返し!", 2200);
    else if (e.kind === "lock") {
      const lock = el("lock-banner");
      lock.classList.remove("flash");
      void lock.offsetWidth;
      lock.classList.add("flash");
    } else if (e.kind === "miyako") {
      fell[v.game + ":" + e.seat] = true;
      flash("miyako-banner", "都落ち! " + e.name + " は最下位 (falls to last)", 3000);
      drawOpponents(v);
      drawMe(v);
    } else if (e.kind === "game_over") gameOver(e, v);
    else if (e.kind === "declaration") {
      flash("declaration-overlay", "第 " + e.game + " 局  お館様の宣言\n" + e.ja + "\n" + e.en, 2600);
    }
  }

  function playEvents(msg) {
    const events = msg.events || [];
    let fresh;
    if (lastEvent < 0) {  // a tab new to this table: only what happened since the last deal
      const at = events.map((e) => e.kind).lastIndexOf("declaration");
      fresh = at >= 0 ? events.slice(at) : [];
    } else {
      fresh = events.filter((e) => e.id > lastEvent);
    }
    if (events.length) {
      lastEvent = events[events.length - 1].id;
      sessionStorage.setItem(eventKey, String(lastEvent));
    }
    for (const e of fresh) effect(e, msg.view);
  }

  // ---- the socket --------------------------------------------------------------------------------
  function send(move) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !current) return;
    for (const b of document.querySelectorAll("main button")) b.disabled = true;
    el("status").textContent = "…";
    socket.send(JSON.stringify(Object.assign({ type: "move", turn: current.turn }, move)));
  }

  el("pass").addEventListener("click", () => {
    if (current && current.view.pass !== null) send({ action: current.view.pass });
  });
  el("clear").addEventListener("click", () => {
    selected = [];
    if (current) { drawHand(current.view); drawActions(current.view); }
  });

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
    socket.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        show(msg);
      } else if (msg.type === "refused") {
        el("notice").textContent = "refused: " + msg.message;
        if (current) show(current);
        el("notice").textContent = "refused: " + msg.message;
      } else if (msg.type === "error") {
        closedByServer = true;
        el("title").textContent = "no table";
        el("notice").replaceChildren(msg.message + " ");
        const a = make("a", "", "new table");
        a.href = "/";
        el("notice").append(a);
      }
    };
    socket.onclose = () => {
      if (closedByServer) return;
      el("status").textContent = "connection lost; reconnecting…";
      setTimeout(connect, 1500);
    };
  }

  // the career's cosmetics: worn now, switchable here at any time among those owned
  window.yuugiLooks.load().then((state) => {
    const box = el("looks");
    window.yuugiLooks.pickers(box, state, (error) => { el("notice").textContent = error; });
    el("looks-title").hidden = box.hidden;
  });
  connect();
})();

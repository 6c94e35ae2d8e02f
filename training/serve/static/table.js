// One table: the picture from your seat, your legal moves as buttons, the log, the scores at the end.
// The server sends {"type": "state", ...} on connecting and after every move; a move is sent as
// {"type": "move", "action": A, "turn": T}; a refused one comes back as {"type": "refused", "message"}.
"use strict";
(function () {
  const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const el = (id) => document.getElementById(id);
  let socket = null;
  let current = null;
  let closedByServer = false;

  function show(msg) {
    current = msg;
    el("title").textContent = msg.game + " — you are " + msg.names[msg.seat] + " (seat " + msg.seat + ")";
    document.title = "yuugi — " + msg.game;
    el("picture").innerHTML = msg.svg;
    el("notice").textContent = "";
    const moves = el("moves");
    moves.replaceChildren();
    for (const [action, label] of msg.moves) {
      const b = document.createElement("button");
      b.className = "move";
      b.dataset.action = String(action);
      b.textContent = label;
      b.addEventListener("click", () => send(action, msg.turn));
      moves.appendChild(b);
    }
    if (msg.over) {
      el("status").textContent = "the game is over";
    } else if (msg.moves.length) {
      el("status").textContent = "your move";
    } else {
      el("status").textContent = "waiting for " + msg.names[msg.to_play] + "…";
    }
    const log = el("log");
    log.replaceChildren();
    for (const line of msg.log) {
      const li = document.createElement("li");
      li.textContent = line;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    const scores = el("scores");
    if (msg.over && msg.scores) {
      scores.hidden = false;
      scores.replaceChildren();
      const h = document.createElement("h2");
      h.textContent = "final scores";
      scores.appendChild(h);
      const ul = document.createElement("ul");
      msg.scores.forEach((s, p) => {
        const li = document.createElement("li");
        li.className = "score" + (p === msg.seat ? " mine" : "");
        li.dataset.seat = String(p);
        li.textContent = msg.names[p] + " (" + msg.who[p] + "): " + (s > 0 ? "+" : "") + s;
        ul.appendChild(li);
      });
      scores.appendChild(ul);
      for (const line of msg.final) {
        const p = document.createElement("p");
        p.textContent = line;
        scores.appendChild(p);
      }
      const again = document.createElement("a");
      again.href = "/?game=" + encodeURIComponent(msg.game);
      again.textContent = "another table";
      scores.appendChild(again);
    } else {
      scores.hidden = true;
    }
  }

  function send(action, turn) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    for (const b of document.querySelectorAll("button.move")) b.disabled = true;
    el("status").textContent = "…";
    socket.send(JSON.stringify({ type: "move", action: action, turn: turn }));
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
    socket.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        show(msg);
      } else if (msg.type === "refused") {
        el("notice").textContent = "refused: " + msg.message;
        for (const b of document.querySelectorAll("button.move")) b.disabled = false;
        if (current) el("status").textContent = current.moves.length ? "your move" : "";
      } else if (msg.type === "error") {
        closedByServer = true;
        el("title").textContent = "no table";
        el("notice").innerHTML = "";
        el("notice").append(msg.message + " ");
        const a = document.createElement("a");
        a.href = "/";
        a.textContent = "new table";
        el("notice").append(a);
      }
    };
    socket.onclose = () => {
      if (closedByServer) return;
      el("status").textContent = "connection lost; reconnecting…";
      setTimeout(connect, 1500);
    };
  }

  window.yuugiLooks.load();  // the career's table colour around the picture
  connect();
})();

// The career's cosmetics on every page: the table colour and the card back in use are CSS variables
// (--table-felt, --table-edge, --table-ground, --panel, --card-back, --card-back2) that style.css draws with, and
// attributes on <body> (data-table-colour, data-card-back) saying which item is worn. The colours come
// from the server's catalogue (NUMBERS["cosmetics"] in training/serve/career.py), never from this file.
// window.yuugiLooks.load() fetches /api/career and applies it; .choose(kind, item) wears an owned item;
// .pickers(box, state) fills box with one <select id="look-KIND"> per kind, of the owned items.
"use strict";
(function () {
  const VARS = { felt: "--table-felt", edge: "--table-edge", ground: "--table-ground", panel: "--panel",
                 back: "--card-back", back2: "--card-back2" };

  function apply(state) {
    if (!state || !state.enabled || !state.cosmetics) return state;
    const c = state.cosmetics;
    for (const [kind, items] of Object.entries(c.catalogue)) {
      const worn = items.find((x) => x.item === c.chosen[kind]);
      if (!worn) continue;
      for (const [name, value] of Object.entries(worn.colours)) {
        if (VARS[name]) document.documentElement.style.setProperty(VARS[name], value);
      }
      document.body.setAttribute("data-" + kind.replace(/_/g, "-"), worn.item);
    }
    return state;
  }

  function load() {
    return fetch("/api/career").then((r) => r.json()).then(apply).catch(() => null);
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then((r) => r.json());
  }

  // The answer is the career's state, or {"error": ...}: the caller shows the error.
  function choose(kind, item) {
    return post("/api/career/choose", { kind: kind, item: item }).then((s) => (s.error ? s : apply(s)));
  }

  function buy(kind, item) {
    return post("/api/career/buy", { kind: kind, item: item });
  }

  function pickers(box, state, onError) {
    box.replaceChildren();
    if (!state || !state.enabled || !state.cosmetics) { box.hidden = true; return; }
    box.hidden = false;
    const c = state.cosmetics;
    for (const [kind, items] of Object.entries(c.catalogue)) {
      const label = document.createElement("label");
      label.textContent = (c.kinds_ja[kind] || kind) + " ";
      const sel = document.createElement("select");
      sel.id = "look-" + kind;
      for (const x of items.filter((i) => i.owned)) {
        const o = document.createElement("option");
        o.value = x.item;
        o.textContent = x.ja + " (" + x.item + ")";
        sel.appendChild(o);
      }
      sel.value = c.chosen[kind];
      sel.addEventListener("change", () => choose(kind, sel.value).then((s) => {
        if (s && s.error) { if (onError) onError(s.error); return; }
        pickers(box, s, onError);
      }));
      label.appendChild(sel);
      box.appendChild(label);
    }
  }

  window.yuugiLooks = { apply: apply, load: load, choose: choose, buy: buy, pickers: pickers };
})();

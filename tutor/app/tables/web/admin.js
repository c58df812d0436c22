// Laugh and Lie Down: the organiser's page.  Every table as the public sees it (never a
// hand), the standings, and the log of claims, time-outs, joins and leaves; a projector view
// in large type.  Every text from the network is set with textContent.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const T = Cards.text;
  let ws = null;
  let code = "";
  let retry = 0;
  let final = false;
  let watching = false;

  function status(text) { $("status").textContent = text; }

  function connect() {
    status("Connecting\u2026");
    ws = new WebSocket(Cards.wsAddress());
    const me = ws;
    ws.addEventListener("open", () => me.send(JSON.stringify({ v: 1, type: "watch", admin: code })));
    ws.addEventListener("message", (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (!m || m.v !== 1) return;
      retry = 0;
      handle(m);
    });
    ws.addEventListener("close", () => {
      if (ws !== me) return;
      if (final || !watching) { status("Not connected"); return; }
      const wait = Math.min(10, 0.5 * 2 ** retry);
      retry += 1;
      status(`Connection lost: trying again in ${wait} s\u2026`);
      setTimeout(connect, wait * 1000);
    });
  }

  function handle(m) {
    if (m.type === "overview") {
      watching = true;
      $("code-view").hidden = true;
      $("admin-view").hidden = false;
      status("Watching every table.");
      overview(m);
    } else if (m.type === "log") {
      log(`Table ${m.table}: ${m.text}`);
    } else if (m.type === "standings") {
      standings(m.rows || [], m.final ? "Final standings" : `After round ${m.round} of ${m.rounds}`);
    } else if (m.type === "refused") {
      if (!watching) { $("code-error").textContent = String(m.text); final = true; }
      log(m.text, "error");
    } else if (m.type === "bye") {
      final = m.reason !== "stopping";
      log(m.text, "error");
    }
  }

  function overview(m) {
    const box = $("tables");
    Cards.clear(box);
    for (const t of m.tables || []) {
      const art = document.createElement("article");
      art.setAttribute("aria-label", `Table ${t.table}`);
      art.appendChild(T("h3", `Table ${t.table}: ${t.game || ""} (${t.played} of ${t.games})`));
      if (t.waiting) art.appendChild(T("p", t.waiting, "dim"));
      const o = t.obs || {};
      const tb = document.createElement("table");
      tb.className = "seats";
      const body = tb.createTBody();
      (t.names || []).forEach((name, q) => {
        const tr = body.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.appendChild(T("span", o.to_move === q && t.playing ? "\u25b6 " : "", "mark"));
        th.appendChild(T("span", name));
        if ((t.liveries || [])[q]) th.appendChild(T("span", ` (${t.liveries[q]})`, "dim"));
        if ((t.away || [])[q]) th.appendChild(T("span", " away", "dim"));
        tr.appendChild(th);
        tr.appendChild(T("td", (o.hand_sizes || [])[q] == null ? "" : `hand ${o.hand_sizes[q]}`));
        tr.appendChild(T("td", `won ${((o.won || [])[q] || []).length}`));
        tr.appendChild(T("td", (t.totals || [])[q]));
        const rel = document.createElement("td");
        if ((t.persons || [])[q]) {       // a person's seat: the organiser may release it
          const b = T("button", "Release");
          b.type = "button";
          b.className = "release";
          b.setAttribute("aria-label", `Release seat ${q} of table ${t.table} (${name})`);
          b.addEventListener("click", () => release(t.table, q, name));
          rel.appendChild(b);
        }
        tr.appendChild(rel);
      });
      art.appendChild(tb);
      const cards = document.createElement("p");
      cards.appendChild(T("span", "Table: "));
      for (const c of o.table || []) cards.appendChild(Cards.element(c));
      if (!(o.table || []).length) cards.appendChild(T("span", "empty", "dim"));
      art.appendChild(cards);
      if (t.clock) {
        const who = (t.names || [])[t.clock.seat] || `seat ${t.clock.seat}`;
        art.appendChild(T("p", `${who} ${t.clock.kind === "away" ? "away" : "to move"}: ` +
          `${Math.ceil(t.clock.left)} s`, "clock"));
      }
      box.appendChild(art);
    }
    if ((m.standings || []).length) standings(m.standings, `After round ${m.published} of ${m.rounds}`);
  }

  function release(table, seat, name) {
    // A lost token: after this the seat's token no longer takes it back; its person takes it
    // back by name (laugh table release does the same).
    if (!confirm(`Release seat ${seat} of table ${table} (${name})? Its token will no longer ` +
                 "take it back; the name alone will.")) return;
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ v: 1, type: "release", table: table, seat: seat }));
    }
  }

  function standings(rows, title) {
    const box = $("standings");
    Cards.clear(box);
    box.appendChild(T("p", title, "strong"));
    const t = document.createElement("table");
    t.className = "sheet";
    const head = t.createTHead().insertRow();
    for (const h of ["Place", "Name", "Table", "Score", "Games"]) {
      const th = T("th", h); th.scope = "col"; head.appendChild(th);
    }
    const body = t.createTBody();
    for (const r of rows) {
      const tr = body.insertRow();
      for (const v of [r.place, r.name + (r.livery ? ` (${r.livery})` : ""), r.table, r.score, r.games]) {
        tr.appendChild(T("td", v));
      }
    }
    box.appendChild(t);
  }

  function log(text, cls) {
    const el = $("log");
    el.appendChild(T("li", text, cls || ""));
    while (el.children.length > 200) el.removeChild(el.firstChild);
    el.parentElement.scrollTop = el.parentElement.scrollHeight;
  }

  Cards.fourColourSwitch($("four-colour"));
  const proj = $("projector");
  const setProjector = () => document.documentElement.classList.toggle("projector",
    proj.checked);
  proj.checked = /projector/.test(location.search);
  setProjector();
  proj.addEventListener("change", setProjector);
  const link = Cards.fragment();      // a malformed link: said, and the form still works
  $("admin-code").value = link.text;
  if (link.bad) $("code-error").textContent = "This link's code cannot be read: type the code.";
  $("code-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    code = $("admin-code").value.replace(/[\s-]/g, "").toUpperCase();
    if (!code) { $("code-error").textContent = "Type the organiser's code."; return; }
    $("code-error").textContent = "";
    final = false;
    connect();
  });
  $("start-all").addEventListener("click", () => {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, type: "start" }));
  });
})();

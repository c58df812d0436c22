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
      $("log-view").hidden = false;
      status("Watching every table.");
      last = m;
      overview(m);
    } else if (m.type === "reply") {    // a release's new code: never on a projected screen
      if (!document.documentElement.classList.contains("projector")) log(String(m.text), "secret");
    } else if (m.type === "log") {
      log(logLine(m), m.past ? "past" : "");
    } else if (m.type === "standings") {
      standings(m.rows || [], m.final ? "Final standings" : `After round ${m.round} of ${m.rounds}`,
        m.duplicate, m.teams || []);
    } else if (m.type === "refused") {
      if (!watching) { $("code-error").textContent = String(m.text); final = true; }
      log(m.text, "error");
    } else if (m.type === "bye") {
      final = m.reason !== "stopping";
      log(m.text, "error");
    }
  }

  function overview(m) {
    const projected = document.documentElement.classList.contains("projector");
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
        if ((t.persons || [])[q]) {       // a person's seat: the organiser may release or empty it
          const b = T("button", "Release");
          b.type = "button";
          b.className = "release";
          b.setAttribute("aria-label", `Release seat ${q} of table ${t.table} (${name})`);
          b.addEventListener("click", () => release(t.table, q, name));
          rel.appendChild(b);
          const e = T("button", "Empty");
          e.type = "button";
          e.className = "empty";
          e.setAttribute("aria-label", `Empty seat ${q} of table ${t.table} (${name})`);
          e.addEventListener("click", () => empty(t.table, q, name));
          rel.appendChild(e);
        }
        tr.appendChild(rel);
      });
      art.appendChild(tb);
      (t.codes || []).forEach((given, q) => {   // codes the organiser hands to one person
        if (!given || projected) return;        // (never on a projected screen)
        const p = T("p", `Seat ${q}, for ${given.person} alone: seat code `, "dim");
        const code = T("strong", given.code, "seat-code");
        code.style.whiteSpace = "nowrap";       // a code is never broken at its dash
        p.appendChild(code);
        art.appendChild(p);
      });
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
    if ((m.standings || []).length) {
      standings(m.standings, standingsTitle(m), m.duplicate, m.teams || []);
    }
  }

  // What the overview's standings are: every game played so far (never "after round 0").
  function standingsTitle(m) {
    const over = (m.tables || []).length && (m.tables || []).every((t) => t.game === "over");
    if (over) return "Final standings";
    if (!m.published) return `So far: round 1 of ${m.rounds} in play`;
    if (m.published >= m.rounds) return "Final standings";
    return `So far: round ${m.published} of ${m.rounds} finished, round ${m.published + 1} in play`;
  }

  // A line of the log with the server's time of the event (the history since the start
  // comes first, each line at the time it happened).
  function logLine(m) {
    const at = typeof m.at === "string" && m.at.length >= 19 ? m.at.slice(11, 19) + " " : "";
    return `${at}Table ${m.table}: ${m.text}`;
  }

  function release(table, seat, name) {
    // A lost seat code: after this the seat's old code no longer takes it back; a new one
    // does, shown here to hand to its person (laugh table admin release does the same).
    if (!confirm(`Release seat ${seat} of table ${table} (${name})? Its code will no longer ` +
                 "take it back; a new code, shown here, will.")) return;
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ v: 1, type: "release", table: table, seat: seat }));
    }
  }

  function empty(table, seat, name) {
    // A seat taken by someone who should not have it: a computer player takes it, and it is
    // free for the next person (laugh table admin empty does the same).
    if (!confirm(`Empty seat ${seat} of table ${table} (${name})? A computer player takes ` +
                 "it, and the next person to join may sit there.")) return;
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ v: 1, type: "empty", table: table, seat: seat }));
    }
  }

  // The standings: the liveries' totals, the people ranked among themselves, then the
  // computer players ranked apart; under duplicate play the score against those dealt the same cards ("vs same
  // cards"), by which they are ranked.
  function standings(rows, title, duplicate, teams) {
    const box = $("standings");
    Cards.clear(box);
    box.appendChild(T("p", title, "strong"));
    if (duplicate) {
      box.appendChild(T("p", "Duplicate play: \u201cvs same cards\u201d is a player\u2019s score " +
        "less the average of those dealt the same cards; the order is by it.", "dim"));
    }
    const people = rows.filter((r) => r.person);
    const computers = rows.filter((r) => !r.person);
    if ((teams || []).length) box.appendChild(teamsTable(teams, duplicate));
    if (people.length) box.appendChild(standingsTable(people, duplicate, "People", "people"));
    if (computers.length) {
      box.appendChild(standingsTable(computers, duplicate,
        "Computer players (ranked apart)", "computers"));
    }
  }

  function standingsTable(rows, duplicate, caption, id) {
    const t = document.createElement("table");
    t.className = "sheet";
    t.id = `standings-${id}`;
    t.appendChild(T("caption", caption));
    const head = t.createTHead().insertRow();
    const cols = ["Place", "Name", "Table"].concat(duplicate ? ["vs same cards"] : [], ["Score", "Games"]);
    for (const h of cols) {
      const th = T("th", h); th.scope = "col"; head.appendChild(th);
    }
    const body = t.createTBody();
    for (const r of rows) {
      const tr = body.insertRow();
      const cells = [r.place, r.name + (r.livery ? ` (${r.livery})` : ""), r.table]
        .concat(duplicate ? [signed(r.dup)] : [], [r.score, r.games]);
      for (const v of cells) tr.appendChild(T("td", v));
    }
    return t;
  }

  function teamsTable(teams, duplicate) {
    const t = document.createElement("table");
    t.className = "sheet";
    t.id = "standings-liveries";
    t.appendChild(T("caption", "Liveries"));
    const head = t.createTHead().insertRow();
    const cols = ["Place", "Livery", "People"].concat(duplicate ? ["vs same cards"] : [], ["Score"]);
    for (const h of cols) {
      const th = T("th", h); th.scope = "col"; head.appendChild(th);
    }
    const body = t.createTBody();
    for (const x of teams) {
      const tr = body.insertRow();
      const cells = [x.place, x.livery, x.people].concat(duplicate ? [signed(x.dup)] : [], [x.score]);
      for (const v of cells) tr.appendChild(T("td", v));
    }
    return t;
  }

  function signed(v) {
    const n = Number(v || 0);
    return (n > 0 ? "+" : n < 0 ? "\u2212" : "") + String(Math.round(Math.abs(n) * 100) / 100);
  }

  function log(text, cls) {
    const el = $("log");
    el.appendChild(T("li", text, cls || ""));
    while (el.children.length > 200) el.removeChild(el.firstChild);
    el.parentElement.scrollTop = el.parentElement.scrollHeight;
  }

  // The projector view shows every table and the standings without a control (admin.css
  // hides them): Escape leaves it, P enters it again.
  function projectorKeys(box, apply) {
    document.addEventListener("keydown", (ev) => {
      if (ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.key === "Escape" && box.checked) { box.checked = false; apply(); }
      else if ((ev.key === "p" || ev.key === "P") && !box.checked && !ev.ctrlKey && !ev.metaKey) {
        box.checked = true; apply();
      }
    });
  }

  Cards.fourColourSwitch($("four-colour"));
  const proj = $("projector");
  let last = null;                    // the latest overview, drawn again when the view changes
  const setProjector = () => {
    document.documentElement.classList.toggle("projector", proj.checked);
    if (proj.checked) {                 // seat codes are for the organiser's own screen
      for (const li of Array.from($("log").querySelectorAll("li.secret"))) li.remove();
    }
    if (last) overview(last);
  };
  proj.checked = /projector/.test(location.search);
  setProjector();
  proj.addEventListener("change", setProjector);
  projectorKeys(proj, setProjector);
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

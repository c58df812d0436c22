// Laugh and Lie Down: a seat at a live table, in a browser.
// The server is the referee: this page sends what the player asks (a move, a claim, ready)
// and draws what its seat is sent (the seat's observation, never another hand).  Every text
// from the network is set with textContent.  Protocol: tutor/app/tables/protocol.py.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const T = Cards.text;
  const S = {
    ws: null, code: null, name: null, livery: null, token: null, seat: null, names: [],
    deal: null, history: [], obs: null, totals: [], away: [], seated: false, welcome: null,
    clock: null, clockAt: 0, selected: new Set(), retry: 0, final: false, joined: false,
    seq: 0, sheet: [], over: false, reviewing: null, stopping: false, waiting: null, hintSeq: null, hintTurn: null,
  };
  // Tries to reconnect before the page says the server has stopped (about a minute).
  const TRIES = 9;
  // A seat's code is kept per table in localStorage: a closed tab, a phone that discarded the
  // page, or a restarted browser takes the seat back; "Leave the table" forgets it.
  const KEY = (code) => `laugh-seat:${code}`;
  const store = {
    get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private */ } },
    drop(key) { try { localStorage.removeItem(key); } catch (e) { /* private */ } },
  };
  const squash = (text) => String(text || "").replace(/[\s-]/g, "").toUpperCase();
  const grouped = (code) => String(code || "").replace(/(.{5})(?=.)/g, "$1-");

  // -- the connection ---------------------------------------------------------------------

  function connect() {
    S.final = false;
    status("Connecting\u2026");
    let ws;
    try {
      ws = new WebSocket(Cards.wsAddress());
    } catch (e) {
      status("Cannot connect from this page.");
      return;
    }
    S.ws = ws;
    ws.addEventListener("open", () => {
      const join = { type: "join", code: S.code };
      if (S.token) join.token = S.token;
      if (S.name) join.name = S.name;
      if (S.livery && !S.token) join.livery = S.livery;
      send(join);
    });
    ws.addEventListener("message", (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (!m || typeof m !== "object" || m.v !== 1) return;
      S.retry = 0;
      S.stopping = false;
      $("retry-button").hidden = true;
      handle(m);
    });
    ws.addEventListener("close", () => {
      if (S.ws !== ws) return;
      S.ws = null;
      if (S.final || !S.token) {
        if (!S.joined) showJoin();
        return;
      }
      S.clock = null;                 // no clock runs while the table cannot be reached
      tick();
      if (S.retry >= TRIES) return stopped();
      const wait = Math.min(10, 0.5 * 2 ** S.retry);
      S.retry += 1;
      status((S.stopping ? "The server has stopped" : "Connection lost") +
        `: trying again in ${wait} s (try ${S.retry} of ${TRIES})\u2026`);
      setTimeout(connect, wait * 1000);
    });
  }

  // Every try has failed: the server is said to have stopped, and a button tries again.
  function stopped() {
    status("The server has stopped (or cannot be reached). Your seat stays yours: try " +
      "again when the organiser has started it again.");
    $("retry-button").hidden = false;
    say("The server has stopped: no more tries. Press \u201cTry again\u201d to come back.",
      "error");
  }

  function retryNow() {
    $("retry-button").hidden = true;
    S.retry = 0;
    if (!S.ws) connect();
  }

  function send(m) {
    if (S.ws && S.ws.readyState === WebSocket.OPEN) {
      S.ws.send(JSON.stringify({ v: 1, ...m }));
      return true;
    }
    say("Not connected: the page is trying again.", "error");
    return false;
  }

  function status(text) { $("status").textContent = text; }

  // -- what the server sends --------------------------------------------------------------

  function handle(m) {
    switch (m.type) {
      case "welcome": return welcome(m);
      case "state": return state(m);
      case "say": return say(m.text);
      case "waiting": return waiting(m.text);
      case "reply":
        if (m.to === "hint") hint(m);
        if (m.to === "claim" || !m.ok || m.to === "hint") say(m.text, m.ok ? "" : "error");
        return choices(m.choices || []);
      case "refused":
        if (!S.joined) {
          const text = String(m.text);
          const again = /try again in (\d+) s/.exec(text);
          if (again && S.token) {        // the seat came back too often: wait, then again
            status(`Taking your seat back in ${again[1]} s\u2026`);
            S.final = true;
            setTimeout(() => { if (!S.joined) connect(); }, Number(again[1]) * 1000);
            return undefined;
          }
          $("join-error").textContent = text;
          if (S.token && /takes back no seat/i.test(text)) forget();
          S.final = true;
          showJoin();
        }
        return say(m.text, "error");
      case "deal_over": return dealOver(m);
      case "match_over": return matchOver(m);
      case "standings": return say(`Standings after round ${m.round} of ${m.rounds}: ` +
        (m.rows || []).slice(0, 6).map((r) => `${r.place}. ${r.name} ${r.score}`).join("; "));
      case "bye":
        S.final = m.reason !== "stopping";
        if (m.reason === "emptied") forget();
        S.stopping = m.reason === "stopping";
        say(m.text, "error");
        return status(m.reason === "stopping" ? "The server is stopping." : "Left the table.");
      default: return undefined;
    }
  }

  function welcome(m) {
    S.joined = true;
    S.welcome = m;
    S.token = m.token;
    S.seat = m.seat;
    S.names = m.names || [];
    S.name = m.name;
    store.set(KEY(S.code), JSON.stringify({ token: m.token, name: m.name }));
    store.set("laugh-code", S.code);
    $("seat-code").textContent = grouped(m.token);
    $("seat-code").style.whiteSpace = "nowrap";   // a code is never broken at its dash
    $("join-view").hidden = true;
    $("table-view").hidden = false;
    $("table-title").textContent = `Table ${m.table}: ${m.name}, seat ${m.seat}`;
    $("scoring").textContent = m.scoring || "";
    $("hint-button").hidden = !m.hint;
    status(m.back ? "Back at your seat." : (m.seated ? "Seated." :
      "You take your seat at the next deal: until then you watch."));
    say(m.back ? "You are back at your seat." : `You sit at table ${m.table} as ${m.name}.`);
  }

  // What the table waits for, and whom (null: it waits no longer): in the status line, and
  // in place of the empty table before the first deal.
  function waiting(text) {
    S.waiting = text || null;
    const box = $("waiting");
    box.textContent = S.waiting || "";
    box.hidden = !S.waiting;
    if (S.waiting) {            // a seat just taken back keeps saying so, before the wait
      const back = $("status").textContent.startsWith("Back at your seat.");
      status(back ? `Back at your seat. ${S.waiting}` : S.waiting);
      say(S.waiting);
    }
    else if (S.joined && !S.over) status(S.seated || S.obs ? "Playing." : "Seated.");
  }

  // The hint's answer, beside the moves (and in the log); gone once the turn has moved on.
  function hint(m) {
    const box = $("hint-text");
    box.textContent = m.text || "";
    box.className = m.ok ? "hint" : "hint error";
    box.scrollIntoView({ block: "nearest" });       // under the moves, on the screen
    S.hintTurn = S.history.length;
  }

  function state(m) {
    const o = m.obs || {};
    if (m.deal !== S.deal) {
      S.deal = m.deal;
      S.history = [];
      S.selected.clear();
    }
    const from = Number(o.history_from) || 0;
    const before = S.history.length;
    S.history = S.history.slice(0, from).concat(o.history || []);
    S.obs = o;
    S.names = m.names || S.names;
    S.totals = m.totals || [];
    S.away = m.away || [];
    S.seated = !!m.seated;
    S.clock = m.clock;
    S.clockAt = performance.now();
    S.game = m.game;
    if (!S.waiting && $("status").textContent === "Seated.") status("Playing.");
    const dealing = !o.started && o.phase !== "over" && o.seat === o.dealer && S.seated &&
      freeMoves().length > 0;           // the dealer may take the table mournival: their move
    if (S.reviewing != null && m.deal !== S.reviewing &&
        (S.history.length > 0 || myTurn() || dealing)) {
      reviewFront(false);         // the next deal's first move: the table comes back on top
    }
    if (S.hintTurn != null && S.history.length !== S.hintTurn) {
      $("hint-text").textContent = "";
      S.hintTurn = null;
    }
    for (const a of S.history.slice(Math.max(before, from))) {
      say(Cards.actionText(a, S.names, o.seat), "", spoken(a, o.seat));
    }
    draw();
  }

  function spoken(a, me) {
    const who = a.player === me ? "You" : (S.names[a.player] || `Seat ${a.player}`);
    return `${who}: ${Cards.moveSpoken(a)}`;
  }

  function dealOver(m) {
    const box = $("settlement");
    Cards.clear(box);
    box.appendChild(T("p", `Settlement: ${m.game || "deal"}` +
      (m.practice ? " (practice: not scored)" : ""), "strong"));
    const t = document.createElement("table");
    const head = t.createTHead().insertRow();
    for (const h of ["Player", "Won", m.unit || "Result", "Total"]) {
      const th = T("th", h); th.scope = "col"; head.appendChild(th);
    }
    const body = t.createTBody();
    const names = m.names || S.names;
    const row = { game: m.game, values: [] };
    for (const r of m.settlement || []) {
      const tr = body.insertRow();
      const value = r.net != null ? r.net : r.points;
      row.values[r.seat] = value;
      tr.appendChild(T("td", (r.seat === S.seat && S.seated ? "\u25b6 " : "") +
        (names[r.seat] || "")));
      tr.appendChild(T("td", r.won));
      tr.appendChild(T("td", value == null ? "" : (r.net != null && value > 0 ? "+" : "") + value));
      tr.appendChild(T("td", (m.totals || [])[r.seat]));
    }
    box.appendChild(t);
    const list = $("review");
    Cards.clear(list);
    const rv = m.review;
    if (rv) {
      for (const item of rv.items || []) {
        const li = document.createElement("li");
        li.appendChild(T("strong", item.title));
        li.appendChild(T("span", ` ${item.text} `));
        li.appendChild(T("span", item.why, "dim"));
        list.appendChild(li);
      }
      if (!(rv.items || []).length) list.appendChild(T("li", "Nothing to review in your play."));
    }
    $("review-box").hidden = false;
    reviewFront(true, m.deals < m.of);
    if (!m.practice) {
      S.sheet.push(row);
      drawSheet(names, m.totals || []);
    }
    say(`${m.game || "The deal"} is over: ` + (m.settlement || []).map((r) =>
      `${names[r.seat]} ${r.net != null ? r.net : r.points}`).join(", ") + ".");
  }

  // The settlement and review just come stand above the table until a key, the button, or
  // the next deal's first move; then they go back beside it (still there to read).
  function reviewFront(front, more) {
    const box = $("review-box");
    S.reviewing = front ? S.deal : null;
    $("review-done").hidden = !front || !more;
    box.classList.toggle("front", front);
    if (front) {
      $("table-view").insertBefore(box, document.querySelector("#table-view .layout"));
      box.scrollIntoView({ block: "nearest" });
    }
    else $("sheet-box").parentElement.insertBefore(box, $("sheet-box"));
  }

  function matchOver(m) {
    say("The match is over: " + (m.names || []).map((n, q) => `${n} ${(m.totals || [])[q]}`)
      .join(", ") + ".");
    drawSheet(m.names || S.names, m.totals || []);
    status("The match is over.");
    S.final = true;
    S.over = true;
    closeClaim();
    document.body.classList.add("match-over");     // the moves, the hint, the claim: gone
    for (const id of ["moves-box", "claim-box", "clock"]) $(id).hidden = true;
  }

  function drawSheet(names, totals) {
    const t = $("sheet");
    Cards.clear(t.tHead); Cards.clear(t.tBodies[0]);
    const head = t.tHead.insertRow();
    for (const h of ["Deal"].concat(names)) {
      const th = T("th", h); th.scope = "col"; head.appendChild(th);
    }
    for (const r of S.sheet) {
      const tr = t.tBodies[0].insertRow();
      tr.appendChild(T("td", r.game));
      names.forEach((_, q) => tr.appendChild(T("td", r.values[q] == null ? "" : r.values[q])));
    }
    const tr = t.tBodies[0].insertRow();
    tr.className = "total";
    tr.appendChild(T("td", "Total"));
    names.forEach((_, q) => tr.appendChild(T("td", totals[q])));
    t.querySelectorAll("tr").forEach((row) => {       // your own column marked
      const cell = row.cells[1 + S.seat];
      if (cell && S.seated) cell.classList.add("mine");
    });
    sheetScrolls();
  }

  // A sheet wider than its box says that it scrolls (and which way).
  function sheetScrolls() {
    const box = $("sheet-scroll");
    const wide = box.scrollWidth > box.clientWidth + 1;
    $("sheet-more").hidden = !wide;
    box.classList.toggle("wide", wide);
  }

  // -- drawing the table ---------------------------------------------------------------

  function draw() {
    const o = S.obs;
    if (!o) return;
    const n = o.players;
    const me = o.seat == null ? S.seat : o.seat;
    const body = $("seats").tBodies[0];
    Cards.clear(body);
    for (let k = 0; k < n; k++) {
      const q = (me + k) % n;
      const tr = body.insertRow();
      if (q === o.seat) tr.className = "me";
      const moving = o.to_move === q && o.phase !== "over";
      const th = document.createElement("th");
      th.scope = "row";
      th.appendChild(T("span", moving ? "\u25b6 " : "", "mark"));
      th.appendChild(T("span", S.names[q] || `Seat ${q + 1}`));
      if (q === o.dealer) th.appendChild(T("span", " (dealer)", "dim"));
      if (S.away[q]) th.appendChild(T("span", " (away)", "dim"));
      if (moving) th.appendChild(T("span", " to move", "sr-only"));
      tr.appendChild(th);
      tr.appendChild(T("td", o.hand_sizes[q] ? o.hand_sizes[q] : "out"));
      tr.appendChild(T("td", (o.won[q] || []).length));
      tr.appendChild(T("td", S.totals[q] == null ? "" : S.totals[q]));
    }
    $("pot").textContent = (S.game ? `${S.game} \u00b7 ` : "") + `pot now ${o.pot}` +
      (o.phase === "over" ? " \u00b7 the deal is over" : "");
    drawCards($("table-cards"), o.table, "The table is empty.");
    $("set-aside").textContent = (o.set_aside || []).length ?
      `Set aside for the last in: ${Cards.longList(o.set_aside)}` : "";
    drawCards($("hand"), o.hand, o.seat == null ? "You are watching." : "None: you are out.");
    const piles = $("piles");
    Cards.clear(piles);
    (o.won || []).forEach((pile, q) => {
      const p = document.createElement("p");
      p.appendChild(T("strong", `${S.names[q] || q}: `));
      if (!pile.length) p.appendChild(T("span", "nothing yet", "dim"));
      for (const c of pile) p.appendChild(Cards.element(c, clickCard));
      piles.appendChild(p);
    });
    drawMoves();
    tick();
  }

  function drawCards(box, codes, empty) {
    Cards.clear(box);
    if (!codes || !codes.length) { box.appendChild(T("p", empty, "dim")); return; }
    for (const c of codes) box.appendChild(Cards.element(c, clickCard, S.selected.has(c)));
  }

  function turnMoves() {
    const o = S.obs;
    if (!o || !S.seated) return [];
    return (o.moves || []).slice(0, o.turn_count);
  }

  function freeMoves() {
    const o = S.obs;
    if (!o || !S.seated) return [];
    return (o.moves || []).slice(o.turn_count);
  }

  function myTurn() {
    const o = S.obs;
    return !!(o && S.seated && o.to_move === S.seat && o.phase !== "over");
  }

  function drawMoves() {
    const o = S.obs;
    const box = $("moves");
    Cards.clear(box);
    const before = o && !o.started && o.phase !== "over";
    const dealer = before && o.seat === o.dealer && S.seated && freeMoves().length > 0;
    $("ready-button").hidden = !dealer;
    let moves = myTurn() ? turnMoves() : [];
    moves = moves.concat(freeMoves());
    const sel = [...S.selected];
    const shown = moves.filter((a) => sel.every((c) => Cards.cardsOf(a).includes(c)));
    $("turn").textContent = myTurn() ? "Your turn: click a move, or a card to see its moves, " +
      "or press its number." : (dealer ? "You deal: take the table mournival or start play." :
      (o && o.phase !== "over" ? `Waiting for ${S.names[o.to_move] || "play to begin"}.` : ""));
    shown.forEach((a, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.textContent = (i < 9 ? `${i + 1}. ` : "") + Cards.moveText(a);
      b.setAttribute("aria-label", (i < 9 ? `${i + 1}: ` : "") + Cards.moveSpoken(a));
      b.addEventListener("click", () => act(a));
      box.appendChild(b);
    });
    if (sel.length && !shown.length) box.appendChild(T("p", "No move uses those cards.", "dim"));
  }

  function act(a) {
    S.selected.clear();
    S.seq += 1;
    send({ type: "act", action: a, seq: S.seq });
  }

  function choices(list) {
    if (!list.length) return;
    const box = $("moves");
    Cards.clear(box);
    box.appendChild(T("p", "Which did you mean?"));
    list.slice(0, 20).forEach((c, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "move";
      b.textContent = `${i + 1}. ${c}`;
      b.addEventListener("click", () => { S.seq += 1; send({ type: "act", text: c, seq: S.seq }); });
      box.appendChild(b);
    });
  }

  function clickCard(code) {
    if (!$("claim-form").hidden) {
      const input = $("claim-text");
      input.value = (input.value.trim() + " " + code).trim();
      input.focus();
      return;
    }
    if (S.selected.has(code)) S.selected.delete(code); else S.selected.add(code);
    draw();
  }

  // -- the clock -------------------------------------------------------------------------

  function tick() {
    const c = S.clock;
    const el = $("clock");
    if (!c) { el.textContent = ""; return; }
    const gone = (performance.now() - S.clockAt) / 1000;
    const left = Math.max(0, Math.ceil(c.left - gone));
    const mine = S.obs && c.seat === S.obs.seat;
    const who = mine ? "You" : (S.names[c.seat] || `Seat ${c.seat}`);
    if (c.kind === "away") {
      el.textContent = `${who} away: a computer player moves for them in ${left} s`;
    } else {
      const moveLeft = c.move_left == null ? null : Math.max(0, Math.ceil(c.move_left - gone));
      const reserve = (c.reserve || [])[c.seat];
      el.textContent = `${who} to move: ${left} s` + (moveLeft != null && moveLeft > 0 ?
        ` (${moveLeft} s of the move, then the reserve ${Math.round(reserve || 0)} s)` :
        " (reserve)");
    }
    el.classList.toggle("short", left <= 10 && mine);
  }

  // -- the log (an ARIA live region) ------------------------------------------------------

  function say(text, cls, spokenText) {
    if (text == null) return;
    const log = $("log");
    const li = T("li", text, cls || "");
    if (spokenText) {
      li.textContent = "";
      li.appendChild(T("span", text, "shown"));
      li.appendChild(T("span", spokenText, "sr-only"));
      li.firstChild.setAttribute("aria-hidden", "true");
    }
    log.appendChild(li);
    while (log.children.length > 60) log.removeChild(log.firstChild);
    log.parentElement.scrollTop = log.parentElement.scrollHeight;
  }

  // -- the claim ---------------------------------------------------------------------------

  function openClaim() {
    $("claim-form").hidden = false;
    $("claim-text").value = "";
    $("claim-text").focus();
  }

  function closeClaim() {
    $("claim-form").hidden = true;
  }

  // -- joining -----------------------------------------------------------------------------

  function showJoin() {
    $("join-view").hidden = false;
    $("table-view").hidden = true;
    status("Not connected");
  }

  function forget() {
    if (S.code) store.drop(KEY(S.code));
    if (store.get("laugh-code") === S.code) store.drop("laugh-code");
    S.token = null;
  }

  function kept(code) {
    try { return JSON.parse(store.get(KEY(code)) || "null"); } catch (e) { return null; }
  }

  // A link's fragment: the table's code, and a seat's code after a slash (the organiser's
  // link for a named seat): #CODE or #CODE/SEATCODE.
  // A malformed one (%ZZ) never throws: bad is true, and the form is typed instead.
  function fromHash() {
    const link = Cards.fragment();
    const [table, seat] = link.text.split("/");
    return { table: squash(table), seat: squash(seat), bad: link.bad };
  }

  function start() {
    Cards.fourColourSwitch($("four-colour"));
    const link = fromHash();
    if (link.bad) {
      $("join-error").textContent = "This link's code cannot be read (the link is " +
        "malformed): type the table's code.";
    }
    const code = link.table || store.get("laugh-code") || "";
    $("code").value = code;
    if (link.seat) $("seat").value = grouped(link.seat);
    const saved = code && !link.seat ? kept(code) : null;
    if (saved && saved.token) {            // back on this device: take the seat with its code
      S.code = code;
      S.token = saved.token;
      S.name = saved.name;
      $("name").value = saved.name || "";
      connect();
    }
    $("join-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const c = squash($("code").value);
      const name = $("name").value.trim().replace(/\s+/g, " ");
      const seat = squash($("seat").value);
      $("join-error").textContent = "";
      if (!c) { $("join-error").textContent = "Type the table's code."; $("code").focus(); return; }
      if (!name && !seat) {
        $("join-error").textContent = "Type your name (or your seat code, to take your seat back).";
        $("name").focus();
        return;
      }
      S.code = c; S.name = name || null; S.livery = $("livery").value.trim() || null;
      S.token = seat || null; S.joined = false;
      const mine = kept(c);
      if (!S.token && mine && mine.token && mine.name === name) S.token = mine.token;
      connect();
    });
    $("type-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("typed").value.trim();
      if (!text) return;
      S.seq += 1;
      const claimWords = /^(claim|c)\b\s*/i;
      if (claimWords.test(text)) {
        send({ type: "claim", text: text.replace(claimWords, "") || text, seq: S.seq });
      } else if (/^(ready|start)$/i.test(text) && !$("ready-button").hidden) {
        send({ type: "ready", seq: S.seq });
      } else {
        send({ type: "act", text, seq: S.seq });
      }
      $("typed").value = "";
    });
    $("claim-button").addEventListener("click", openClaim);
    $("claim-cancel").addEventListener("click", closeClaim);
    $("claim-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = $("claim-text").value.trim();
      if (!text) { closeClaim(); return; }
      S.seq += 1;
      send({ type: "claim", text, seq: S.seq });
      closeClaim();
    });
    $("ready-button").addEventListener("click", () => { S.seq += 1; send({ type: "ready", seq: S.seq }); });
    $("hint-button").addEventListener("click", () => { S.seq += 1; send({ type: "hint", seq: S.seq }); });
    $("print-button").addEventListener("click", () => window.print());
    $("leave-button").addEventListener("click", () => {
      S.final = true;
      send({ type: "leave" });
      forget();
    });
    document.addEventListener("keydown", (ev) => {
      const typing = ev.target && /^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName);
      if (ev.key === "Escape" && !$("claim-form").hidden) { closeClaim(); return; }
      if (typing || ev.ctrlKey || ev.metaKey || ev.altKey || $("table-view").hidden ||
          S.over) return;
      if (S.reviewing != null) reviewFront(false);   // a key: the table, then what it asks
      if (ev.key === " " && !(ev.target && ev.target.tagName === "BUTTON")) {
        ev.preventDefault();
        openClaim();
      } else if (/^[1-9]$/.test(ev.key)) {
        const b = $("moves").querySelectorAll("button.move")[Number(ev.key) - 1];
        if (b) { ev.preventDefault(); b.click(); }
      }
    });
    window.addEventListener("hashchange", () => {     // a shared link opened in this tab
      const got = fromHash();
      if (got.table && !S.joined) $("code").value = got.table;
      if (got.seat && !S.joined) $("seat").value = grouped(got.seat);
    });
    $("retry-button").addEventListener("click", retryNow);
    $("review-done").addEventListener("click", () => reviewFront(false));
    window.addEventListener("resize", sheetScrolls);
    setInterval(tick, 250);
  }

  start();
})();

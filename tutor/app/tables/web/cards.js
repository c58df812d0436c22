// Laugh and Lie Down: what the table page and the organiser's page share.
// Cards as the deal record writes them (RULES.md 9: "TH" is the ten of hearts), drawn with a
// text name for screen readers, the suit by its sign as well as its colour.  Every text that
// came over the network is set with textContent, never as HTML.
"use strict";

const Cards = (() => {
  const RANKS = "A23456789TJQK";
  const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "jack", "queen", "king"];
  const RANK_SHOWN = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SUITS = { C: ["clubs", "\u2663"], D: ["diamonds", "\u2666"], H: ["hearts", "\u2665"],
    S: ["spades", "\u2660"] };

  function parts(code) {
    const r = RANKS.indexOf(code[0]);
    const s = SUITS[code[1]];
    if (r < 0 || !s || code.length !== 2) return null;
    return { rank: r, suit: code[1] };
  }

  // "seven of hearts"
  function name(code) {
    const p = parts(code);
    return p ? `${RANK_NAMES[p.rank]} of ${SUITS[p.suit][0]}` : String(code);
  }

  // "7♥"
  function short(code) {
    const p = parts(code);
    return p ? RANK_SHOWN[p.rank] + SUITS[p.suit][1] : String(code);
  }

  function list(codes) {
    return (codes || []).map(short).join(" ");
  }

  function longList(codes) {
    return (codes || []).map(name).join(", ");
  }

  // One card: a button when `onClick` is given (with aria-pressed when `selectable`), else a
  // span with role img; either way its accessible name is the card's name.
  function element(code, onClick, selected) {
    const p = parts(code);
    const el = document.createElement(onClick ? "button" : "span");
    el.className = "card" + (p ? ` suit-${p.suit.toLowerCase()}` : "");
    el.dataset.code = code;
    el.textContent = short(code);
    if (onClick) {
      el.type = "button";
      el.setAttribute("aria-label", name(code));
      if (selected !== undefined) el.setAttribute("aria-pressed", selected ? "true" : "false");
      el.addEventListener("click", () => onClick(code, el));
    } else {
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", name(code));
    }
    return el;
  }

  const VERBS = {
    take_table_mournival: "takes the table mournival",
    declare_prial: "declares a prial",
    declare_mournival: "declares a mournival",
    declare_dead_pair: "declares a dead pair",
    declare_pair: "declares a pair",
    lie_down: "lies down",
    end_turn: "ends the turn",
    claim: "claims",
  };

  // An action of the deal record in words: "Ann: 8♦ takes 8♣" (the seat's own as "You").
  function actionText(a, names, mySeat) {
    const who = a.player === mySeat ? "You" : (names[a.player] || `Seat ${a.player}`);
    return `${who}: ${moveText(a)}`;
  }

  // A move without its player: "8♦ takes 8♣", "declares a prial Q♣ Q♦ Q♥".
  function moveText(a) {
    if (a.action === "capture" || a.action === "play_on_capture") {
      return `${list(a.hand)} takes ${list(a.table)}`;
    }
    if (a.action === "claim") {
      const kind = String(a.oversight || "").replace(/_/g, " ");
      return `claims ${list(a.cards)}${kind ? ` (${kind})` : ""}`;
    }
    const verb = VERBS[a.action] || String(a.action).replace(/_/g, " ");
    return a.cards && a.cards.length ? `${verb} ${list(a.cards)}` : verb;
  }

  // The same in words a screen reader says: "8♦" as "eight of diamonds".
  function moveSpoken(a) {
    if (a.action === "capture" || a.action === "play_on_capture") {
      return `${longList(a.hand)} takes ${longList(a.table)}`;
    }
    const verb = VERBS[a.action] || String(a.action).replace(/_/g, " ");
    return a.cards && a.cards.length ? `${verb}: ${longList(a.cards)}` : verb;
  }

  function cardsOf(a) {
    return [].concat(a.hand || [], a.table || [], a.cards || []);
  }

  // An element holding text only.
  function text(tag, content, cls) {
    const el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = content == null ? "" : String(content);
    return el;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
  }

  // The four-colour option, kept in the browser.
  function fourColourSwitch(box) {
    const key = "laugh-four-colour";
    const apply = () => document.body.classList.toggle("four-colour", box.checked);
    try { box.checked = localStorage.getItem(key) === "1"; } catch (e) { /* private mode */ }
    apply();
    box.addEventListener("change", () => {
      apply();
      try { localStorage.setItem(key, box.checked ? "1" : "0"); } catch (e) { /* ignore */ }
    });
  }

  function wsAddress() {
    return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws`;
  }

  // The link's fragment (a table's code, the organiser's), decoded: { text, bad }.  A
  // malformed one (%ZZ, a cut UTF-8 sequence) never throws: bad is true and text empty.
  function fragment() {
    const raw = location.hash.replace(/^#/, "");
    try {
      return { text: decodeURIComponent(raw).trim(), bad: false };
    } catch (e) {
      return { text: "", bad: raw.length > 0 };
    }
  }

  return { name, short, list, longList, element, actionText, moveText, moveSpoken, cardsOf,
    text, clear, fourColourSwitch, wsAddress, fragment };
})();

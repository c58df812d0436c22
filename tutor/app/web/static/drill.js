// A drill's page (tutor/app/web/drills.py). The server keeps the time and grades every answer;
// this script only shows what it was sent:
// - the countdown of a timed question (#clock, data-left: seconds left when the page was
//   sent), and when it reaches 0 the page loads again (the drill has gone on);
// - the claim key: the space bar on an empty answer starts a claim ("claim "), as at a table;
//   name its cards, then Enter (Enter on an empty answer passes);
// - the counting trainer's scroll one line in place (#scroll), asked of data-watch (a JSON
//   {"v", "line"} holding only the line shown now); the page loads again when it stops;
// - otherwise it asks data-watch every 1.5 s and loads again when the drill moved on (or the
//   teacher moved the class), never while an answer is being typed.
// Without it the forms work alone. No other script.
"use strict";
(function () {
  var drill = document.getElementById("drill");
  if (!drill) { return; }
  var url = drill.getAttribute("data-watch");
  var shown = drill.getAttribute("data-v");

  function reload() { window.location.reload(); }

  // the countdown
  var clock = document.getElementById("clock");
  var leftEl = document.getElementById("left");
  if (clock && leftEl) {
    var left = parseFloat(clock.getAttribute("data-left"));
    var start = window.performance.now();
    var timer = window.setInterval(function () {
      var now = left - (window.performance.now() - start) / 1000;
      if (now <= 0) {
        window.clearInterval(timer);
        leftEl.textContent = "0 s";
        clock.classList.add("low");
        window.setTimeout(reload, 300);
        return;
      }
      leftEl.textContent = Math.ceil(now) + " s";
      if (now <= 5) { clock.classList.add("low"); }
    }, 200);
  }

  // the claim key
  var form = document.querySelector("form[data-claim]");
  var answer = document.getElementById("answer");
  var keys = document.getElementById("keys");
  if (form && answer) {
    if (keys) {
      keys.textContent = "Space on an empty answer is the claim key: it starts a claim; name " +
        "its cards (9s 9d, or 9) and press Enter. Enter on an empty answer passes.";
    }
    answer.addEventListener("keydown", function (e) {
      if ((e.key === " " || e.code === "Space") && answer.value === "" && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        answer.value = "claim ";
      }
    });
  }

  // the scroll, one line in place
  var scroll = document.getElementById("scroll");
  if (scroll) {
    scroll.classList.add("live");
    var busy = false;
    var shownLine = function (text) {
      var items = scroll.getElementsByTagName("li");
      var li = items.length ? items[items.length - 1] : null;
      if (!li) { li = document.createElement("li"); scroll.appendChild(li); }
      if (li.textContent !== text) { li.textContent = text; }
    };
    var tick = function () {
      if (busy) { return; }
      busy = true;
      window.fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (d) {
        busy = false;
        if (!d) { return; }
        if (d.line === null || d.line === undefined) { reload(); return; }
        shownLine(d.line);
      }).catch(function () { busy = false; });
    };
    var items0 = scroll.getElementsByTagName("li");
    while (items0.length > 1) { scroll.removeChild(items0[0]); }
    window.setInterval(tick, 100);
    return;
  }

  // otherwise: follow the drill (and the class)
  var looking = false;
  window.setInterval(function () {
    if (looking || !url) { return; }
    looking = true;
    window.fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (d) {
      looking = false;
      if (!d || d.v === null || d.v === undefined || String(d.v) === shown) { return; }
      if (answer && answer.value && document.activeElement === answer) { return; }
      reload();
    }).catch(function () { looking = false; });
  }, 1500);
})();

// A page that follows the class: every 1.5 seconds it asks the server what it waits on
// (data-poll, a JSON {"v": ...} holding nothing of the lesson) and loads again when that moved
// from data-v (the teacher moved the class, or the dashboard has new answers). Never while
// the student types an answer. No other script.
"use strict";
(function () {
  var url = document.body.getAttribute("data-poll");
  if (!url) { return; }
  var shown = document.body.getAttribute("data-v");
  var busy = false;
  function look() {
    if (busy) { return; }
    busy = true;
    window.fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (d) {
      busy = false;
      if (!d || d.v === null || d.v === undefined || String(d.v) === shown) { return; }
      var typing = document.getElementById("answer");
      if (typing && typing.value && document.activeElement === typing) { return; }
      window.location.reload();
    }).catch(function () { busy = false; });
  }
  window.setInterval(look, 1500);
})();

// The class's pages: this browser remembers the student's token (localStorage), so that a
// closed tab comes back to their place from the join page. No other script runs on the pages.
"use strict";
(function () {
  var KEY = "laugh-class-token";
  var token = document.body.getAttribute("data-token");
  try {
    if (token) {
      window.localStorage.setItem(KEY, token);
      return;
    }
    var kept = window.localStorage.getItem(KEY);
    var back = document.getElementById("back");
    if (kept && back && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) {
      document.getElementById("back-link").setAttribute("href", "/s/" + kept + "/");
      back.hidden = false;
    }
  } catch (e) {
    // storage refused (a private window): the student joins again
  }
})();

// The course's pages: the question waiting (its answer field, or its first choice) has the
// focus when a page opens, also after a reload, so the keyboard alone goes on. No other script.
"use strict";
(function () {
  function focusWaiting() {
    var el = document.querySelector("[autofocus]");
    var now = document.activeElement;
    if (el && now !== el && (!now || now === document.body || now === document.documentElement)) {
      el.focus();
    }
  }
  focusWaiting();
  window.addEventListener("load", focusWaiting);
  window.addEventListener("pageshow", focusWaiting);
})();

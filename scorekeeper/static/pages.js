/* Small page helpers: the first dealer chosen by name, times in the phone's own time zone. */
(function () {
  "use strict";
  function dealerNames() {
    var select = document.getElementById("first_dealer");
    if (!select) { return; }
    var fields = document.querySelectorAll("input[name^='players-']");
    var any = false;
    fields.forEach(function (field, i) {
      var option = select.options[i];
      if (!option) { return; }
      var name = field.value.trim();
      option.textContent = name || "Player " + (i + 1);
      option.hidden = !name;
      any = any || !!name;
    });
    if (!any) { Array.prototype.forEach.call(select.options, function (o) { o.hidden = false; }); }
  }
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) { return; }
      el.textContent = when.toLocaleString([], { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target.name && event.target.name.indexOf("players-") === 0) { dealerNames(); }
  });
  /* A page that follows a job (a booklet being rendered) brings its progress in place. */
  function follow() {
    var every = parseFloat(document.body.getAttribute("data-refresh-every"));
    if (!every) { return; }
    setTimeout(function () {
      fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (r) { return r.text(); }).then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        document.querySelector("main").replaceWith(fresh.querySelector("main"));
        document.body.setAttribute("data-refresh-every", fresh.body.getAttribute("data-refresh-every") || "");
        follow();
      }, follow);
    }, every * 1000);
  }
  /* A PDF refused as busy (503): asked for again after its Retry-After, with jitter. */
  function retryLater() {
    var after = parseFloat(document.body.getAttribute("data-retry-after"));
    if (!after) { return; }
    setTimeout(function () { location.reload(); }, after * 1000 * (1 + Math.random() * 0.5));
  }
  /* Where the origin is secure (https, or this machine), the service worker keeps the pages this
     phone opened for a reload without the server; plain http gets none (the browser's rule). */
  function keepPages() {
    var url = document.body.getAttribute("data-worker");
    if (url && window.isSecureContext && navigator.serviceWorker) {
      navigator.serviceWorker.register(url, { scope: "/" }).catch(function () { /* the open page still works */ });
    }
  }
  document.addEventListener("DOMContentLoaded", function () { dealerNames(); localTimes(); follow(); retryLater(); keepPages(); });
}());

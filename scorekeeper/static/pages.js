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
  /* The home page lists the games this phone holds (offline.js keeps them), newest first: where
     the app opened from the home screen starts. */
  function myGames() {
    var section = document.querySelector("[data-my-games]"), games = [];
    if (!section) { return; }
    try {
      for (var i = 0; i < localStorage.length; i += 1) {
        var key = localStorage.key(i);
        if (key.indexOf("scorekeeper:copy:") === 0) { games.push([key.slice(17), JSON.parse(localStorage.getItem(key))]); }
      }
    } catch (e) { return; }
    games.sort(function (a, b) { return (b[1].record.created_at || "").localeCompare(a[1].record.created_at || ""); });
    games.forEach(function (game) {
      var copy = game[1], link = document.createElement("a"), item = document.createElement("li");
      link.href = game[0];
      link.textContent = (copy.record.title ? copy.record.title + ": " : "") + copy.book.players.join(", ");
      item.append(link, " ");
      var when = document.createElement("small");
      when.className = "muted";
      when.textContent = copy.name + " · started " + (copy.record.created_at || "").slice(0, 10);
      item.appendChild(when);
      section.querySelector("ul").appendChild(item);
    });
    section.hidden = !games.length;
  }
  document.addEventListener("DOMContentLoaded", function () { dealerNames(); localTimes(); follow(); retryLater(); keepPages(); myGames(); });
}());

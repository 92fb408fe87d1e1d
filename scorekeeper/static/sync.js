/* Scorekeeper on flaky Wi-Fi: every change goes through an outbox kept in this phone's storage,
   sent in order (after a reload too), each with its idempotency key so a retry counts once;
   and the page follows changes made on other phones. No framework. Without JavaScript the
   forms still post as plain forms. */
(function () {
  "use strict";

  var OUTBOX = "scorekeeper:outbox";
  var REFUSED = "scorekeeper:refused";
  var POLL_MS = 2000;
  /* With the live stream open, the poll only checks now and then that nothing was missed. */
  var STREAM_POLL_MS = 5000;
  var STREAM_RETRY_CAP_MS = 60000;
  var MAX_TRIES = 4;
  var SHOW_AFTER_MS = 1200;
  var TAPS = "scorekeeper:taps";
  var SAME_TAP_MS = 5000;
  var renderLater = null;
  var body = document.body;
  var statusEl = document.querySelector("[data-live-status]");
  var flushing = false;
  var navigating = false;
  var inFlight = null;
  var failures = 0;
  var etag = null;

  function load(key) { try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; } }
  function save(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* no storage */ }
    if (key === OUTBOX) { document.dispatchEvent(new CustomEvent("scorekeeper:outbox", { detail: value })); }
  }
  function newKey() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function setStatus(state) {
    document.dispatchEvent(new CustomEvent("scorekeeper:connection", { detail: state }));
    if (!statusEl) { return; }
    var text = {
      live: "● Live", reconnecting: "Reconnecting…", offline: "Offline: changes kept on this phone",
      failing: "Server error: a change is waiting (kept on this phone)"
    }[state];
    statusEl.hidden = false;
    statusEl.className = "live-status " + state;
    statusEl.textContent = text;
  }

  /* --- the outbox ------------------------------------------------------------------------ */

  function render() {
    var list = document.querySelector("[data-outbox-list]");
    if (list) {
      var box = load(OUTBOX);
      /* A change being sent at once while online is not news: the box shows what is still
         waiting after a moment, or anything while offline or after a failed try. */
      var now = Date.now();
      var waiting = box.some(function (item) { return item.tries || now - (item.at || 0) >= SHOW_AFTER_MS; });
      if (box.length && !waiting && navigator.onLine) {
        clearTimeout(renderLater);
        renderLater = setTimeout(render, SHOW_AFTER_MS);
        box = [];
      }
      list.hidden = !box.length;
      list.textContent = "";
      if (box.length) {
        var title = document.createElement("strong");
        title.textContent = box.length + (box.length === 1 ? " change" : " changes") + " waiting to be sent:";
        list.appendChild(title);
        var ul = document.createElement("ul");
        box.forEach(function (item) {
          var li = document.createElement("li");
          li.textContent = item.label;
          ul.appendChild(li);
        });
        list.appendChild(ul);
      }
    }
    var refusedEl = document.querySelector("[data-refused]");
    if (refusedEl) {
      var refused = load(REFUSED);
      refusedEl.hidden = !refused.length;
      refusedEl.textContent = "";
      refused.forEach(function (item, index) {
        var p = document.createElement("p");
        p.textContent = "Not saved: " + item.label + ". " + item.error + " ";
        if (item.again) {
          var yes = el("button", "small", "Yes, record it");
          yes.addEventListener("click", function () { dismissRefused(index); sendAgain(item.again); });
          p.append(yes, " ");
        }
        if (item.reapply) {
          var a = document.createElement("a");
          a.href = item.reapply;
          a.textContent = "Open it to re-apply";
          p.appendChild(a);
          p.appendChild(document.createTextNode(" "));
        }
        var dismiss = el("button", "secondary small", "Dismiss");
        dismiss.addEventListener("click", function () { dismissRefused(index); });
        p.appendChild(dismiss);
        refusedEl.appendChild(p);
      });
    }
  }

  function dismissRefused(index) {
    var all = load(REFUSED);
    all.splice(index, 1);
    save(REFUSED, all);
    render();
  }

  function enqueue(form) {
    var data = new URLSearchParams(new FormData(form));
    var item = {
      id: data.get("idem"), url: form.action, body: data.toString(), from: location.pathname,
      label: form.getAttribute("data-outbox"), replace: form.hasAttribute("data-outbox-replace"), at: Date.now()
    };
    var box = load(OUTBOX);
    if (!box.some(function (queued) { return queued.id === item.id; })) {
      if (item.replace) {
        box = box.filter(function (queued) { return !(queued.replace && queued.url === item.url && queued.id !== inFlight); });
      }
      box.push(item);
      save(OUTBOX, box);
    }
    var idem = form.querySelector("input[name=idem]");
    if (idem) { idem.value = newKey(); }
    render();
    return item;
  }

  function remove(id) {
    save(OUTBOX, load(OUTBOX).filter(function (item) { return item.id !== id; }));
  }

  function freshCsrf() {
    return fetch(body.getAttribute("data-csrf-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.json(); })
      .then(function (data) { return data.token; });
  }

  /* Send one item: resolves to the server's answer, or "later" when it could not be delivered. */
  function send(item, retried) {
    var params = new URLSearchParams(item.body);
    if (params.has("waited")) { params.set("waited", String(Math.max(0, Date.now() - (item.at || 0)))); }
    item.body = params.toString();
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json", "X-Requested-With": "outbox" },
      body: item.body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (response.status === 400 && data.csrf && !retried) {
          return freshCsrf().then(function (token) {
            var params = new URLSearchParams(item.body);
            params.set("csrf_token", token);
            item.body = params.toString();
            var box = load(OUTBOX).map(function (queued) { return queued.id === item.id ? item : queued; });
            save(OUTBOX, box);
            return send(item, true);
          });
        }
        if (response.ok) { return data; }
        if (response.status >= 500 || response.status === 0) { return "later"; }
        if (!data || typeof data !== "object") { data = {}; }
        data.ok = false;
        data.status = response.status;
        if (!data.error) { data.error = "refused by the server (" + response.status + ")"; }
        return data;
      });
    }, function () { return "offline"; });
  }

  /* The game an item changes (its link's token): one game's failing change never holds up another's. */
  function gameOf(item) {
    var match = /\/t\/[^/]+\//.exec(item.url);
    return match ? match[0] : item.url;
  }

  function refuse(item, result) {
    var refused = load(REFUSED);
    var reapply = null;
    var cards = new URLSearchParams(item.body).get("cards");
    if (result.status === 409 && item.from.indexOf("/seat/") !== -1) {
      reapply = item.from + "?cards=" + encodeURIComponent(cards || "");
    }
    refused.push({ label: item.label, error: result.error, reapply: reapply, again: result.ask ? item : null });
    save(REFUSED, refused);
  }

  /* The player said it was a second one: the same change again, marked as confirmed. */
  function sendAgain(item) {
    var params = new URLSearchParams(item.body), box = load(OUTBOX);
    item.id = newKey();
    params.set("again", "1");
    params.set("idem", item.id);
    item.body = params.toString();
    item.at = Date.now();
    box.push(item);
    save(OUTBOX, box);
    flush();
  }

  /* Send what waits, oldest first. A refusal (4xx) is shown and leaves the queue; a server error
     (5xx) holds back only the later changes of the same game, and after MAX_TRIES it is shown
     as not saved; no answer at all (offline) stops the round until the next try. */
  function flush(justSent, form) {
    if (flushing) { return; }
    flushing = true;
    var delivered = 0;
    var held = {};
    var serverError = false;
    var unreachable = false;
    function next() {
      var box = load(OUTBOX);
      for (var i = 0; i < box.length; i += 1) { if (!held[gameOf(box[i])]) { return box[i]; } }
      return null;
    }
    function step() {
      var item = next();
      if (!item) { return Promise.resolve(); }
      inFlight = item.id;
      return send(item).then(function (result) {
        inFlight = null;
        if (result === "offline") {
          unreachable = true;
          setStatus(navigator.onLine ? "reconnecting" : "offline");
          return null;
        }
        if (result === "later") {
          serverError = true;
          item.tries = (item.tries || 0) + 1;
          if (item.tries < MAX_TRIES) {
            save(OUTBOX, load(OUTBOX).map(function (queued) { return queued.id === item.id ? item : queued; }));
            held[gameOf(item)] = true;
            return step();
          }
          result = { ok: false, status: 500, error: "The server failed to save it " + MAX_TRIES + " times. Check the game's page, then enter it again." };
        }
        remove(item.id);
        if (result.ok) {
          delivered += 1;
          document.dispatchEvent(new CustomEvent("scorekeeper:delivered", { detail: { item: item, result: result } }));
          if (justSent && item.id === justSent.id) {
            navigating = true;
            location.assign(result.redirect);
            return null;
          }
        } else if (justSent && item.id === justSent.id && form) {
          showRefusal(form, result);
        } else {
          refuse(item, result);
        }
        render();
        return step();
      });
    }
    step().then(function () {
      flushing = false;
      if (!navigating) { release(); }
      if (!navigating && !unreachable) { setStatus(serverError ? "failing" : "live"); }
      render();
      if (delivered && !navigating) { followChange(); }
    }, function () { flushing = false; release(); });
  }

  /* A refusal of what this page just sent: shown beside the field, the entry kept, a way to re-apply. */
  function showRefusal(form, result) {
    form.querySelectorAll(".js-error").forEach(function (el) { el.remove(); });
    var message = document.createElement("p");
    message.className = "error js-error";
    message.setAttribute("role", "alert");
    message.textContent = result.error;
    if (!form.dispatchEvent(new CustomEvent("scorekeeper:refused", { detail: result, cancelable: true }))) { return; }
    try { sessionStorage.removeItem(SENT); } catch (e) { /* no storage */ }
    if (result.ask) { ask(form, result.ask); return; }
    if (result.current) {
      message.textContent += " Now recorded: " + (result.current.cards.join(" ") || "went out") +
        ". Save again to replace it with your entry.";
      var replaces = form.querySelector("input[name=replaces]");
      if (replaces) { replaces.value = String(result.current.entry); }
    }
    var field = result.field && form.querySelector("[name=" + result.field + "]:not([type=hidden])");
    var box = field && field.closest(".field");
    if (box) {
      box.appendChild(message);
    } else {
      form.parentNode.querySelectorAll(".js-error").forEach(function (el) { el.remove(); });
      form.parentNode.insertBefore(message, form.nextSibling);
    }
    message.scrollIntoView({ block: "center" });
  }

  /* --- a slip of the finger ---------------------------------------------------------------- */

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (tag === "button") { node.type = "button"; }
    node.className = className;
    node.textContent = text;
    return node;
  }

  /* A tap that may repeat the one before (the same pressure twice within seconds) is asked
     about first, one tap either way; the server asks the same when the first came from another phone. */
  function ask(form, question) {
    var where = form.closest("[data-ask-here]") || form.parentNode;
    where.parentNode.querySelectorAll(".ask").forEach(function (node) { node.remove(); });
    var box = el("div", "ask", ""), row = el("div", "ask-row", "");
    var yes = el("button", "", "Yes, a second one"), no = el("button", "secondary", "No, the same one");
    box.setAttribute("role", "alert");
    yes.addEventListener("click", function () {
      box.remove();
      form.querySelector("input[name=again]").value = "1";
      submitChange(form, null);
      form.querySelector("input[name=again]").value = "";
    });
    no.addEventListener("click", function () { box.remove(); followChange(false); });  /* what the other phone recorded shows */
    row.append(yes, no);
    box.append(el("p", "", question), row);
    where.after(box);
    box.scrollIntoView({ block: "nearest" });
    yes.focus();
  }

  /* True when the same change was tapped moments ago on this phone (kept over the reload after a save). */
  function tappedJustNow(form) {
    var taps = {}, now = Date.now(), data = new FormData(form);
    var key = form.action + "|" + data.get("hand") + "|" + data.get("player"), before;
    try { taps = JSON.parse(sessionStorage.getItem(TAPS) || "{}"); } catch (e) { /* no storage */ }
    before = taps[key];
    taps = {};
    taps[key] = now;
    try { sessionStorage.setItem(TAPS, JSON.stringify(taps)); } catch (e) { /* no storage */ }
    return now - before <= SAME_TAP_MS;
  }

  /* One tap, one change: its button stays disabled until the change is stored, refused or kept
     in the outbox, so a double tap cannot send it twice. */
  function submitChange(form, button) {
    var item = enqueue(form);
    form.removeAttribute("data-dirty");
    form.querySelectorAll("textarea, input:not([type=hidden])").forEach(function (field) { field.defaultValue = field.value; });
    if (button) { button.disabled = true; button.setAttribute("data-busy", ""); }
    flush(item, form);
  }

  function release() {
    document.querySelectorAll("button[data-busy]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute("data-busy");
    });
  }

  /* --- following the game live ------------------------------------------------------------ */

  function busy() {
    var active = document.activeElement;
    if (active && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "hidden") { return true; }
    if (document.querySelector("form[data-dirty], main .js-error, main .conflict, main .ask, main [data-versus]")) { return true; }
    return load(OUTBOX).length > 0;
  }

  function changed(field) {
    if (field.type === "checkbox") { return field.checked !== field.defaultChecked; }
    if (field.tagName === "SELECT") {
      var first = [].filter.call(field.options, function (o) { return o.defaultSelected; })[0] || field.options[0];
      return field.value !== (first ? first.value : "");
    }
    return field.value !== field.defaultValue;
  }

  /* What the player typed and has not sent, by form and field, to carry over a swap of the page. */
  function typed(root) {
    var kept = {};
    root.querySelectorAll("form textarea, form input:not([type=hidden]):not([type=password]):not([type=file]), form select").forEach(function (field) {
      if (field.name && changed(field) && !field.closest("[data-preview]")) {
        kept[(field.form.getAttribute("action") || "") + "|" + field.name] = field.type === "checkbox" ? field.checked : field.value;
      }
    });
    return kept;
  }

  function fieldOf(root, key) {
    var at = key.indexOf("|"), action = key.slice(0, at), name = key.slice(at + 1), found = null;
    root.querySelectorAll("form").forEach(function (form) {
      var field = (form.getAttribute("action") || "") === action && form.elements.namedItem(name);
      if (field && field.tagName) { found = field; }
    });
    return found;
  }

  function valueOf(field) { return field.type === "checkbox" ? field.checked : field.value; }

  function retype(root, kept) {
    Object.keys(kept).forEach(function (key) {
      var field = fieldOf(root, key);
      if (!field) { return; }
      if (field.type === "checkbox") { field.checked = kept[key]; } else { field.value = kept[key]; }
      field.form.setAttribute("data-dirty", "");
      if (field.closest("details")) { field.closest("details").open = true; }
    });
  }

  /* Typed and not yet saved, it survives a reload too: kept for this page in this tab. A form
     sent is forgotten once the next page shows no refusal; a refused one keeps what was typed. */
  var TYPED = "scorekeeper:typed:" + location.pathname, SENT = TYPED + ":sent";
  function readTyped() { try { return JSON.parse(sessionStorage.getItem(TYPED) || "{}"); } catch (e) { return {}; } }
  function keepTyped(event) {
    var before = readTyped(), kept = typed(document);
    Object.keys(before).forEach(function (key) {  /* restored after a refusal, still as typed */
      var field = fieldOf(document, key);
      if (!(key in kept) && field && valueOf(field) === before[key]) { kept[key] = before[key]; }
    });
    try {
      sessionStorage.setItem(TYPED, JSON.stringify(kept));
      if (event && event.type === "submit") { sessionStorage.setItem(SENT, event.target.getAttribute("action") || ""); }
    } catch (e) { /* no storage */ }
  }
  function restoreTyped() {
    var kept = readTyped(), sent = null;
    try { sent = sessionStorage.getItem(SENT); sessionStorage.removeItem(SENT); } catch (e) { /* no storage */ }
    if (sent !== null && !document.querySelector("main .has-error, main .error, main .flash.error, main .conflict")) {
      Object.keys(kept).forEach(function (key) { if (key.indexOf(sent + "|") === 0) { delete kept[key]; } });
      try { sessionStorage.setItem(TYPED, JSON.stringify(kept)); } catch (e) { /* no storage */ }
    }
    retype(document, kept);
  }

  /* Bring in what changed: the page is fetched again and its content swapped in place. While the
     player is busy the notice says so instead; its Show swaps too, keeping what was typed. */
  function followChange(shown) {
    if (navigating || flushing) { return; }  /* its own change is on the way (and then, maybe, to its next page) */
    if (busy() && !shown) {
      var stale = document.querySelector("[data-stale]");
      if (stale) { stale.hidden = false; }
      return;
    }
    fetch(location.href, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (response.redirected || !response.ok) { location.assign(response.url); return null; }
      return response.text();
    }).then(function (html) {
      if (html === null || navigating || (busy() && !shown)) { return; }
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var main = document.querySelector("main");
      var freshMain = fresh.querySelector("main");
      if (!main || !freshMain) { return; }
      var kept = typed(main), focused = document.activeElement && document.activeElement.id;
      /* An entry page of a hand another phone just completed moves on with the table. */
      var done = fresh.querySelector("form[data-follow]:not([data-open])");
      if (done && main.querySelector("form[data-follow][data-open]")) {
        navigating = true;
        location.assign(done.getAttribute("data-follow"));
        return;
      }
      main.replaceWith(freshMain);
      retype(freshMain, kept);
      if (focused && document.getElementById(focused)) { document.getElementById(focused).focus(); }
      ["data-version", "data-version-url"].forEach(function (name) {
        var value = fresh.body.getAttribute(name);
        if (value !== null) { body.setAttribute(name, value); }
      });
      document.title = fresh.title;
      document.dispatchEvent(new CustomEvent("scorekeeper:content", { detail: freshMain }));
    }).catch(function () { /* the next poll tries again */ });
  }

  function bindForms(root) {
    render();
    root.querySelectorAll("form[data-outbox]").forEach(function (form) {
      form.addEventListener("input", function () { form.setAttribute("data-dirty", ""); });
      form.addEventListener("submit", function (event) {
        if (!window.fetch || !window.crypto) { return; }
        event.preventDefault();
        var button = event.submitter || form.querySelector("button[type=submit]");
        if (button && button.disabled) { return; }
        var question = form.getAttribute("data-ask");
        var again = form.querySelector("input[name=again]");
        if (question && tappedJustNow(form) && !(again && again.value === "1")) {
          ask(form, question);
          return;
        }
        submitChange(form, button);
      });
    });
    var stale = root.querySelector("[data-stale] button");
    if (stale) { stale.addEventListener("click", function () { followChange(true); }); }
  }

  function poll() {
    var url = body.getAttribute("data-version-url");
    if (!url) { return; }
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { credentials: "same-origin", headers: headers, cache: "no-store" }).then(function (response) {
      failures = 0;
      if (load(OUTBOX).length) { flush(); } else { setStatus("live"); }
      if (response.status === 304) { return; }
      etag = response.headers.get("ETag");
      return response.json().then(function (data) {
        if (String(data.version) !== body.getAttribute("data-version")) { followChange(); }
      });
    }, function () {
      failures += 1;
      setStatus(!navigator.onLine || failures > 2 ? "offline" : "reconnecting");
    });
  }

  document.addEventListener("scorekeeper:content", function (event) { bindForms(event.detail); });
  /* A change still on this phone is undone by taking it out of the outbox (unless on its way). */
  document.addEventListener("scorekeeper:withdraw", function (event) {
    if (event.detail !== inFlight) { remove(event.detail); render(); }
  });
  document.addEventListener("input", keepTyped);
  document.addEventListener("change", keepTyped);
  document.addEventListener("submit", keepTyped, true);
  window.addEventListener("pagehide", function () { keepTyped(); });  /* typed before this script ran */
  /* A save's confirmation comes in the address (?saved=&said=): shown once, then taken out. */
  function forgetConfirmation() {
    if (!/[?&]saved=/.test(location.search) || !window.URLSearchParams || !history.replaceState) { return; }
    var params = new URLSearchParams(location.search);
    params.delete("saved");
    params.delete("said");
    var rest = params.toString();
    history.replaceState(history.state, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }

  /* Changes come by the live stream (server-sent events), else by the 2 s poll. A failed stream
     is tried again after a random wait under a doubling cap (full jitter): never a storm. */
  var pollTimer = null;
  var stream = null;
  var streamFailures = 0;
  var streamRetry = null;

  function pollEvery(ms) {
    if (pollTimer) { clearInterval(pollTimer); }
    pollTimer = setInterval(poll, ms);
  }

  function openStream() {
    var url = body.getAttribute("data-live-url");
    if (!url || !window.EventSource || stream || document.hidden) { return; }
    stream = new EventSource(url);
    stream.addEventListener("version", function (event) {
      streamFailures = 0;
      pollEvery(STREAM_POLL_MS);
      failures = 0;
      if (load(OUTBOX).length) { flush(); } else { setStatus("live"); }
      if (String(event.data) !== body.getAttribute("data-version")) { followChange(); }
    });
    stream.addEventListener("error", function () {
      closeStream();
      pollEvery(POLL_MS);
      poll();
      streamFailures += 1;
      var cap = Math.min(STREAM_RETRY_CAP_MS, 1000 * Math.pow(2, streamFailures));
      streamRetry = setTimeout(openStream, Math.random() * cap);
    });
  }

  function closeStream() {
    if (streamRetry) { clearTimeout(streamRetry); streamRetry = null; }
    if (stream) { stream.close(); stream = null; }
  }

  document.addEventListener("DOMContentLoaded", function () {
    forgetConfirmation();
    restoreTyped();
    bindForms(document);
    if (body.getAttribute("data-version-url")) {
      setStatus(navigator.onLine ? "live" : "offline");
      pollEvery(POLL_MS);
      openStream();
      document.addEventListener("visibilitychange", function () {
        if (document.hidden) { closeStream(); pollEvery(POLL_MS); return; }
        poll();
        openStream();
      });
    }
    window.addEventListener("online", function () { flush(); poll(); openStream(); });
    window.addEventListener("offline", function () { setStatus("offline"); });
    window.addEventListener("storage", function (event) {
      if (event.key === OUTBOX || event.key === REFUSED) { render(); }
    });
    if (load(OUTBOX).length) { flush(); }
  });
})();

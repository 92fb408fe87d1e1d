/* Scorekeeper at the table: the count helper and the leftovers pad. No framework.
   Everything works without this file; it only makes tapping faster. */
(function () {
  "use strict";

  /* The count (2-sequence): kept per game and hand in this phone's storage, so a refresh loses nothing. */
  function setUpCount(section) {
    var key = "count:" + section.getAttribute("data-count-key");
    var total = section.querySelector(".count-total");
    var draw = section.querySelector(".count-draw");
    function read() { try { return parseInt(localStorage.getItem(key) || "0", 10) || 0; } catch (e) { return 0; } }
    function write(value) {
      try { localStorage.setItem(key, String(value)); } catch (e) { /* private mode: keep it on screen only */ }
      total.textContent = String(value);
      draw.textContent = String(value);
    }
    section.hidden = false;
    write(read());
    section.querySelectorAll(".count-add").forEach(function (button) {
      button.addEventListener("click", function () { write(read() + parseInt(button.getAttribute("data-add"), 10)); });
    });
    section.querySelector(".count-reset").addEventListener("click", function () { write(0); });
  }

  function drop(root, selector) { root.querySelectorAll(selector).forEach(function (el) { el.remove(); }); }

  /* Leftovers: tap ranks to add chips, tap a chip to remove it; the score comes from the server's engine.
     The tabs switch players without saving, so one phone may tap in the whole hand and save it once
     (each player still gets an entry of their own), or each phone only its own player. */
  function setUpPad(form) {
    function $(sel) { return form.querySelector(sel); }
    var input = $("input[name=cards]"), wentOut = $("input[name=went_out]"), replaces = $("input[name=replaces]");
    var chips = $("[data-chips]"), live = $("[data-live]"), pad = $("[data-pad]"), suits = $("[data-suits]");
    var url = form.getAttribute("data-preview"), hand = form.getAttribute("data-hand");
    var tabs = [].slice.call(document.querySelectorAll(".seat-tab[data-seat]"));
    var seat = form.getAttribute("data-seat");
    var draftKey = "drafts:" + form.getAttribute("data-hand-url");
    var drafts = {}, pending = null;
    /* Each message on the live line bumps this: a preview answered after a newer message is dropped. */
    var said = 0;

    function tabOf(which) { return tabs.filter(function (tab) { return tab.getAttribute("data-seat") === String(which); })[0]; }
    function playerOf(which) { return tabOf(which).getAttribute("data-player"); }
    function recorded(which) {
      var tab = tabOf(which), cards = tab.getAttribute("data-recorded") || "";
      return { cards: cards, out: tab.hasAttribute("data-entry") && !cards, entry: tab.getAttribute("data-entry") || "" };
    }
    function norm(entry) { return entry.cards.toUpperCase().split(/[\s,]+/).filter(Boolean).join(" ") + "|" + entry.out; }
    function dirty(which) { return drafts[which] && norm(drafts[which]) !== norm(recorded(which)); }
    function waiting() { return tabs.map(function (tab) { return tab.getAttribute("data-seat"); }).filter(dirty); }

    /* Tapped entries survive a refresh or a trip back, unless what is recorded changed meanwhile. */
    function saveDrafts() {
      var kept = {};
      waiting().forEach(function (which) { kept[which] = drafts[which]; drafts[which].base = norm(recorded(which)); });
      try { localStorage.setItem(draftKey, JSON.stringify(kept)); } catch (e) { /* no storage */ }
    }
    function restoreDrafts() {
      var stored = {}, shown = { cards: input.value, out: wentOut.checked };
      try { stored = JSON.parse(localStorage.getItem(draftKey)) || {}; } catch (e) { /* no storage */ }
      tabs.forEach(function (tab) {
        var which = tab.getAttribute("data-seat");
        if (stored[which] && stored[which].base === norm(recorded(which))) { drafts[which] = stored[which]; }
      });
      if (norm(shown) !== norm(recorded(seat)) || $(".error") || !drafts[seat]) { drafts[seat] = shown; }
      input.value = drafts[seat].cards;
      wentOut.checked = drafts[seat].out;
    }

    var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
    function label(token) {
      var match = /^(10|[2-9AJQKT])([SHDC])$/i.exec(token);
      return match ? match[1].toUpperCase() + SUITS[match[2].toUpperCase()] : token.toUpperCase();
    }

    function tokens() { return input.value.replace(/,/g, " ").split(/\s+/).filter(Boolean); }
    function setTokens(list) { input.value = list.join(" "); render(); }

    /* The tabs show what waits to be saved (a count, or out); the one Save says whose entries it saves. */
    function showState() {
      var list = waiting();
      tabs.forEach(function (tab) {
        var which = tab.getAttribute("data-seat"), draft = dirty(which) && drafts[which];
        tab.classList.toggle("tapped", !!draft);
        tab.querySelector("[data-tab-mark]").textContent = draft ? " (" + (draft.out ? "out" : draft.cards.split(/\s+/).filter(Boolean).length) + ")"
          : (tab.hasAttribute("data-entry") ? " \u2713" : "");
      });
      if (list.length) { form.setAttribute("data-dirty", ""); } else { form.removeAttribute("data-dirty"); }
      $("[data-save]").textContent = list.length > 1 ? "Save " + list.length + " players\u2019 leftovers"
        : "Save " + playerOf(list.length ? list[0] : seat) + "\u2019s leftovers";
    }

    /* In a game that needs suits, the last rank tapped waits for its suit (shown so, and hinted). */
    var BARE = /^(10|[2-9AJQKT])$/i, suitRanks = suits ? suits.getAttribute("data-suit-ranks").trim().split(/\s+/) : [];
    function needsSuit(token) {
      return BARE.test(token) && (suitRanks[0] === "all" || suitRanks.indexOf(token.toUpperCase().replace("T", "10")) >= 0);
    }
    function waitingRank(list) { return list.length && needsSuit(list[list.length - 1]) ? list[list.length - 1] : null; }

    function render() {
      var list = tokens();
      drafts[seat] = { cards: input.value, out: wentOut.checked };
      pad.querySelector("[data-out]").setAttribute("aria-pressed", String(wentOut.checked));
      chips.textContent = "";
      if (wentOut.checked && !list.length) {
        var out = document.createElement("span");
        out.className = "chip out";
        out.textContent = "OUT";
        chips.appendChild(out);
      }
      list.forEach(function (token, index) {
        var chip = document.createElement("button");
        chip.type = "button";
        chip.className = "chip" + (needsSuit(token) ? " waiting" : "");
        chip.textContent = label(token) + (needsSuit(token) ? "?" : "");
        chip.setAttribute("aria-label", "Remove " + label(token));
        chip.addEventListener("click", function () {
          var next = tokens();
          next.splice(index, 1);
          setTokens(next);
        });
        chips.appendChild(chip);
      });
      saveDrafts();
      showState();
      clearTimeout(pending);
      said += 1;
      if (waitingRank(list)) {
        say("live", "Now the suit of " + waitingRank(list) + ".");
      } else if (list.length) {
        if (!scoredHere()) { pending = setTimeout(preview, 120); }
      } else {
        say("live", wentOut.checked ? "Went out: 0" : "Tap the cards left, or OUT.");
      }
    }

    function say(className, text) {
      said += 1;
      clearTimeout(pending);
      live.className = className;
      live.textContent = text;
    }

    function show(data) {
      if (data.error) {
        live.className = "live bad";
        live.textContent = data.error;
        return;
      }
      live.className = "live";
      live.textContent = "";
      var strong = document.createElement("span");
      strong.className = "total";
      strong.textContent = "= " + data.total;
      live.appendChild(strong);
      if (data.covering) { live.appendChild(document.createTextNode("  (" + data.covering + ")")); }
    }

    function scoredHere() {
      var scored = window.scorekeeperLeftovers && window.scorekeeperLeftovers(tokens());
      if (scored) { show(scored); }
      return !!scored;
    }

    /* The score of what is tapped: on the phone, from the game's rule book (offline.js), or
       else asked of the server's engine. */
    function preview() {
      var asked = said;
      if (scoredHere()) { return; }
      fetch(url + "?cards=" + encodeURIComponent(tokens().join(" ")), { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (data) { if (asked === said) { show(data); } })
        .catch(function () { if (asked === said) { say("live", "Score shown after saving (offline)."); } });
    }

    /* Another player, without saving: what was tapped for this one stays in its tab. */
    function switchTo(which) {
      var tab = tabOf(which);
      seat = String(which);
      var entry = drafts[seat] || recorded(seat);
      input.value = entry.cards;
      wentOut.checked = entry.out;
      replaces.value = recorded(seat).entry;
      form.setAttribute("data-seat", seat);
      form.setAttribute("action", tab.href);
      form.setAttribute("data-outbox", "Leftovers: " + playerOf(seat) + ", hand " + hand);
      $("[data-player-name]").textContent = playerOf(seat);
      drop(form, "[data-correcting], .error");
      tabs.forEach(function (other) {
        other.classList.toggle("current", other === tab);
        if (other === tab) { other.setAttribute("aria-current", "page"); } else { other.removeAttribute("aria-current"); }
      });
      try { history.replaceState(null, "", tab.href); } catch (e) { /* the address stays */ }
      render();
    }

    /* Several players tapped: one save of them all through the hand's route, each with its own fields. */
    function prepareSubmit() {
      drop(form, "[data-hand-field]");
      var list = waiting();
      form.setAttribute("action", tabOf(seat).href);
      if (!list.length || (list.length === 1 && list[0] === seat)) { return; }
      function add(name, value) {
        var field = document.createElement("input");
        field.type = "hidden";
        field.name = name;
        field.value = value;
        field.setAttribute("data-hand-field", "");
        form.appendChild(field);
      }
      add("seats", list);
      list.forEach(function (which) {
        add("cards-" + which, drafts[which].cards);
        add("out-" + which, drafts[which].out ? "y" : "");
        add("replaces-" + which, recorded(which).entry);
      });
      form.setAttribute("action", form.getAttribute("data-hand-url"));
      form.setAttribute("data-outbox", "Leftovers: " + list.map(playerOf) + ", hand " + hand);
    }

    /* A refused save: its player is shown, every tap kept; a conflict shows both entries (from the
       page's template), and one tap chooses which stands. */
    function refused(event) {
      var result = event.detail;
      if (result.seat !== undefined) { switchTo(result.seat); }
      var template = document.querySelector("[data-versus-template]");
      if (!result.current || !template) { return; }
      event.preventDefault();
      drop(document, "[data-versus], .js-error");
      var mine = drafts[seat], tab = tabOf(seat), theirs = result.current.cards.join(" ");
      tab.setAttribute("data-entry", String(result.current.entry));
      tab.setAttribute("data-recorded", theirs);
      replaces.value = String(result.current.entry);
      var box = template.content.firstElementChild.cloneNode(true);
      box.querySelector(".why").textContent = "Not saved: " + result.error;
      box.querySelector("[data-theirs]").textContent = theirs || "went out";
      box.querySelector("[data-mine]").textContent = mine.out ? "went out" : mine.cards;
      box.querySelector("[data-keep]").addEventListener("click", function () { box.remove(); delete drafts[seat]; switchTo(seat); });
      box.querySelector("[data-use]").addEventListener("click", function () {
        box.remove();
        drafts[seat] = mine;
        switchTo(seat);
        form.requestSubmit();
      });
      form.parentNode.insertBefore(box, form);
      box.scrollIntoView({ block: "nearest" });
      showState();
    }

    pad.hidden = false;
    form.classList.add("js-pad");
    $(".field-cards label").className = "visually-hidden";
    document.querySelectorAll("[data-no-pad]").forEach(function (el) { el.hidden = true; });
    pad.querySelectorAll("button[data-card]").forEach(function (button) {
      button.addEventListener("click", function () {
        if (wentOut.checked) {  /* a tap never silently replaces an OUT */
          say("live", $("[data-player-name]").textContent + " went out. Tap OUT again to give cards instead.");
          return;
        }
        if (waitingRank(tokens())) {  /* the suit goes to the rank that waits for it, never to the next */
          say("live", "First the suit of " + waitingRank(tokens()) + ", then the next card.");
          return;
        }
        setTokens(tokens().concat([button.getAttribute("data-card")]));
      });
    });
    if (suits) {
      suits.hidden = false;
      suits.querySelectorAll("button[data-suit]").forEach(function (button) {
        button.addEventListener("click", function () {
          var list = tokens();
          var last = list.length - 1;
          if (last < 0 || !BARE.test(list[last])) {
            say("live", "Tap a rank first, then its suit.");
            return;
          }
          list[last] += button.getAttribute("data-suit");
          setTokens(list);
        });
      });
    }
    /* OUT moves on to the next player with nothing recorded or tapped; OUT again takes it back. */
    pad.querySelector("[data-out]").addEventListener("click", function () {
      if (wentOut.checked) { wentOut.checked = false; render(); return; }
      wentOut.checked = true;
      setTokens([]);
      var order = tabs.map(function (tab) { return tab.getAttribute("data-seat"); });
      for (var step = 1; step < order.length; step += 1) {
        var which = order[(order.indexOf(seat) + step) % order.length];
        if (!drafts[which] && !tabOf(which).hasAttribute("data-entry")) { switchTo(which); return; }
      }
    });
    tabs.forEach(function (tab) {
      tab.addEventListener("click", function (event) {
        event.preventDefault();
        switchTo(tab.getAttribute("data-seat"));
      });
    });
    wentOut.addEventListener("change", function () { if (wentOut.checked) { setTokens([]); } else { render(); } });
    input.addEventListener("input", render);
    form.addEventListener("submit", prepareSubmit);
    form.addEventListener("scorekeeper:refused", refused);
    restoreDrafts();
    render();
  }

  /* A game's form shows only the options of the game chosen (all are shown without this file). */
  function setUpRuleChoice(select) {
    var form = select.form;
    function show() {
      form.querySelectorAll("[data-games]").forEach(function (field) {
        field.hidden = field.getAttribute("data-games").split(" ").indexOf(select.value) < 0;
      });
    }
    select.addEventListener("change", show);
    show();
  }

  function setUp(root) {
    root.querySelectorAll("select[name=rules]").forEach(setUpRuleChoice);
    root.querySelectorAll("[data-count-key]").forEach(setUpCount);
    root.querySelectorAll("form[data-preview]").forEach(setUpPad);
  }

  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  document.addEventListener("scorekeeper:content", function (event) { setUp(event.detail); });
})();

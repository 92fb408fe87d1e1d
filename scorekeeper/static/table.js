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

  /* Leftovers: tap ranks to add chips, tap a chip to remove it; the score comes from the server's engine. */
  function setUpPad(form) {
    var input = form.querySelector("input[name=cards]");
    var wentOut = form.querySelector("input[name=went_out]");
    var chips = form.querySelector("[data-chips]");
    var live = form.querySelector("[data-live]");
    var pad = form.querySelector("[data-pad]");
    var url = form.getAttribute("data-preview");
    var pending = null;
    var draftKey = "draft:" + location.pathname;
    var base = input.value + "|" + wentOut.checked;

    /* A half-entered hand survives a refresh or a trip back, unless what is recorded changed meanwhile. */
    function saveDraft() {
      try { localStorage.setItem(draftKey, JSON.stringify({ base: base, cards: input.value, out: wentOut.checked })); } catch (e) { /* no storage */ }
    }
    function restoreDraft() {
      try {
        var draft = JSON.parse(localStorage.getItem(draftKey) || "null");
        if (draft && draft.base === base && !form.querySelector(".error")) {
          input.value = draft.cards;
          wentOut.checked = draft.out;
        }
      } catch (e) { /* no storage */ }
    }

    var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
    var suits = form.querySelector("[data-suits]");
    function label(token) {
      var match = /^(10|[2-9AJQKT])([SHDC])$/i.exec(token);
      return match ? match[1].toUpperCase() + SUITS[match[2].toUpperCase()] : token.toUpperCase();
    }

    function tokens() { return input.value.replace(/,/g, " ").split(/\s+/).filter(Boolean); }
    function setTokens(list) { input.value = list.join(" "); render(); }

    function render() {
      var list = tokens();
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
        chip.className = "chip";
        chip.textContent = label(token);
        chip.setAttribute("aria-label", "Remove " + label(token));
        chip.addEventListener("click", function () {
          var next = tokens();
          next.splice(index, 1);
          setTokens(next);
        });
        chips.appendChild(chip);
      });
      saveDraft();
      clearTimeout(pending);
      pending = setTimeout(preview, 120);
    }

    function preview() {
      var list = tokens();
      if (!list.length) {
        live.className = "live";
        live.textContent = wentOut.checked ? "Went out: 0" : "Tap the cards left, or OUT.";
        return;
      }
      fetch(url + "?cards=" + encodeURIComponent(list.join(" ")), { credentials: "same-origin" })
        .then(function (response) { return response.json(); })
        .then(function (data) {
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
        })
        .catch(function () { live.className = "live"; live.textContent = "Score shown after saving (offline)."; });
    }

    pad.hidden = false;
    pad.querySelectorAll("button[data-card]").forEach(function (button) {
      button.addEventListener("click", function () {
        wentOut.checked = false;
        setTokens(tokens().concat([button.getAttribute("data-card")]));
      });
    });
    if (suits) {
      suits.hidden = false;
      suits.querySelectorAll("button[data-suit]").forEach(function (button) {
        button.addEventListener("click", function () {
          var list = tokens();
          var last = list.length - 1;
          if (last < 0 || !/^(10|[2-9AJQKT])$/i.test(list[last])) {
            live.className = "live bad";
            live.textContent = "Tap a rank first, then its suit.";
            return;
          }
          list[last] += button.getAttribute("data-suit");
          setTokens(list);
        });
      });
    }
    pad.querySelector("[data-out]").addEventListener("click", function () {
      wentOut.checked = true;
      setTokens([]);
    });
    wentOut.addEventListener("change", function () { if (wentOut.checked) { setTokens([]); } else { render(); } });
    input.addEventListener("input", render);
    form.addEventListener("submit", function () { try { localStorage.removeItem(draftKey); } catch (e) { /* no storage */ } });
    restoreDraft();
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

// @ts-check
/* Players picked from the club's list, on the director's forms. New event: Add puts the line
   chosen in the search ("Ann Smith, North, 101") at the end of the Players list at once, with no
   round trip, and empties the search for the next one. Late player: choosing a member fills in
   their club and number. Without JavaScript the datalist still offers the members as one types,
   Add sends the form (it comes back with the line added), and the director types the number.
   Listeners sit on the document, so content swapped in later is served too. */

/* The Players list with a line added at its end, as the server's Add does (EventForm.add_picked). */
/** @param {string} text @param {string} line @returns {string} */
export function withLine(text, line) {
  const kept = text.replace(/\s+$/, "");
  return kept ? kept + "\n" + line : line;
}

/* A name as the club's list tells names apart: any case, any spaces between its words. */
const nameKey = (/** @type {string} */ name) => name.trim().split(/\s+/).join(" ").toLowerCase();

/** @param {MouseEvent} event */
function addPicked(event) {
  const add = /** @type {Element} */ (event.target).closest("[data-pick-add]");
  const picker = add && add.closest("[data-picker]");
  const search = picker && /** @type {HTMLInputElement | null} */ (picker.querySelector("input[list]"));
  const players = picker && /** @type {HTMLTextAreaElement | null} */ (document.getElementById(picker.getAttribute("data-picker") || ""));
  if (!search || !players) { return; }
  /* Enter in any field of the form clicks Add too (the form's first button): an empty search adds nothing. */
  event.preventDefault();
  const line = search.value.trim();
  if (!line) { return; }
  players.value = withLine(players.value, line);
  players.dispatchEvent(new Event("input", { bubbles: true }));  /* kept typing (typing.js) keeps it */
  search.value = "";
  search.dispatchEvent(new Event("input", { bubbles: true }));
  search.focus();
}

/* What the script filled in for the member chosen, by name field: taken away again when another
   name is typed, unless the director has changed it since. */
/** @type {WeakMap<HTMLInputElement, {club: string, number: string}>} */
const filled = new WeakMap();

/** @param {Event} event */
function fillChosen(event) {
  const input = /** @type {HTMLInputElement} */ (event.target);
  if (!input.matches || !input.matches("[data-pick-fill]") || !input.list) { return; }
  const [club, number] = (input.getAttribute("data-pick-fill") || "").split(" ")
    .map((id) => /** @type {HTMLInputElement | null} */ (document.getElementById(id)));
  if (!club || !number) { return; }
  const chosen = [...input.list.options].filter((option) => nameKey(option.value) === nameKey(input.value));
  const before = filled.get(input);
  if (chosen.length === 1) {
    club.value = chosen[0].getAttribute("data-club") || "";
    number.value = chosen[0].getAttribute("data-number") || "";
    filled.set(input, { club: club.value, number: number.value });
  } else if (before && club.value === before.club && number.value === before.number) {
    /* Two members of one name (the director types the number), or another name: none of them. */
    club.value = "";
    number.value = "";
    filled.delete(input);
  }
}

export function startPicking() {
  if (!document.querySelector("[data-picker], [data-pick-fill]")) { return; }
  document.addEventListener("click", addPicked);
  document.addEventListener("input", fillChosen);
}

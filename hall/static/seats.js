// The seating as the hall's pages show it (board.js and tournament.js load it after i18n.js):
// a table as a person says it, and a table's seats with each seat's number beside its player.
// No build step: a plain script that defines `Seats`.
//
//   Seats.table("table-3")            // "Стол 3" ("table 3" with title false)
//   p.append(...Seats.list([1, 2], ["Анна", "Борис"]))   // <b>1</b> Анна · <b>2</b> Борис
"use strict";
const Seats = (() => {
  // hall.tables.table_words: "table-3" is table 3; another id is named as given
  function table(id, title = true) {
    const found = /^table-(\d+)$/.exec(id);
    if (!found) {
      return I18n.t(title ? "tournament.table_title.named" : "tournament.table.named", {name: id});
    }
    return I18n.t(title ? "tournament.table_title" : "tournament.table", {number: Number(found[1])});
  }

  // each seat a span kept on one line: its number in bold, a no-break space, the player;
  // " · " between the spans, where a long table's line may wrap (after the dot)
  function list(seats, players) {
    return seats.flatMap((seat, i) => {
      const span = document.createElement("span");
      span.className = "seat";
      const number = document.createElement("b");
      number.textContent = String(seat);
      span.append(number, `\u00a0${players[i]}`);
      return i < seats.length - 1 ? [span, "\u00a0· "] : [span];  // "·" never starts a line
    });
  }

  // "table-2" before "table-10"
  function naturally(a, b) { return a.localeCompare(b, undefined, {numeric: true}); }

  return {table, list, naturally};
})();

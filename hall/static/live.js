// The hall's pages' live link to their server (board.js, tournament.js, standings.js load it
// first): a WebSocket to one of this server's paths, opened again a second after it closes,
// for as long as the page is open. No build step: a plain script that defines `Live`.
//
//   const link = Live.connect("/live", {message: draw, change: (up) => drawLink(up)});
//   link.send({action: "..."});              // JSON to the server, on the open socket
//
// `message(data)` gets each message as parsed JSON; `change(up)` (optional) is told when the
// link comes up (true) or goes down (false), before the next try.
"use strict";
const Live = (() => {
  function connect(path, on) {
    let socket = null;
    const open = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}${path}`);
      socket.onopen = () => { if (on.change) on.change(true); };
      socket.onmessage = (event) => on.message(JSON.parse(event.data));
      socket.onclose = () => {
        if (on.change) on.change(false);
        setTimeout(open, 1000);
      };
    };
    open();
    return {send: (message) => socket.send(JSON.stringify(message))};
  }
  return {connect};
})();

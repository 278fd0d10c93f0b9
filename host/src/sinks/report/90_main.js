/* 90_main.js -- puts the page together. */
"use strict";
(function main() {
  $("title").textContent = D.title;
  var S = D.stats;
  $("summary").textContent = D.proto + " trace: " + S.records + " records, " +
    (FREQ ? (S.span / FREQ).toFixed(6) + " s at " + FREQ + " Hz" : S.span + " ticks (clock rate unknown)") +
    ", " + D.lanes.length + " lanes; times from the first record" +
    (FREQ ? " (target tick " + D.origin + ")" : "");
  $("footer").textContent = "Made by " + D.producer + ". Detail kept: " + D.items.length + " items" +
    (D.detail.dropped ? ", " + D.detail.dropped + " thinned out" : "") + ".";
  buildTables();
  TL.draw();
  drawLoad();
  Flame.draw();
  Flame.tree();
  Search.load();
  Search.draw();
  sonde.D = D; sonde.TL = TL; sonde.Flame = Flame; sonde.Search = Search;
  /* when the page became interactive, in ms from the navigation's start (make bench) */
  sonde.readyMs = performance.now();
  sonde.ready = true;
})();

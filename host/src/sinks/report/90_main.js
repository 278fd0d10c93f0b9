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
  var steps = { parse: T_PARSE }, ts = performance.now();
  function step(n) { var t = performance.now(); steps[n] = t - ts; ts = t; }
  buildTables(); step("tables");
  TL.draw(); step("timeline");
  var around = [Load, Events, WinStats], pending = null;
  /* the views follow the window once per frame, however many pan steps
   * came in it; a script that reads a view's state gets it up to date at
   * once (sonde.flushViews, called by their state accessors) */
  var viewsMs = 0;
  var flush = function () {
    if (!pending) return;
    var v = pending;
    pending = null;
    /* timed like the timeline's draw (make bench reads the marks) */
    performance.mark("views-start");
    Events.onView(v[0], v[1]); Load.draw(v[0], v[1]); WinStats.draw(v[0], v[1]);
    performance.mark("views-end");
    var m = performance.measure("views", "views-start", "views-end");
    viewsMs = m ? m.duration : 0;
    performance.clearMarks("views-start"); performance.clearMarks("views-end"); performance.clearMeasures("views");
  };
  /* the time the views took the last time they followed the window */
  sonde.lastViewsMs = function () { return viewsMs; };
  sonde.flushViews = flush;
  TL.onView(function (v0, v1) {
    if (!pending) requestAnimationFrame(flush);
    pending = [v0, v1];
  });
  Load.draw(); step("load");
  Events.onView(TL.view()[0]); step("events");
  WinStats.draw(); step("window");
  Flame.draw();
  Flame.tree(); step("flame");
  Search.load();
  Search.draw(); step("search");
  sonde.startup = steps;
  /* D changed (live mode): every module rebuilds its indexes and draws;
   * the timeline keeps the user's view (or follows the newest record) */
  sonde.refresh = function () {
    TL.load();
    around.concat([Flame, Search]).forEach(function (m) { m.load(); });
    Flame.draw(); Flame.tree(); Search.draw();
    Load.draw(); Events.onView(TL.view()[0]); WinStats.draw();
  };
  sonde.D = D; sonde.TL = TL; sonde.Flame = Flame; sonde.Search = Search;
  sonde.Load = Load; sonde.Events = Events; sonde.WinStats = WinStats;
  /* when the page became interactive, in ms from the navigation's start (make bench) */
  sonde.readyMs = performance.now();
  sonde.ready = true;
})();

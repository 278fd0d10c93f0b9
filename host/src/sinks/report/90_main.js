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
  var around = [Load, Events, WinStats];
  /* The views follow the timeline's window. While the window moves (a
   * zoom or a drag: the timeline drew in the frame before) each frame
   * brings one view up to date, the one longest behind; once the window
   * rests, the next frame brings all the others. Why: besides its script,
   * each view's rewritten text costs the browser about as much again in
   * style, layout and paint, and the three together pushed a loaded
   * machine's frames past 16 ms; one a frame keeps the timeline at 60
   * frames a second and every view within three frames of it. A script that
   * reads a view's state gets it up to date at once (sonde.flushViews, called
   * by the views' state accessors). */
  var views = [
    { run: function (v) { Events.onView(v[0], v[1]); }, at: null },
    { run: function (v) { Load.draw(v[0], v[1]); }, at: null },
    { run: function (v) { WinStats.draw(v[0], v[1]); }, at: null }
  ];
  var want = null, next = 0, scheduled = false, moved = false, viewsMs = 0;
  function runViews(all) {
    var ran = 0;
    /* timed like the timeline's draw (make bench reads the marks) */
    performance.mark("views-start");
    for (var n = 0; n < views.length && (all || !ran); n++) {
      var x = views[next];
      next = (next + 1) % views.length;
      if (x.at !== want) { x.run(want); x.at = want; ran++; }
    }
    performance.mark("views-end");
    var m = performance.measure("views", "views-start", "views-end");
    viewsMs = m ? m.duration : 0;
    performance.clearMarks("views-start"); performance.clearMarks("views-end"); performance.clearMeasures("views");
  }
  function behind() { return views.some(function (x) { return x.at !== want; }); }
  function frame() {
    scheduled = false;
    runViews(!moved);
    moved = false;
    if (behind()) { scheduled = true; requestAnimationFrame(frame); }
  }
  /* the time the views took in the last frame they ran in */
  sonde.lastViewsMs = function () { return viewsMs; };
  sonde.flushViews = function () { if (want && behind()) runViews(true); };
  /* how many views have not yet followed the window (tests) */
  sonde.viewsBehind = function () { return views.filter(function (x) { return x.at !== want; }).length; };
  TL.onView(function (v0, v1) {
    want = [v0, v1];
    moved = true;
    if (!scheduled) { scheduled = true; requestAnimationFrame(frame); }
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

/* 90_main.js -- puts the page together, and the search box: finds records
 * by name or argument text among the timeline's items. */
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
  /* the timeline's window, for the views that follow it (load graph, event
   * list, window statistics): TL.onView when the timeline has it, else a
   * minimal hook -- TL.zoom wrapped (synchronous, for scripts), and the
   * range text the timeline rewrites on every draw (wheel, drag, keys) */
  if (!TL.onView) {
    var viewFns = [], lastView = "";
    var fire = function () {
      var v = TL.view(), key = v[0] + ":" + v[1];
      if (key === lastView) return;
      lastView = key;
      viewFns.forEach(function (fn) { fn(v[0], v[1]); });
    };
    TL.onView = function (fn) { viewFns.push(fn); };
    var zoom = TL.zoom;
    TL.zoom = function (a, b) { zoom(a, b); fire(); };
    new MutationObserver(fire).observe($("tl-range"), { childList: true, characterData: true, subtree: true });
  }
  TL.draw();
  var around = [Load, Events, WinStats], pending = null;
  /* the views follow the window once per frame, however many pan steps
   * came in it; a script that reads a view's state gets it up to date at
   * once (sonde.flushViews, called by their state accessors) */
  var flush = function () {
    if (!pending) return;
    var v = pending;
    pending = null;
    Load.draw(v[0], v[1]); Events.onView(v[0], v[1]); WinStats.draw(v[0], v[1]);
  };
  sonde.flushViews = flush;
  TL.onView(function (v0, v1) {
    if (!pending) requestAnimationFrame(flush);
    pending = [v0, v1];
  });
  Load.draw();
  Events.onView(TL.view()[0]);
  WinStats.draw();
  Flame.draw();
  Flame.tree();
  /* D changed (live mode): every module rebuilds its indexes and draws */
  sonde.refresh = function () {
    around.concat([Flame]).forEach(function (m) { m.load(); });
    Flame.draw(); Flame.tree();
    Load.draw(); Events.onView(TL.view()[0]); WinStats.draw();
  };
  var timer = null;
  $("search").addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(search, 150);
  });
  function search() {
    var q = $("search").value.toLowerCase(), box = $("search-results");
    if (!q) { box.hidden = true; return; }
    var hits = [], nm = D.names.map(function (s) { return s.toLowerCase().indexOf(q) >= 0; });
    var ar = D.args.map(function (s) { return s.toLowerCase().indexOf(q) >= 0; });
    for (var k = 0; k < D.items.length && hits.length < 200; k++)
      if (nm[D.items[k][5]] || ar[D.items[k][6]]) hits.push(k);
    hits.sort(function (a, b) { return D.items[a][2] - D.items[b][2]; });
    box.hidden = false;
    box.innerHTML = "<b>" + hits.length + (hits.length === 200 ? "+" : "") + " matches</b>" + hits.map(function (k) {
      var it = D.items[k];
      return '<div data-k="' + k + '">' + esc(fmtNs(it[2]) + "  " + D.lanes[it[0]].name + "  " + (D.names[it[5]] || "") +
        (it[6] ? "  " + D.args[it[6]] : "")) + "</div>";
    }).join("");
  }
  $("search-results").addEventListener("click", function (e) {
    var d = e.target.closest("div[data-k]");
    if (!d) return;
    var it = D.items[+d.dataset.k], pad = Math.max(it[3] * 3, 20000);
    TL.zoom(it[2] - pad, it[2] + it[3] + pad);
    TL.show(+d.dataset.k);
    $("timeline").scrollIntoView();
  });
  sonde.D = D; sonde.TL = TL; sonde.Flame = Flame; sonde.Load = Load; sonde.Events = Events; sonde.WinStats = WinStats;
  sonde.ready = true;
})();

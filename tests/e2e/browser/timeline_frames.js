// timeline_frames.js -- a CHECK_FILE for cdp_page.js: times the report
// timeline's frames (TL.lastFrameMs(), from the performance marks around
// each draw) over 24 zoom steps into the trace and 40 pans (20 zoomed out,
// 20 zoomed in), one per animation frame, and returns them with their
// median and worst.  Used by test_report_timeline.sh (printed, not
// asserted: a loaded machine) and for the figures of docs/report.md.
(async function () {
  var TL = sonde.TL, E = TL.end(), frames = [];
  var raf = function () { return new Promise(function (r) { requestAnimationFrame(function () { r(); }); }); };
  var step = async function (a, b) { TL.zoom(a, b); frames.push(TL.lastFrameMs()); await raf(); };
  for (var i = 0; i < 24; i++) { var w = E / Math.pow(1.6, i), c = E * 0.41; await step(c - w / 2, c + w / 2); }
  for (var z = 0; z < 2; z++) {
    var w0 = z ? E / 1000 : E, v = [E * 0.3, E * 0.3 + w0];
    for (var j = 0; j < 20; j++) { var d = w0 * 0.03; v = [v[0] + d, v[1] + d]; await step(v[0], v[1]); }
  }
  TL.zoom(0, E);
  var s = frames.slice().sort(function (a, b) { return a - b; });
  return { frames: frames, median: s[s.length >> 1], worst: s[s.length - 1], items: sonde.D.items.length,
    records: sonde.D.stats.records };
})()

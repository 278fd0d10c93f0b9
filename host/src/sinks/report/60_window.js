/* 60_window.js -- statistics of the window the timeline shows, [v0, v1]:
 * per task, ISR, "No task" and idle lane, the run time in the window (its
 * depth-0 slices clipped to the window, without the time of its core's ISRs
 * as `sonde stats` counts CPU time: Load.busy), the share of the window, how many
 * runs/activations start in it, their mean and longest duration (whole
 * slices), and for tasks with a state strip the latency (time Ready before
 * Running) of the runs that start in it.  Where the host thinned the
 * detail of the window (docs/report.md) the run time comes from the
 * overview bins and the table says so; counts and durations then cover the
 * kept windows only. */
"use strict";
var WinStats = (function () {
  var KINDS = { task: 1, isr: 1, notask: 1, idle: 1 };
  var start, stateOf, last = null;
  function load() {
    var n = D.lanes.length, k = 0;
    start = new Int32Array(n + 1);
    for (var l = 0; l < n; l++) { start[l] = k; while (k < D.items.length && D.items[k][0] === l) k++; }
    start[n] = k;
    stateOf = {};
    D.lanes.forEach(function (ln, i) { if (ln.kind === "state") stateOf[ln.core + "\u0000" + ln.name.replace(/ state$/, "")] = i; });
  }
  /* first item of lane l starting at or after t (a lane's items are in
   * time order): a window reads its own items, not the lane's */
  function lowerBound(l, t) {
    var lo = start[l], hi = start[l + 1];
    while (lo < hi) { var m = (lo + hi) >> 1; if (D.items[m][2] < t) lo = m + 1; else hi = m; }
    return lo;
  }
  /* latency of the runs that start in the window: the Ready slice that ends where a Running one starts */
  function latency(st, v0, v1) {
    var out = { n: 0, sum: 0, max: 0 }, prev = null, k0 = lowerBound(st, v0), j;
    for (j = k0 - 1; j >= start[st] && !prev; j--) if (D.items[j][1] === 0) prev = D.items[j];
    for (var k = k0; k < start[st + 1] && D.items[k][2] < v1; k++) {
      var it = D.items[k];
      if (it[1] !== 0) continue;
      var nm = D.names[it[5]];
      if (nm === "Running" && prev && D.names[prev[5]] === "Ready" && prev[2] + prev[3] === it[2] && it[2] >= v0 && it[2] < v1) {
        out.n++; out.sum += prev[3]; if (prev[3] > out.max) out.max = prev[3];
      }
      prev = it;
    }
    return out;
  }
  function compute(v0, v1) {
    var thinned = !Load.covers(v0, v1), rows = [];
    D.lanes.forEach(function (ln, l) {
      if (!KINDS[ln.kind]) return;
      var r = { lane: l, name: ln.name, kind: ln.kind, core: ln.core, run: 0, count: 0, sum: 0, max: 0, lat: null };
      for (var k = lowerBound(l, v0), e = lowerBound(l, v1); k < e; k++) {
        var it = D.items[k];
        if (it[1] !== 0 || it[4] !== 0) continue;
        r.count++; r.sum += it[3]; if (it[3] > r.max) r.max = it[3];
      }
      r.run = Load.busy(l, v0, v1, thinned);
      var st = stateOf[ln.core + "\u0000" + ln.name];
      if (ln.kind === "task" && st !== undefined) r.lat = latency(st, v0, v1);
      r.share = v1 > v0 ? r.run / (v1 - v0) : 0;
      if (r.run || r.count) rows.push(r);
    });
    rows.sort(function (a, b) { return b.run - a.run || a.lane - b.lane; });
    return { v0: v0, v1: v1, thinned: thinned, rows: rows };
  }
  function draw(a, b) {
    if (a === undefined) { var v = TL.view(); a = v[0]; b = v[1]; }
    var v0 = Math.max(0, a), v1 = Math.max(v0, b);
    last = compute(v0, v1);
    $("window-range").textContent = fmtNs(v0) + " \u2013 " + fmtNs(v1) + " (" + fmtNs(v1 - v0) + ")" +
      (last.thinned ? "; detail was thinned here: run time and share from the overview bins, counts and durations from the kept windows only" : "");
    var h = "<tr><th>lane</th><th>kind</th><th>run</th><th>share %</th><th>count</th><th>mean</th><th>max</th><th>lat_n</th><th>lat_mean</th><th>lat_max</th></tr>";
    last.rows.forEach(function (r) {
      var c = [r.name, r.kind, fmtNs(r.run), (100 * r.share).toFixed(2), r.count, r.count ? fmtNs(r.sum / r.count) : "-",
        r.count ? fmtNs(r.max) : "-", r.lat ? r.lat.n : "-", r.lat && r.lat.n ? fmtNs(r.lat.sum / r.lat.n) : "-",
        r.lat && r.lat.n ? fmtNs(r.lat.max) : "-"];
      h += '<tr data-lane="' + r.lane + '">' + c.map(function (x) { return "<td>" + esc(x) + "</td>"; }).join("") + "</tr>";
    });
    $("t-window").innerHTML = h;
    return last;
  }
  load();
  return { load: load, draw: draw, compute: compute,
    state: function () { if (sonde.flushViews) sonde.flushViews(); return last; } };
})();

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
  var KINDS = { task: 1, isr: 1, notask: 1, idle: 1 }, BLOCK = 64;
  var start, stateOf, last = null, runs = [], lats = [], table = null;
  /* Sums over a lane's items, so that a window costs a few binary searches
   * and not a walk over its items (at the whole view of a large trace,
   * hundreds of thousands a frame): per item position, the running count
   * and sum of the values that count, and the largest value of each block
   * of BLOCK items.  val(k) is the value item k adds, or -1 for none. */
  function sums(l, val) {
    var a = start[l], n = start[l + 1] - a, cnt = new Float64Array(n + 1), sum = new Float64Array(n + 1);
    var bmax = new Float64Array(Math.ceil(n / BLOCK)), each = new Float64Array(n);
    for (var i = 0; i < n; i++) {
      var v = val(a + i);
      each[i] = v;
      cnt[i + 1] = cnt[i] + (v >= 0 ? 1 : 0);
      sum[i + 1] = sum[i] + (v >= 0 ? v : 0);
      if (v > bmax[i / BLOCK | 0]) bmax[i / BLOCK | 0] = v;
    }
    return { a: a, cnt: cnt, sum: sum, bmax: bmax, each: each };
  }
  /* count, sum and largest value of the items [k, e) of a lane */
  function query(q, k, e) {
    var i = k - q.a, j = e - q.a, max = 0, b;
    for (; i < j && i % BLOCK; i++) if (q.each[i] > max) max = q.each[i];
    for (b = i / BLOCK | 0; i + BLOCK <= j; i += BLOCK, b++) if (q.bmax[b] > max) max = q.bmax[b];
    for (; i < j; i++) if (q.each[i] > max) max = q.each[i];
    return { n: q.cnt[e - q.a] - q.cnt[k - q.a], sum: q.sum[e - q.a] - q.sum[k - q.a], max: max };
  }
  function load() {
    var n = D.lanes.length, k = 0;
    start = new Int32Array(n + 1);
    for (var l = 0; l < n; l++) { start[l] = k; while (k < D.items.length && D.items[k][I_LANE] === l) k++; }
    start[n] = k;
    stateOf = {};
    D.lanes.forEach(function (ln, i) { if (ln.kind === "state") stateOf[ln.core + "\u0000" + ln.name.replace(/ state$/, "")] = i; });
    runs = []; lats = [];
    D.lanes.forEach(function (ln, l) {
      /* a run or activation: a depth-0 slice, by its duration */
      if (KINDS[ln.kind]) runs[l] = sums(l, function (q) { var it = D.items[q]; return it[I_TYPE] === T_SLICE && it[I_DEPTH] === 0 ? it[I_DUR] : -1; });
      /* a latency: a Running slice right after a Ready one, by the Ready time */
      if (ln.kind === "state") {
        var prev = null;
        lats[l] = sums(l, function (q) {
          var it = D.items[q], v = -1;
          if (it[I_TYPE] !== T_SLICE) return -1;
          if (prev && D.names[it[I_NAME]] === "Running" && D.names[prev[I_NAME]] === "Ready" && prev[I_T] + prev[I_DUR] === it[I_T]) v = prev[I_DUR];
          prev = it;
          return v;
        });
      }
    });
    table = null;
  }
  /* first item of lane l starting at or after t (a lane's items are in
   * time order): a window reads its own items, not the lane's */
  function lowerBound(l, t) {
    var lo = start[l], hi = start[l + 1];
    while (lo < hi) { var m = (lo + hi) >> 1; if (D.items[m][I_T] < t) lo = m + 1; else hi = m; }
    return lo;
  }
  function compute(v0, v1) {
    var thinned = !Load.covers(v0, v1), rows = [];
    D.lanes.forEach(function (ln, l) {
      /* not a lane that takes CPU time, or one added to D since load() */
      if (!KINDS[ln.kind] || !runs[l]) return;
      var q = query(runs[l], lowerBound(l, v0), lowerBound(l, v1));
      var r = { lane: l, name: ln.name, kind: ln.kind, core: ln.core, run: 0, count: q.n, sum: q.sum, max: q.max, lat: null };
      r.run = Load.busy(l, v0, v1, thinned);
      var st = stateOf[ln.core + "\u0000" + ln.name];
      if (ln.kind === "task" && st !== undefined && lats[st]) r.lat = query(lats[st], lowerBound(st, v0), lowerBound(st, v1));
      r.share = v1 > v0 ? r.run / (v1 - v0) : 0;
      if (r.run || r.count) rows.push(r);
    });
    rows.sort(function (a, b) { return b.run - a.run || a.lane - b.lane; });
    return { v0: v0, v1: v1, thinned: thinned, rows: rows };
  }
  /* the table's cells, kept from frame to frame: a pan rewrites the text
   * of the cells that changed, not the table */
  function cells(n) {
    if (!table) {
      var t = $("t-window");
      t.innerHTML = "<tr><th>lane</th><th>kind</th><th>run</th><th>share %</th><th>count</th><th>mean</th><th>max</th><th>lat_n</th><th>lat_mean</th><th>lat_max</th></tr>";
      table = { el: t, rows: [] };
    }
    while (table.rows.length < n) {
      var tr = document.createElement("tr"), row = { tr: tr, text: [] };
      for (var i = 0; i < 10; i++) {
        var td = document.createElement("td"), tx = document.createTextNode("");
        td.appendChild(tx); tr.appendChild(td); row.text.push(tx);
      }
      table.el.appendChild(tr);
      table.rows.push(row);
    }
    while (table.rows.length > n) table.el.removeChild(table.rows.pop().tr);
    return table.rows;
  }
  function draw(a, b) {
    if (a === undefined) { var v = TL.view(); a = v[0]; b = v[1]; }
    var v0 = Math.max(0, a), v1 = Math.max(v0, b);
    last = compute(v0, v1);
    $("window-range").textContent = fmtNs(v0) + " \u2013 " + fmtNs(v1) + " (" + fmtNs(v1 - v0) + ")" +
      (last.thinned ? "; detail was thinned here: run time and share from the overview bins, counts and durations from the kept windows only" : "");
    var out = cells(last.rows.length);
    last.rows.forEach(function (r, j) {
      var c = [r.name, r.kind, fmtNs(r.run), (100 * r.share).toFixed(2), r.count, r.count ? fmtNs(r.sum / r.count) : "-",
        r.count ? fmtNs(r.max) : "-", r.lat ? r.lat.n : "-", r.lat && r.lat.n ? fmtNs(r.lat.sum / r.lat.n) : "-",
        r.lat && r.lat.n ? fmtNs(r.lat.max) : "-"];
      if (out[j].tr.dataset.lane !== String(r.lane)) out[j].tr.dataset.lane = r.lane;
      for (var i = 0; i < 10; i++) { var x = String(c[i]); if (out[j].text[i].nodeValue !== x) out[j].text[i].nodeValue = x; }
    });
    return last;
  }
  load();
  return { load: load, draw: draw, compute: compute,
    state: function () { if (sonde.flushViews) sonde.flushViews(); return last; } };
})();

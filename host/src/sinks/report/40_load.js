/* 40_load.js -- CPU load over the timeline's window: per task, ISR and
 * "No task", stacked, with idle drawn explicitly on top (light grey), a time
 * axis along x (the window's own times) and 0-100 % of the cores' time on y
 * (or, with "scale y", 0 to the busiest column without idle, said on the
 * axis).  Busy time is the time covered by each lane's depth-0 slices, CPU
 * time as `sonde stats` counts it: a task's (or idle's, or no task's) slice
 * goes on while an interrupt runs, so the time of the core's ISRs is taken
 * out of it.  From the detail items (exact) when zoomed in or when there is
 * no overview (live mode); from the overview bins when a column spans
 * several bins (zoomed out), where the ISRs' share of a column is taken out
 * of the other lanes of the core in proportion to their busy time. */
"use strict";
var Load = (function () {
  var KINDS = { task: 1, isr: 1, notask: 1, idle: 1 };
  var series = [], start, maxDur, isrU = {}, H = 200, PAD_L = 44, PAD_B = 18, PAD_T = 6;
  /* per series: its core's index, whether it is an ISR, and its overview
   * bins' running sum (so that a column's busy time costs two lookups, not
   * a walk over its bins) */
  var coreIx = new Int32Array(0), isIsr = new Uint8Array(0), ncores = 0, cum = [];
  var legend = null; /* the legend's text nodes, made once per load: a pan rewrites their text only */
  /* the canvas's width on the page, read again only when it changed:
   * read in every frame, after the event list has rewritten its rows, it
   * made the browser lay the page out in the middle of the frame (a
   * ResizeObserver says when it changed: a window resized, a scroll bar
   * that came or went) */
  var cssW = 0;
  var cv = $("load-canvas"), ctx = cv.getContext("2d"), last = null;
  if (window.ResizeObserver) new ResizeObserver(function () { cssW = 0; }).observe(cv);
  /* rebuild from D: the lanes that take CPU time and, per lane, its depth-0
   * slices' range in D.items (items are sorted by lane, then start) */
  function load() {
    var n = D.lanes.length;
    start = new Int32Array(n + 1); maxDur = new Float64Array(n);
    var k = 0;
    for (var l = 0; l < n; l++) {
      start[l] = k;
      while (k < D.items.length && D.items[k][I_LANE] === l) {
        var it = D.items[k++];
        if (it[I_TYPE] === T_SLICE && it[I_DEPTH] === 0 && it[I_DUR] > maxDur[l]) maxDur[l] = it[I_DUR];
      }
    }
    start[n] = k;
    colsMemo = null;
    series = [];
    D.lanes.forEach(function (ln, i) { if (KINDS[ln.kind]) series.push(i); });
    /* per core, the union of its ISRs' depth-0 slices: [t0, t1, t0, t1, ...] */
    var per = {};
    D.lanes.forEach(function (ln, l) {
      if (ln.kind !== "isr") return;
      var a = per[ln.core] || (per[ln.core] = []);
      for (var q = start[l]; q < start[l + 1]; q++) {
        var it = D.items[q];
        if (it[I_TYPE] === T_SLICE && it[I_DEPTH] === 0) a.push([it[I_T], it[I_T] + it[I_DUR]]);
      }
    });
    isrU = {};
    Object.keys(per).forEach(function (core) {
      var iv = per[core].sort(function (x, y) { return x[0] - y[0]; }), u = [];
      iv.forEach(function (x) {
        if (u.length && x[0] <= u[u.length - 1]) { if (x[1] > u[u.length - 1]) u[u.length - 1] = x[1]; } else u.push(x[0], x[1]);
      });
      isrU[core] = Float64Array.from(u);
    });
    /* idle last: it is drawn on top of the work, in grey */
    series.sort(function (a, b) { return (D.lanes[a].kind === "idle") - (D.lanes[b].kind === "idle") || a - b; });
    var coreNo = {};
    coreIx = new Int32Array(series.length); isIsr = new Uint8Array(series.length); ncores = 0;
    series.forEach(function (l, i) {
      var c = String(D.lanes[l].core);
      if (!(c in coreNo)) coreNo[c] = ncores++;
      coreIx[i] = coreNo[c]; isIsr[i] = D.lanes[l].kind === "isr" ? 1 : 0;
    });
    var ov = D.overview;
    cum = series.map(function (l) {
      var b = ov && ov.busy && ov.busy[l], n = b ? b.length : 0, out = new Float64Array(n + 1);
      for (var k = 0; k < n; k++) out[k + 1] = out[k] + b[k];
      return out;
    });
    legend = null;
  }
  /* the lane's colour as the timeline draws its depth-0 slices (idle: the
   * light grey of the band on top).  When the timeline's palette by index
   * lands in 00_util.js (H-TL), this is the one place to call it. */
  function colour(l) {
    var ln = D.lanes[l];
    return ln.kind === "idle" ? "#e3e7ea" : colorOf(ln.name); /* the timeline's colour for the same lane */
  }
  function firstItem(l, from) {
    var lo = start[l], hi = start[l + 1], want = from - maxDur[l];
    while (lo < hi) { var m = (lo + hi) >> 1; if (D.items[m][I_T] < want) lo = m + 1; else hi = m; }
    return lo;
  }
  /* add [a, b) to the columns of width cw from v0 */
  function spread(out, v0, cw, a, b) {
    var ncol = out.length;
    while (a < b) {
      var c = Math.min(ncol - 1, Math.floor((a - v0) / cw)), e = Math.min(b, v0 + (c + 1) * cw);
      if (e <= a) e = b; /* rounding at the last column */
      out[c] += e - a; a = e;
    }
  }
  /* busy ns of lane l in each of ncol columns over [v0, v1], without the
   * time of its core's ISRs unless it is an ISR lane */
  function fromItems(l, v0, v1, ncol) {
    var out = new Float64Array(ncol), cw = (v1 - v0) / ncol, ln = D.lanes[l];
    var u = ln.kind === "isr" ? null : isrU[ln.core];
    for (var k = firstItem(l, v0); k < start[l + 1] && D.items[k][I_T] < v1; k++) {
      var it = D.items[k];
      if (it[I_TYPE] !== T_SLICE || it[I_DEPTH] !== 0) continue;
      var a = Math.max(v0, it[I_T]), b = Math.min(v1, it[I_T] + it[I_DUR]);
      if (a >= b) continue;
      if (!u || !u.length) { spread(out, v0, cw, a, b); continue; }
      var lo = 0, hi = u.length / 2; /* first ISR interval that ends after a */
      while (lo < hi) { var m = (lo + hi) >> 1; if (u[2 * m + 1] <= a) lo = m + 1; else hi = m; }
      for (var j = lo; a < b && j < u.length / 2 && u[2 * j] < b; j++) {
        if (u[2 * j] > a) spread(out, v0, cw, a, u[2 * j]);
        a = Math.max(a, u[2 * j + 1]);
      }
      if (a < b) spread(out, v0, cw, a, b);
    }
    return out;
  }
  /* the columns of every series over [v0, v1] from the overview, the ISRs'
   * time taken out of the other lanes of their core in proportion */
  var colsMemo = null; /* the last window's columns: the window statistics ask once per lane */
  function overviewCols(v0, v1, ncol) {
    var m = colsMemo;
    if (m && m.v0 === v0 && m.v1 === v1 && m.ncol === ncol) return m.cols;
    var cols = series.map(function (l, i) { return fromOverview(i, v0, v1, ncol); }), cw = (v1 - v0) / ncol;
    var isr = new Float64Array(ncores), rest = new Float64Array(ncores), ns = series.length, i, c;
    for (c = 0; c < ncol; c++) {
      isr.fill(0); rest.fill(0);
      for (i = 0; i < ns; i++) if (isIsr[i]) isr[coreIx[i]] += cols[i][c]; else rest[coreIx[i]] += cols[i][c];
      for (i = 0; i < ns; i++) {
        if (isIsr[i]) continue;
        var k = coreIx[i], f = rest[k] > 0 ? Math.min(1, Math.max(0, cw - isr[k]) / rest[k]) : 1;
        if (f < 1) cols[i][c] *= f;
      }
    }
    colsMemo = { v0: v0, v1: v1, ncol: ncol, cols: cols };
    return cols;
  }
  /* CPU time of lane l in [v0, v1] (window statistics): from the items, or
   * with fromOverview true from the overview bins */
  function busy(l, v0, v1, viaOverview) {
    if (!viaOverview) return fromItems(l, v0, v1, 1)[0];
    var i = series.indexOf(l), ncol = Math.max(1, Math.min(2048, Math.ceil((v1 - v0) / D.overview.bin)));
    if (i < 0) return 0;
    for (var c = 0, cols = overviewCols(v0, v1, ncol)[i], s = 0; c < ncol; c++) s += cols[c];
    return s;
  }
  /* busy ns of series i from its overview bins in each of ncol columns
   * over [v0, v1]: a bin's busy time is spread evenly over the bin, so a
   * column takes the running sum's difference between its edges */
  function fromOverview(i, v0, v1, ncol) {
    var ov = D.overview, P = cum[i], nb = P.length - 1, out = new Float64Array(ncol), cw = (v1 - v0) / ncol;
    if (!nb) return out;
    function at(x) { /* busy time of the bins before x */
      var f = x / ov.bin, b = Math.floor(f);
      if (b < 0) return 0;
      if (b >= nb) return P[nb];
      return P[b] + (f - b) * (P[b + 1] - P[b]);
    }
    for (var c = 0, a = at(v0); c < ncol; c++) {
      var e = at(c === ncol - 1 ? v1 : v0 + (c + 1) * cw);
      out[c] = e - a; a = e;
    }
    return out;
  }
  /* Are all items of [v0, v1] in the page?  Where the host thinned the
   * detail it kept the items that start in windows of D.detail.window ns
   * every D.detail.spacing ns (report_tl.c). */
  function covers(v0, v1) {
    var dt = D.detail;
    if (!dt || !dt.dropped) return true;
    var b = v0 - v0 % dt.spacing;
    return v0 - b < dt.window && v1 <= b + dt.window;
  }
  /* the source for a window: the items when they are all there and a
   * column is narrower than two overview bins (or there is no overview),
   * else the overview bins */
  function source(v0, v1, ncol) {
    var ov = D.overview;
    if (!ov || !ov.n || !ov.bin || !ov.busy || !ov.busy.length) return "items";
    return covers(v0, v1) && (v1 - v0) / ncol / ov.bin < 2 ? "items" : "overview";
  }
  function nice(x) { /* 1, 2, 5 x 10^n at or above x */
    var p = Math.pow(10, Math.floor(Math.log10(x))), m = x / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function draw(a, b) {
    if (a === undefined) { var v = TL.view(); a = v[0]; b = v[1]; }
    var v0 = Math.max(0, a), v1 = Math.max(v0 + 1, b);
    if (!cssW || !window.ResizeObserver) cssW = cv.clientWidth;
    var W = cssW || 800, dpr = window.devicePixelRatio || 1, PW = W - PAD_L - 8, PH = H - PAD_T - PAD_B;
    /* resizing clears and reallocates the canvas: only when its size changed */
    if (cv.width !== Math.floor(W * dpr) || cv.height !== Math.floor(H * dpr)) { cv.width = W * dpr; cv.height = H * dpr; cv.style.height = H + "px"; }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.font = "11px system-ui, sans-serif";
    var ncol = Math.max(1, Math.min(400, Math.floor(PW / 2))), cw = (v1 - v0) / ncol;
    var src = source(v0, v1, ncol), cores = Math.max(1, D.analysis && D.analysis.cores ? D.analysis.cores.length : 1);
    var cols = src === "overview" ? overviewCols(v0, v1, ncol) : series.map(function (l) { return fromItems(l, v0, v1, ncol); });
    var work = new Float64Array(ncol), sums = {}, maxWork = 0, scale = $("load-scale").checked;
    series.forEach(function (l, i) {
      var s = 0, col = cols[i], idle = D.lanes[l].kind === "idle";
      for (var c = 0; c < ncol; c++) { s += col[c]; if (!idle) work[c] += col[c]; }
      sums[D.lanes[l].name] = (sums[D.lanes[l].name] || 0) + s;
    });
    for (var c = 0; c < ncol; c++) maxWork = Math.max(maxWork, work[c] / (cw * cores));
    /* y range: 0-100 %, or 0 to the busiest column (idle left out) */
    var top = scale ? Math.min(100, nice(Math.max(0.001, maxWork * 100))) : 100;
    var xw = PW / ncol, base = new Float64Array(ncol).fill(PAD_T + PH);
    ctx.fillStyle = "#fff"; ctx.fillRect(PAD_L, PAD_T, PW, PH);
    /* one path and one fill per series (a frame's worth of columns), bottom
     * up: a column's stack is drawn in the same order as column by column */
    for (var i = 0; i < series.length; i++) {
      if (scale && D.lanes[series[i]].kind === "idle") continue;
      ctx.beginPath();
      for (c = 0; c < ncol; c++) {
        /* whole pixels: fractional edges leave seams between columns */
        var y = base[c], xa = Math.round(PAD_L + c * xw), xb = Math.max(xa + 1, Math.round(PAD_L + (c + 1) * xw));
        var h = cols[i][c] / (cw * cores) * 100 / top * PH;
        if (h <= 0) continue;
        if (y - h < PAD_T) h = y - PAD_T;
        ctx.rect(xa, y - h, xb - xa, h); base[c] = y - h;
      }
      ctx.fillStyle = colour(series[i]);
      ctx.fill();
    }
    /* axes: y in %, x in the window's times */
    ctx.strokeStyle = "#888"; ctx.fillStyle = "#444"; ctx.beginPath();
    ctx.moveTo(PAD_L, PAD_T); ctx.lineTo(PAD_L, PAD_T + PH); ctx.lineTo(PAD_L + PW, PAD_T + PH); ctx.stroke();
    ctx.textAlign = "right";
    [0, 0.25, 0.5, 0.75, 1].forEach(function (f) {
      var yy = PAD_T + PH - f * PH;
      ctx.fillText((top * f).toFixed(top < 1 ? 3 : top < 10 ? 1 : 0) + " %", PAD_L - 4, yy + 4);
      ctx.fillRect(PAD_L - 3, yy, 3, 1);
    });
    var labels = [fmtNs(v0)], step = nice((v1 - v0) / 8), tk;
    ctx.textAlign = "left"; ctx.fillText(fmtNs(v0), PAD_L, H - 4);
    ctx.textAlign = "right"; ctx.fillText(fmtNs(v1), PAD_L + PW, H - 4);
    ctx.textAlign = "center";
    for (tk = Math.ceil(v0 / step) * step; tk < v1; tk += step) {
      var xx = PAD_L + (tk - v0) / (v1 - v0) * PW;
      ctx.fillRect(xx, PAD_T + PH, 1, 3);
      if (xx - PAD_L > 80 && PAD_L + PW - xx > 80) { ctx.fillText(fmtNs(tk), xx, H - 4); labels.push(fmtNs(tk)); }
    }
    labels.push(fmtNs(v1));
    ctx.textAlign = "left";
    var span = (v1 - v0) * cores;
    if (!legend) makeLegend();
    legend.head.nodeValue = "y: " + (scale ? "0\u2013" + top + " % (scaled to the busiest column; idle not drawn)" :
      "0\u2013100 % of " + (cores > 1 ? cores + " cores'" : "the CPU's") + " time (idle in grey)") +
      "; x: " + fmtNs(v0) + " \u2013 " + fmtNs(v1) + ", columns of " + fmtNs(cw) + " from the " +
      (src === "overview" ? "overview bins" + (covers(v0, v1) ? "" : " (detail thinned here)") : "detail items");
    series.forEach(function (l, i) { legend.pct[i].nodeValue = " " + fmtPct(sums[D.lanes[l].name], span) + " %"; });
    last = { v0: v0, v1: v1, source: src, ncol: ncol, top: top, labels: labels, sums: sums };
    return last;
  }
  /* the legend's elements, once per load: a line, then a swatch, the name
   * and the share of each series */
  function makeLegend() {
    var box = $("load-legend");
    box.textContent = "";
    legend = { head: document.createTextNode(""), pct: [] };
    box.appendChild(legend.head);
    box.appendChild(document.createElement("br"));
    series.forEach(function (l) {
      var sp = document.createElement("span"), sw = document.createElement("i"), t = document.createTextNode("");
      sw.style.background = colour(l);
      sp.appendChild(sw); sp.appendChild(document.createTextNode(D.lanes[l].name)); sp.appendChild(t);
      box.appendChild(sp);
      legend.pct.push(t);
    });
  }
  $("load-scale").addEventListener("change", function () { draw(); });
  load();
  return { load: load, draw: draw, busy: busy, covers: covers,
    state: function () { if (sonde.flushViews) sonde.flushViews(); return last; } };
})();

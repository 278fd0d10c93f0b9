/* 10_timeline.js -- the zoomable, pannable timeline of the report, drawn on
 * a canvas: one row group per core; per task its states (a thin strip:
 * running, ready, blocked) above its slices; ISRs with nesting; function
 * slices on the context that ran them; markers; counters as plots; the
 * diagnostics lane with drops and decoder errors in red.  What the host kept
 * in detail is drawn slice by slice (slices narrower than a pixel merge into
 * one pixel, so the cost follows the pixels, not the events); where detail
 * was thinned out (docs/report.md) the overview bins show how busy each lane
 * was. */
"use strict";
var TL = (function () {
  var items = D.items, lanes = D.lanes, names = D.names, args = D.args;
  var CAT = ["", "sched", "state", "isr", "func", "mark", "log", "record", "info", "diag", "drops"];
  var LABEL_W = 170, ROW = 16, STRIP = 5, COUNTER_H = 36;
  var start = new Int32Array(lanes.length + 1), maxDur = new Float64Array(lanes.length), maxDepth = new Int32Array(lanes.length);
  var end = 0;
  (function index() {
    var k = 0;
    for (var l = 0; l < lanes.length; l++) {
      start[l] = k;
      while (k < items.length && items[k][0] === l) {
        var it = items[k];
        if (it[3] > maxDur[l]) maxDur[l] = it[3];
        if (it[4] > maxDepth[l]) maxDepth[l] = it[4];
        if (it[2] + it[3] > end) end = it[2] + it[3];
        k++;
      }
    }
    start[lanes.length] = k;
    var ov = D.overview;
    if (ov.n * ov.bin > end && D.detail.dropped) end = ov.n * ov.bin;
    if (end <= 0) end = 1;
  })();
  function laneItems(l) { var r = []; for (var k = start[l]; k < start[l + 1]; k++) r.push(k); return r; }

  /* rows: per core, the lanes in a fixed order; a task's state lane is drawn in its row */
  var ORDER = { notask: 0, task: 1, idle: 2, isr: 3, marker: 4, counter: 5, diag: 6 };
  var stateOf = {};
  lanes.forEach(function (l, i) { if (l.kind === "state") stateOf[l.core + "\u0000" + l.name.replace(/ state$/, "")] = i; });
  var rows = [];
  lanes.map(function (l, i) { return i; }).filter(function (i) { return lanes[i].kind !== "state"; })
    .sort(function (a, b) { var x = lanes[a], y = lanes[b]; return x.core - y.core || ORDER[x.kind] - ORDER[y.kind] || a - b; })
    .forEach(function (i) {
      var l = lanes[i], st = l.kind === "task" ? stateOf[l.core + "\u0000" + l.name] : undefined;
      var h = l.kind === "counter" ? COUNTER_H : (maxDepth[i] + 1) * ROW + (st !== undefined ? STRIP : 0);
      rows.push({ lane: i, state: st, h: h, y: 0 });
    });
  var totalH = 0, lastCore = -1;
  rows.forEach(function (r) {
    if (lanes[r.lane].core !== lastCore) { totalH += 14; lastCore = lanes[r.lane].core; r.coreHead = lastCore; }
    r.y = totalH; totalH += r.h + 3;
  });

  var cv = $("tl"), ctx = cv.getContext("2d");
  var v0 = 0, v1 = end, W = 800, dpr = window.devicePixelRatio || 1;
  function x(t) { return LABEL_W + (t - v0) * (W - LABEL_W) / (v1 - v0); }
  function t(px) { return v0 + (px - LABEL_W) * (v1 - v0) / (W - LABEL_W); }

  function first(l, from) { /* first item of lane l that can reach from */
    var lo = start[l], hi = start[l + 1], want = from - maxDur[l];
    while (lo < hi) { var m = (lo + hi) >> 1; if (items[m][2] < want) lo = m + 1; else hi = m; }
    return lo;
  }
  var STATE_COL = { Running: "#3a9d4a", Ready: "#e2b93b", Blocked: "#9aa3ad", Suspended: "#6b6f75" };
  function sliceColor(it, l) {
    var n = names[it[5]] || "";
    if (l.kind === "idle") return "#cfd8dc";
    if (CAT[it[7]] === "sched") return l.kind === "task" ? colorOf(l.name) : "#90a4ae";
    if (l.kind === "isr" && it[4] === 0) return "#d9534f";
    return colorOf(n);
  }
  function drawOverview(r, y, h) {
    var ov = D.overview, busy = ov.busy[r.lane], cnt = ov.count[r.lane];
    if (!busy || !busy.length) return;
    var b0 = Math.max(0, Math.floor(v0 / ov.bin)), b1 = Math.min(ov.n, Math.ceil(v1 / ov.bin));
    for (var b = b0; b < b1; b++) {
      var f = busy[b] / ov.bin;
      if (!f && !cnt[b]) continue;
      ctx.fillStyle = "rgba(36,52,71," + Math.min(0.85, 0.12 + f * 0.7).toFixed(3) + ")";
      var xa = x(b * ov.bin), xb = x((b + 1) * ov.bin);
      ctx.fillRect(xa, y, Math.max(1, xb - xa), h);
    }
  }
  function drawLane(r) {
    var l = lanes[r.lane], y = r.y, sy = y;
    if (r.state !== undefined) {
      var s = r.state;
      for (var k = first(s, v0); k < start[s + 1] && items[k][2] <= v1; k++) {
        var it = items[k]; if (it[1] !== 0) continue;
        var xa = x(it[2]), xb = x(it[2] + it[3]);
        if (xb < LABEL_W) continue;
        ctx.fillStyle = STATE_COL[names[it[5]]] || "#bbb";
        ctx.fillRect(Math.max(LABEL_W, xa), y, Math.max(1, xb - Math.max(LABEL_W, xa)), STRIP - 1);
      }
      sy = y + STRIP;
    }
    if (D.detail.dropped) drawOverview(r, sy, l.kind === "counter" ? r.h : ROW - 2);
    if (l.kind === "counter") { drawCounter(r); return; }
    var lastX = [];
    for (var k2 = first(r.lane, v0); k2 < start[r.lane + 1] && items[k2][2] <= v1; k2++) {
      var it2 = items[k2], d = it2[4], yy = sy + d * ROW;
      var x0 = x(it2[2]), x1 = x(it2[2] + it2[3]);
      if (x1 < LABEL_W) continue;
      if (it2[1] === 1) { /* instant */
        var bad = CAT[it2[7]] === "diag" || CAT[it2[7]] === "drops";
        ctx.fillStyle = bad ? "#d00" : l.kind === "diag" ? "#555" : "#333";
        ctx.fillRect(Math.floor(x0), yy, bad ? 3 : 1, ROW - 2);
        continue;
      }
      x0 = Math.max(LABEL_W, x0);
      if (x1 - x0 < 1) { /* merge sub-pixel slices into one pixel per depth */
        var px = Math.floor(x0);
        if (lastX[d] === px) continue;
        lastX[d] = px;
        ctx.fillStyle = sliceColor(it2, l);
        ctx.fillRect(px, yy, 1, ROW - 2);
        continue;
      }
      ctx.fillStyle = sliceColor(it2, l);
      ctx.fillRect(x0, yy, x1 - x0, ROW - 2);
      if (x1 - x0 > 30) {
        ctx.fillStyle = "#fff"; ctx.save(); ctx.beginPath(); ctx.rect(x0, yy, x1 - x0, ROW - 2); ctx.clip();
        ctx.fillText(names[it2[5]] || "", x0 + 3, yy + ROW - 5); ctx.restore();
      }
    }
  }
  function drawCounter(r) {
    var a = start[r.lane], b = start[r.lane + 1];
    if (a === b) return;
    var lo = Infinity, hi = -Infinity;
    for (var k = a; k < b; k++) { var v = items[k][8]; if (v < lo) lo = v; if (v > hi) hi = v; }
    var span = hi - lo || 1, y = r.y, h = r.h - 4;
    ctx.strokeStyle = "#5b8def"; ctx.beginPath();
    var started = false, k0 = Math.max(a, first(r.lane, v0) - 1);
    for (var k2 = k0; k2 < b; k2++) {
      var it = items[k2], px = Math.max(LABEL_W, x(it[2])), py = y + 2 + h - (it[8] - lo) / span * h;
      if (!started) { ctx.moveTo(px, py); started = true; } else ctx.lineTo(px, py);
      if (it[2] > v1) break;
    }
    ctx.stroke();
    ctx.fillStyle = "#555"; ctx.fillText(String(hi), LABEL_W + 2, y + 10); ctx.fillText(String(lo), LABEL_W + 2, y + r.h - 2);
  }
  function draw() {
    W = cv.clientWidth || 800;
    cv.width = W * dpr; cv.height = (totalH + 20) * dpr; cv.style.height = (totalH + 20) + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, totalH + 20);
    ctx.font = "11px system-ui, sans-serif";
    rows.forEach(function (r) {
      var l = lanes[r.lane];
      if (r.coreHead !== undefined) { ctx.fillStyle = "#243447"; ctx.fillText("Core " + r.coreHead, 4, r.y - 3); }
      ctx.fillStyle = "#f3f5f7"; ctx.fillRect(0, r.y, LABEL_W - 4, r.h);
      ctx.fillStyle = "#222"; ctx.fillText(l.name.slice(0, 26), 6, r.y + 12);
      ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, W - LABEL_W, r.h); ctx.clip();
      drawLane(r);
      ctx.restore();
    });
    var n = visible().length;
    $("tl-range").textContent = fmtNs(v0) + " \u2013 " + fmtNs(v1) + " (" + fmtNs(v1 - v0) + "), " + n + " slices and events visible";
  }
  function visible() {
    var out = [];
    for (var l = 0; l < lanes.length; l++)
      for (var k = first(l, v0); k < start[l + 1] && items[k][2] <= v1; k++) {
        var it = items[k];
        if (it[2] + it[3] >= v0) out.push(k);
      }
    return out;
  }
  function zoom(a, b) {
    if (b - a < 10) { var c = (a + b) / 2; a = c - 5; b = c + 5; }
    v0 = Math.max(-0.05 * end, a); v1 = Math.min(end * 1.05, b);
    if (v1 <= v0) v1 = v0 + 10;
    draw();
  }
  function zoomBy(f, at) {
    var c = at === undefined ? (v0 + v1) / 2 : at;
    zoom(c - (c - v0) * f, c + (v1 - c) * f);
  }
  cv.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = cv.getBoundingClientRect();
    zoomBy(e.deltaY > 0 ? 1.25 : 0.8, t(e.clientX - r.left));
  }, { passive: false });
  var drag = null;
  cv.addEventListener("mousedown", function (e) { drag = { x: e.clientX, v0: v0, v1: v1, moved: false }; });
  window.addEventListener("mouseup", function (e) {
    if (drag && !drag.moved) pick(e);
    drag = null;
  });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2) drag.moved = true;
    var dt = dx * (drag.v1 - drag.v0) / (W - LABEL_W);
    v0 = drag.v0 - dt; v1 = drag.v1 - dt; draw();
  });
  window.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "+" || e.key === "=") zoomBy(0.5);
    else if (e.key === "-") zoomBy(2);
    else if (e.key === "0") zoom(0, end);
  });
  $("zoom-in").onclick = function () { zoomBy(0.5); };
  $("zoom-out").onclick = function () { zoomBy(2); };
  $("zoom-all").onclick = function () { zoom(0, end); };
  function describe(k) {
    var it = items[k], l = lanes[it[0]];
    var s = (names[it[5]] || (it[1] === 2 ? "value " + it[8] : "")) + "\n" + "lane: " + l.name + " (core " + l.core + ")\n" +
      "start: " + fmtNs(it[2]) + (FREQ ? "  (target tick " + Math.round(D.origin + it[2] * FREQ / 1e9) + ")" : "") + "\n";
    if (it[1] === 0) s += "duration: " + fmtNs(it[3]) + "\n";
    if (it[1] === 2) s += "value: " + it[8] + "\n";
    if (CAT[it[7]]) s += "category: " + CAT[it[7]] + "\n";
    if (it[6]) s += "arguments: " + args[it[6]] + "\n";
    return s;
  }
  function pick(e) {
    var r = cv.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
    if (px < LABEL_W) return;
    var tt = t(px), tol = 3 * (v1 - v0) / (W - LABEL_W), best = -1;
    rows.forEach(function (row) {
      if (py < row.y || py >= row.y + row.h) return;
      var sy = row.y + (row.state !== undefined ? STRIP : 0), d = Math.floor((py - sy) / ROW);
      for (var k = first(row.lane, tt - tol); k < start[row.lane + 1] && items[k][2] <= tt + tol; k++) {
        var it = items[k];
        if ((it[4] === d || lanes[row.lane].kind === "counter") && it[2] - tol <= tt && it[2] + it[3] + tol >= tt) best = k;
      }
    });
    if (best >= 0) show(best);
  }
  function show(k) { $("tl-detail").textContent = describe(k); sonde.selected = k; }
  if (D.detail.dropped) {
    $("tl-note").textContent = "Trace too large for full detail: slices kept in 1 ms windows every " + fmtNs(D.detail.spacing) +
      " (" + D.detail.dropped + " items thinned); shading shows how busy each lane was elsewhere.";
  }
  window.addEventListener("resize", draw);
  return { draw: draw, zoom: zoom, visible: visible, laneItems: laneItems, show: show, describe: describe,
    end: function () { return end; }, view: function () { return [v0, v1]; }, rows: rows };
})();

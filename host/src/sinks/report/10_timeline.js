/* 10_timeline.js -- the zoomable, pannable timeline of the report, drawn on
 * a canvas, with a time ruler above it (relative time from the first record
 * and the target's own clock).  One row group per core: No task, the tasks
 * (each with a strip of its states: running, ready, blocked, suspended), Idle,
 * then under "Interrupts" one lane per ISR (nesting marked: a nested
 * activation has a dark top edge, the activation it interrupted is shown
 * paled while preempted), markers, counters as plots, and the diagnostics
 * lane with drops and decoder errors in red.
 *
 * Every pixel tells the truth: a slice at least 2 px wide is drawn solid with
 * its label; narrower activity adds its time to a coverage array per lane,
 * depth and pixel column, and each column is drawn in the lane's colour at
 * the share of the column's time it was busy (a task using 0.02 % of the CPU
 * is a faint tint, one using half of it a half-tone), never as a solid
 * pixel.  Where the pixel is wider than an overview bin, or the detail was
 * thinned out (docs/report.md), depth 0 comes from the overview's busy time.
 * The coverage goes to the canvas as one ImageData, so a frame costs the
 * visible items plus the pixels.  Wheel and drag events are coalesced into
 * one draw per animation frame; each draw is timed (performance marks
 * "tl-draw", TL.lastFrameMs()). */
"use strict";
var TL = (function () {
  var LABEL_W = 170, ROW = 16, STRIP = 5, COUNTER_H = 36, HEAD = 14, GAP = 3, RULER_H = 34;
  var SOLID_PX = 2;       /* narrower slices go to the coverage arrays */
  var MIN_ALPHA = 0.06;   /* any activity at all: a faint tint, never invisible */
  var TICK_H = 4;         /* an instant's tick */
  var STATES = [["Running", "#3a9d4a"], ["Ready", "#e2b93b"], ["Blocked", "#9aa3ad"], ["Suspended", "#6b6f75"]];
  var STATE_COL = {}; STATES.forEach(function (s) { STATE_COL[s[0]] = s[1]; });
  var COL_BAD = "#d00", COL_DIAG = "#555", COL_MARK = "#6a6a6a", COL_SEL = "#0050d0";
  var PREEMPTED = "rgba(255,255,255,0.6)", NEST_EDGE = "rgba(0,0,0,0.7)";
  var ORDER = { notask: 0, task: 1, idle: 2, isr: 3, marker: 4, counter: 5, diag: 6 };

  var strips = [], items, lanes, names, args, start, maxDur, maxDepth, cLo, cHi, end = 1, first0 = 0, rows = [], laneRow = [], totalH = 0;
  var v0 = 0, v1 = 1, W = 800, H = 0, dpr = window.devicePixelRatio || 1, loaded = false;
  var cv = $("tl"), ctx = cv.getContext("2d"), rc = $("tl-ruler"), rctx = rc.getContext("2d");
  var oc = document.createElement("canvas"), octx = oc.getContext("2d");
  var viewFns = [], lastMs = 0, frames = [], pending = false, inCallback = false, lastRuler = null;

  /* ---- indexes, rebuilt from D on every load (live mode changes D) ---- */
  function load() {
    items = D.items; lanes = D.lanes; names = D.names; args = D.args;
    var nl = lanes.length;
    sliceRgbMemo.clear();
    start = new Int32Array(nl + 1); maxDur = new Float64Array(nl); maxDepth = new Int32Array(nl);
    cLo = new Float64Array(nl).fill(Infinity); cHi = new Float64Array(nl).fill(-Infinity);
    var k = 0, e = 0, f = Infinity;
    for (var l = 0; l < nl; l++) {
      start[l] = k;
      while (k < items.length && items[k][I_LANE] === l) {
        var it = items[k];
        if (it[I_T] < f) f = it[I_T];
        if (it[I_DUR] > maxDur[l]) maxDur[l] = it[I_DUR];
        if (it[I_DEPTH] > maxDepth[l]) maxDepth[l] = it[I_DEPTH];
        if (it[I_T] + it[I_DUR] > e) e = it[I_T] + it[I_DUR];
        if (it[I_TYPE] === T_COUNTER) { if (it[I_VALUE] < cLo[l]) cLo[l] = it[I_VALUE]; if (it[I_VALUE] > cHi[l]) cHi[l] = it[I_VALUE]; }
        k++;
      }
    }
    start[nl] = k;
    var ov = D.overview;
    if (ov && ov.n * ov.bin > e && D.detail.dropped) e = ov.n * ov.bin;
    var oldEnd = end, oldFirst = first0;
    end = e > 0 ? e : 1;
    first0 = f < end ? Math.max(0, f) : 0; /* live mode drops old items: the data starts later */
    colorsFromLanes();
    layout();
    buildLod();
    if (!loaded) { v0 = 0; v1 = end; loaded = true; }
    /* live: a view of all the data stays all of it as it grows (the page
     * starts so, with little data); a new session, all before the view,
     * shows itself whole */
    else if (sonde.follow && ((v0 <= oldFirst && v1 >= oldEnd) || end < v0)) { v0 = first0; v1 = Math.max(end, first0 + 10); }
    else if (sonde.follow && end > v1) { var w = v1 - v0; v1 = end; v0 = end - w; }
    else if (v1 >= oldEnd && v0 <= 0) v1 = end; /* the whole trace stays the whole trace */
    legend();
    note();
  }
  function laneName(l) { return l.name.replace(/ state$/, ""); }
  function layout() {
    var stateOf = {};
    lanes.forEach(function (l, i) { if (l.kind === "state") stateOf[l.core + "\u0000" + laneName(l)] = i; });
    rows = []; laneRow = new Array(lanes.length);
    lanes.map(function (l, i) { return i; }).filter(function (i) { return lanes[i].kind !== "state"; })
      .sort(function (a, b) {
        var x = lanes[a], y = lanes[b], ox = ORDER[x.kind], oy = ORDER[y.kind];
        return x.core - y.core || (ox === undefined ? 7 : ox) - (oy === undefined ? 7 : oy) || a - b;
      })
      .forEach(function (i) {
        var l = lanes[i], st = l.kind === "task" ? stateOf[l.core + "\u0000" + l.name] : undefined;
        var h = l.kind === "counter" ? COUNTER_H : (maxDepth[i] + 1) * ROW + (st !== undefined ? STRIP : 0);
        var r = { lane: i, state: st, h: h, y: 0, sy: 0 };
        rows.push(r); laneRow[i] = r;
        if (st !== undefined) laneRow[st] = r;
      });
    var y = 0, lastCore = -1, inIsr = false;
    rows.forEach(function (r) {
      var l = lanes[r.lane];
      r.heads = [];
      if (l.core !== lastCore) { y += HEAD; r.heads.push("Core " + l.core); lastCore = l.core; inIsr = false; }
      if (l.kind === "isr" && !inIsr) { y += HEAD; r.heads.push("Interrupts"); inIsr = true; }
      if (l.kind !== "isr") inIsr = false;
      r.y = y; r.sy = y + (r.state !== undefined ? STRIP : 0); y += r.h + GAP;
    });
    totalH = y + 4;
    /* the strips of the coverage image: a task's state strip, then one per depth */
    strips = [];
    rows.forEach(function (r) {
      if (r.state !== undefined) { r.ss = strips.length; strips.push({ y: r.y, h: STRIP - 1, diag: false }); }
      r.s0 = strips.length;
      for (var d = 0; d <= maxDepth[r.lane]; d++) strips.push({ y: r.sy + d * ROW, h: ROW - 2, diag: lanes[r.lane].kind === "diag" });
    });
  }

  /* ---- level of detail: per strip, busy time and colour sums in a pyramid of
   * bins over the whole trace (B0 bins at level 0, halving up), instants
   * counted, counters' min and max.  Zoomed out past level 0's bin a frame
   * reads the pyramid level whose bin is just narrower than a pixel, so its
   * cost follows the pixels, not the items; the slices that are wide at such
   * zooms (few: they cannot overlap within a strip) are kept in lists by
   * length (wide[j]: at least 2^(j+1) level-0 bins), to be drawn solid with
   * their labels. ---- */
  var B0 = 0, bw0 = 1, lodCov = [], lodInst = [], lodBad = [], lodNest = [], lodMin = [], lodMax = [], wide = [];
  function lodOff(L) { return 2 * B0 - (2 * B0 >> L); } /* level L's first bin */
  function buildLod() {
    /* 32 bytes per strip and bin (two levels' worth of float quadruples):
     * about 16 MB at most for the usual lanes, 1,024 bins per strip at least */
    var ns = strips.length, cap = Math.max(1024, Math.min(16384, Math.floor((1 << 19) / Math.max(1, ns))));
    B0 = 1; while (B0 * 2 <= cap) B0 *= 2;
    bw0 = end / B0;
    lodCov = []; lodInst = []; lodBad = []; lodNest = []; lodMin = []; lodMax = []; wide = [];
    for (var wl = 0; (B0 >> wl) >= 1; wl++) wide.push([]);
    for (var i = 0; i < ns; i++) { lodCov.push(null); lodInst.push(null); lodBad.push(null); lodNest.push(null); }
    function covArr(s) { return lodCov[s] || (lodCov[s] = new Float32Array(2 * B0 * 4)); }
    rows.forEach(function (r) {
      var l = lanes[r.lane], L, b;
      if (l.kind === "counter") {
        var mn = lodMin[r.lane] = new Float64Array(2 * B0).fill(NaN), mx = lodMax[r.lane] = new Float64Array(2 * B0).fill(NaN);
        for (var k = start[r.lane]; k < start[r.lane + 1]; k++) {
          var it = items[k], v = it[I_VALUE]; b = Math.min(B0 - 1, Math.floor(it[I_T] / bw0));
          if (!(mn[b] <= v)) mn[b] = v;
          if (!(mx[b] >= v)) mx[b] = v;
        }
        for (L = 1; (B0 >> L) >= 1; L++) {
          var o = lodOff(L), p = lodOff(L - 1);
          for (b = 0; b < B0 >> L; b++) {
            var a1 = mn[p + 2 * b], a2 = mn[p + 2 * b + 1], c1 = mx[p + 2 * b], c2 = mx[p + 2 * b + 1];
            mn[o + b] = a1 <= a2 || a2 !== a2 ? a1 : a2; mx[o + b] = c1 >= c2 || c2 !== c2 ? c1 : c2;
          }
        }
        return;
      }
      [[r.lane, r.s0], [r.state, r.ss]].forEach(function (ls) {
        var lane = ls[0], s0 = ls[1];
        if (lane === undefined) return;
        var isState = lanes[lane].kind === "state";
        for (var k = start[lane]; k < start[lane + 1]; k++) {
          var it = items[k], s = isState ? s0 : s0 + it[I_DEPTH];
          if (it[I_TYPE] === T_INSTANT) {
            b = Math.min(B0 - 1, Math.floor(it[I_T] / bw0));
            (lodInst[s] || (lodInst[s] = new Float32Array(2 * B0)))[b]++;
            if (CAT[it[I_CAT]] === "diag" || CAT[it[I_CAT]] === "drops") (lodBad[s] || (lodBad[s] = new Uint8Array(2 * B0)))[b] = 1;
            continue;
          }
          if (it[I_TYPE] !== T_SLICE || it[I_DUR] <= 0) continue;
          var c = isState ? rgb(STATE_COL[names[it[I_NAME]]] || "#bbb") : sliceRgb(it, lanes[lane]), arr = covArr(s);
          var t0 = it[I_T], t1 = it[I_T] + it[I_DUR];
          if (it[I_DUR] >= 2 * bw0 && !isState) wide[Math.min(wide.length - 1, Math.floor(Math.log2(it[I_DUR] / (2 * bw0))))].push(k);
          if (!isState && isNested(it)) (lodNest[s] || (lodNest[s] = new Uint8Array(2 * B0)))[Math.min(B0 - 1, Math.floor(t0 / bw0))] = 1;
          for (b = Math.floor(t0 / bw0); b < B0 && b * bw0 < t1; b++) {
            var w = Math.min(t1, (b + 1) * bw0) - Math.max(t0, b * bw0), q = b * 4;
            if (w <= 0) continue;
            arr[q] += w * c[0]; arr[q + 1] += w * c[1]; arr[q + 2] += w * c[2]; arr[q + 3] += w;
          }
        }
      });
    });
    for (var s = 0; s < ns; s++) {
      for (var L = 1; (B0 >> L) >= 1; L++) {
        var o = lodOff(L), p = lodOff(L - 1), a = lodCov[s], n = lodInst[s], bad = lodBad[s], nest = lodNest[s];
        for (var b = 0; b < B0 >> L; b++) {
          if (a) for (var j = 0; j < 4; j++) a[(o + b) * 4 + j] = a[(p + 2 * b) * 4 + j] + a[(p + 2 * b + 1) * 4 + j];
          if (n) n[o + b] = n[p + 2 * b] + n[p + 2 * b + 1];
          if (bad) bad[o + b] = bad[p + 2 * b] | bad[p + 2 * b + 1];
          if (nest) nest[o + b] = nest[p + 2 * b] | nest[p + 2 * b + 1];
        }
      }
    }
    wide.forEach(function (w) { w.sort(function (a, b) { return a - b; }); });
  }
  /* the level whose bins are at most a pixel wide, -1 when items are cheaper */
  function lodLevel() {
    if (nsPx < bw0) return -1;
    var L = 0;
    while ((B0 >> (L + 1)) >= 1 && bw0 * (1 << (L + 1)) <= nsPx) L++;
    return L;
  }
  /* draw strip s (and its lane's instants) from level L */
  function drawLod(s, L, skipCov) {
    var bw = bw0 * (1 << L), o = lodOff(L), nb = B0 >> L, b0 = Math.max(0, Math.floor(v0 / bw)), b1 = Math.min(nb, Math.ceil(v1 / bw));
    var a = lodCov[s], n = lodInst[s], bad = lodBad[s], nest = lodNest[s], b;
    if (a || n || nest) work.bins += b1 - b0;
    if (a && !skipCov) for (b = b0; b < b1; b++) {
      var q = (o + b) * 4, w = a[q + 3];
      if (w > 0) covAddSums(s, b * bw, (b + 1) * bw, a[q], a[q + 1], a[q + 2], w);
    }
    if (n) for (b = b0; b < b1; b++) {
      if (n[o + b]) markAdd(s, bad && bad[o + b] ? MK_BAD : MK_TICK, Math.floor(x(b * bw)));
    }
    if (nest) for (b = b0; b < b1; b++) { /* nested ISR activations: the dark notch */
      if (nest[o + b]) markAdd(s, MK_NEST, Math.floor(x(b * bw)));
    }
  }
  function drawCounterLod(r, L, put) {
    var bw = bw0 * (1 << L), o = lodOff(L), nb = B0 >> L, b0 = Math.max(0, Math.floor(v0 / bw) - 1), b1 = Math.min(nb, Math.ceil(v1 / bw) + 1);
    var mn = lodMin[r.lane], mx = lodMax[r.lane];
    work.bins += Math.max(0, b1 - b0);
    for (var b = b0; b < b1; b++) {
      if (mn[o + b] === mn[o + b]) put(Math.round(Math.max(LABEL_W, Math.min(W, x((b + 0.5) * bw)))), mn[o + b], mx[o + b], mx[o + b]);
    }
  }

  /* ---- coordinates ---- */
  function pw() { return Math.max(1, W - LABEL_W); }
  function x(t) { return LABEL_W + (t - v0) * pw() / (v1 - v0); }
  function t(px) { return v0 + (px - LABEL_W) * (v1 - v0) / pw(); }
  function first(l, from) { /* first item of lane l that can reach from */
    var lo = start[l], hi = start[l + 1], want = from - maxDur[l];
    while (lo < hi) { var m = (lo + hi) >> 1; if (items[m][I_T] < want) lo = m + 1; else hi = m; }
    return lo;
  }

  /* ---- colours as bytes, for the coverage image ---- */
  var rgbCache = {};
  function rgb(css) {
    var c = rgbCache[css];
    if (c) return c;
    octx.fillStyle = "#000"; octx.fillStyle = css;
    var s = octx.fillStyle, m;
    if (s[0] === "#") c = [parseInt(s.slice(1, 3), 16), parseInt(s.slice(3, 5), 16), parseInt(s.slice(5, 7), 16)];
    else { m = s.match(/[\d.]+/g); c = [+m[0], +m[1], +m[2]]; }
    return (rgbCache[css] = c);
  }
  /* the bytes of an item's colour, memoised per lane, category, depth 0 or
   * not and name (what sliceColor looks at): a frame of items asks for
   * thousands; emptied by load() */
  var sliceRgbMemo = new Map();
  function sliceRgb(it, l) {
    var key = ((it[I_LANE] * 16 + it[I_CAT]) * 2 + (it[I_DEPTH] === 0 ? 1 : 0)) * (names.length + 1) + it[I_NAME], c = sliceRgbMemo.get(key);
    if (!c) { c = rgb(sliceColor(it, l)); sliceRgbMemo.set(key, c); }
    return c;
  }
  function sliceColor(it, l) {
    if (l.kind === "idle") return COLOR_IDLE;
    if (l.kind === "notask" && it[I_DEPTH] === 0) return COLOR_NOTASK;
    if (CAT[it[I_CAT]] === "sched") return l.kind === "task" ? colorOf(l.name) : "#90a4ae";
    return colorOf(names[it[I_NAME]] || "");
  }
  function isNested(it) { return CAT[it[I_CAT]] === "isr" && (it[I_VALUE] >= 2 || it[I_DEPTH] >= 1); }
  function rgba(css) { var c = rgb(css), m = /rgba\([^)]*,\s*([\d.]+)\)/.exec(css); return [c[0], c[1], c[2], m ? Math.round(255 * +m[1]) : 255]; }
  var MK_RGBA_TICK = rgba(COL_MARK), MK_RGBA_DIAG = rgba(COL_DIAG), MK_RGBA_BAD = rgba(COL_BAD), MK_RGBA_NEST = rgba(NEST_EDGE);

  /* ---- coverage: per strip (lane and depth, or a state strip) and pixel column,
   * the ns busy and the colour sums; one float quadruple per cell ---- */
  var cov = new Float32Array(0), nStrips = 0, PW = 0, nsPx = 1;
  /* marks: per strip, three rows of pixel flags (instant ticks, losses,
   * nesting notches), blitted with the coverage: a frame draws them with a
   * few image copies, however many columns have one */
  var MK_TICK = 0, MK_BAD = 1, MK_NEST = 2, MK_ROWS = 3, mk = new Uint8Array(0), mkUsed = new Uint8Array(0), covUsed = new Uint8Array(0);
  function covReset(n) {
    PW = Math.ceil(pw()); nStrips = n; nsPx = (v1 - v0) / pw();
    if (cov.length < n * PW * 4) cov = new Float32Array(n * PW * 4); else cov.fill(0, 0, n * PW * 4);
    if (mk.length < n * MK_ROWS * PW) mk = new Uint8Array(n * MK_ROWS * PW); else mk.fill(0, 0, n * MK_ROWS * PW);
    if (mkUsed.length < n * MK_ROWS) mkUsed = new Uint8Array(n * MK_ROWS); else mkUsed.fill(0);
    if (covUsed.length < n) covUsed = new Uint8Array(n); else covUsed.fill(0);
  }
  /* a mark of kind k in canvas column px of strip s (a loss is 3 px wide) */
  function markAdd(s, k, px) {
    var col = px - LABEL_W, row = s * MK_ROWS + k, o = row * PW;
    for (var e = Math.min(PW, col + (k === MK_BAD ? 3 : 1)); col < e; col++) if (col >= 0) mk[o + col] = 1;
    mkUsed[row] = 1;
  }
  /* add [t0, t1) ns in colour c (bytes) times share f to strip s */
  function covAdd(s, t0, t1, c, f) {
    var a = (t0 - v0) / nsPx, b = (t1 - v0) / nsPx;
    if (b <= 0 || a >= PW) return;
    if (a < 0) a = 0;
    if (b > PW) b = PW;
    var base = s * PW * 4;
    covUsed[s] = 1; work.cols += Math.ceil(b) - Math.floor(a);
    for (var col = Math.floor(a); col < b; col++) {
      var w = (Math.min(b, col + 1) - Math.max(a, col)) * f, o = base + col * 4;
      cov[o] += w * c[0]; cov[o + 1] += w * c[1]; cov[o + 2] += w * c[2]; cov[o + 3] += w;
    }
  }
  /* add a pyramid cell: busy ns w with colour sums R G B over [t0, t1), spread evenly */
  function covAddSums(s, t0, t1, R, G, B, w) {
    var a = (t0 - v0) / nsPx, b = (t1 - v0) / nsPx, span = b - a;
    if (b <= 0 || a >= PW) return;
    var k = 1 / (nsPx * span), base = s * PW * 4;
    if (a < 0) a = 0;
    if (b > PW) b = PW;
    covUsed[s] = 1; work.cols += Math.ceil(b) - Math.floor(a);
    for (var col = Math.floor(a); col < b; col++) {
      var f = (Math.min(b, col + 1) - Math.max(a, col)) * k, o = base + col * 4;
      cov[o] += R * f; cov[o + 1] += G * f; cov[o + 2] += B * f; cov[o + 3] += w * f;
    }
  }
  /* the coverage (row i: strip i) and the marks (rows nStrips + 3 i + k) as
   * one image, each used row stretched to its place on the canvas */
  var img = null;
  function covBlit(strips) {
    if (!nStrips) return;
    var rowsN = nStrips * (1 + MK_ROWS);
    if (!img || img.width !== PW || img.height !== rowsN) {
      oc.width = PW; oc.height = rowsN; img = octx.createImageData(PW, rowsN);
    }
    var px = img.data, n = nStrips * PW, i, s, k;
    for (i = 0; i < n; i++) {
      var o = i * 4, w = cov[o + 3];
      if (w <= 0) { px[o + 3] = 0; continue; }
      px[o] = cov[o] / w; px[o + 1] = cov[o + 1] / w; px[o + 2] = cov[o + 2] / w;
      px[o + 3] = 255 * Math.min(1, Math.max(MIN_ALPHA, w));
    }
    for (s = 0; s < nStrips; s++) for (k = 0; k < MK_ROWS; k++) {
      var row = s * MK_ROWS + k;
      if (!mkUsed[row]) continue;
      var c = k === MK_BAD ? MK_RGBA_BAD : k === MK_NEST ? MK_RGBA_NEST : strips[s].diag ? MK_RGBA_DIAG : MK_RGBA_TICK;
      for (i = 0; i < PW; i++) {
        var q = ((nStrips + row) * PW + i) * 4, on = mk[row * PW + i];
        px[q] = c[0]; px[q + 1] = c[1]; px[q + 2] = c[2]; px[q + 3] = on ? c[3] : 0;
      }
    }
    octx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    for (s = 0; s < nStrips; s++) {
      var st = strips[s];
      if (covUsed[s]) ctx.drawImage(oc, 0, s, PW, 1, LABEL_W, st.y, PW, st.h);
      for (k = 0; k < MK_ROWS; k++) {
        if (!mkUsed[s * MK_ROWS + k]) continue;
        var y = k === MK_TICK ? st.y + st.h - TICK_H : st.y, h = k === MK_TICK ? TICK_H : k === MK_NEST ? 2 : st.h;
        ctx.drawImage(oc, 0, nStrips + s * MK_ROWS + k, PW, 1, LABEL_W, y, PW, h);
      }
    }
  }

  /* ---- drawing ---- */
  var nVisible = 0;
  /* the work of the last frame, for the tests (TL.work()): pyramid bins and
   * detail items read, coverage columns written, slices drawn solid */
  var work = { bins: 0, items: 0, cols: 0, solid: 0 };
  function lowerBound(l, t0) { /* first item of lane l starting at or after t0 */
    var lo = start[l], hi = start[l + 1];
    while (lo < hi) { var m = (lo + hi) >> 1; if (items[m][I_T] < t0) lo = m + 1; else hi = m; }
    return lo;
  }
  function drawStates(r) {
    var sl = r.state, c;
    for (var k = first(sl, v0); k < start[sl + 1] && items[k][I_T] <= v1; k++) {
      var it = items[k];
      work.items++;
      if (it[I_TYPE] !== T_SLICE || it[I_T] + it[I_DUR] < v0) continue;
      c = rgb(STATE_COL[names[it[I_NAME]]] || "#bbb");
      covAdd(r.ss, it[I_T], it[I_T] + it[I_DUR], c, 1);
    }
  }
  /* depth 0 from the host's overview bins where detail was thinned out: the
   * whole view when a pixel is wider than a bin, else the columns outside
   * the windows the host kept; true when depth 0 needs nothing else */
  function drawOverview(r) {
    var ov = D.overview, busy = ov && ov.busy[r.lane];
    if (!D.detail.dropped || !busy || !busy.length) return false;
    var c = rgb(laneColor(lanes[r.lane])), b;
    if (nsPx >= ov.bin) {
      var b0 = Math.max(0, Math.floor(v0 / ov.bin)), b1 = Math.min(ov.n, Math.ceil(v1 / ov.bin));
      for (b = b0; b < b1; b++) if (busy[b]) covAdd(r.s0, b * ov.bin, (b + 1) * ov.bin, c, busy[b] / ov.bin);
      return true;
    }
    var sp = D.detail.spacing, win = D.detail.window;
    for (var col = 0; col < PW; col++) {
      var ta = Math.max(0, v0 + col * nsPx), tb = v0 + (col + 1) * nsPx;
      if (tb <= ta) continue;
      b = Math.floor((ta + tb) / 2 / ov.bin);
      if (!busy[b]) continue;
      /* the part of the column outside the kept windows [k sp, k sp + win) */
      var kept = keptBefore(tb, sp, win) - keptBefore(ta, sp, win);
      if (kept < tb - ta) covAdd(r.s0, ta, tb, c, busy[b] / ov.bin * (1 - kept / (tb - ta)));
    }
    return false;
  }
  /* the time in [0, t) inside the kept windows [k sp, k sp + win): O(1), a
   * zoomed-out column spans many windows */
  function keptBefore(t, sp, win) { var k = Math.floor(t / sp); return k * win + Math.min(win, t - k * sp); }
  function laneColor(l) {
    return l.kind === "idle" ? COLOR_IDLE : l.kind === "notask" ? COLOR_NOTASK : colorOf(l.name);
  }
  /* one slice at least SOLID_PX wide: solid, labelled, nesting noted */
  function drawSolid(r, l, it, x0, x1, nested) {
    var yy = r.sy + it[I_DEPTH] * ROW, a = Math.max(LABEL_W, x0), b = Math.min(W, x1);
    work.solid++;
    ctx.fillStyle = sliceColor(it, l);
    ctx.fillRect(a, yy, b - a, ROW - 2);
    if (isNested(it)) nested.push([r, it, a, b]);
    if (b - a > 30) {
      ctx.fillStyle = "#fff"; ctx.save(); ctx.beginPath(); ctx.rect(a, yy, b - a, ROW - 2); ctx.clip();
      ctx.fillText(names[it[I_NAME]] || "", a + 3, yy + ROW - 5); ctx.restore();
    }
  }
  function drawLane(r, nested) {
    var l = lanes[r.lane], fromOv = drawOverview(r);
    for (var k = first(r.lane, v0); k < start[r.lane + 1] && items[k][I_T] <= v1; k++) {
      var it = items[k], d = it[I_DEPTH];
      work.items++;
      if (it[I_T] + it[I_DUR] < v0) continue;
      nVisible++;
      var x0 = x(it[I_T]), x1 = x(it[I_T] + it[I_DUR]);
      if (it[I_TYPE] === T_INSTANT) { /* instant: a tick, one per pixel column; no duration, so short
                          * (dense instants must not read as a busy lane); losses tall and red,
                          * drawn even where another instant took the column first */
        markAdd(r.s0 + d, CAT[it[I_CAT]] === "diag" || CAT[it[I_CAT]] === "drops" ? MK_BAD : MK_TICK, Math.floor(x0));
        continue;
      }
      if (it[I_TYPE] !== T_SLICE) continue;
      if (x1 - x0 >= SOLID_PX) { drawSolid(r, l, it, x0, x1, nested); continue; }
      if (!(fromOv && d === 0)) covAdd(r.s0 + d, it[I_T], it[I_T] + it[I_DUR], sliceRgb(it, l), 1);
      if (isNested(it)) markAdd(r.s0 + d, MK_NEST, Math.floor(x0));
    }
  }
  /* zoomed out: the pyramid, then the wide slices of this lane on top */
  function drawLaneLod(r, L, nested) {
    var l = lanes[r.lane], fromOv = drawOverview(r);
    nVisible += lowerBound(r.lane, v1) - first(r.lane, v0);
    for (var d = 0; d <= maxDepth[r.lane]; d++) drawLod(r.s0 + d, L, fromOv && d === 0);
    /* the wide slices of the lane that can reach the view: from the lists
     * of the slices at least two of this level's bins long (narrower ones are
     * under SOLID_PX here), so at most about a slice per pixel and strip */
    var from = first(r.lane, v0);
    for (var wl = L; wl < wide.length; wl++) {
      var wk = wide[wl], lo = 0, hi = wk.length;
      while (lo < hi) { var m = (lo + hi) >> 1; if (wk[m] < from) lo = m + 1; else hi = m; }
      for (var i = lo; i < wk.length && wk[i] < start[r.lane + 1] && items[wk[i]][2] <= v1; i++) {
        var it = items[wk[i]], x0 = x(it[I_T]), x1 = x(it[I_T] + it[I_DUR]);
        work.items++;
        if (x1 - x0 >= SOLID_PX && x1 >= LABEL_W && x0 <= W) drawSolid(r, l, it, x0, x1, nested);
      }
    }
  }
  /* nested ISR activations: a dark top edge on them, the interrupted
   * activation (the lane's depth above, or the ISR lane with the level
   * below on the same core) paled while preempted */
  function drawNesting(nested) {
    nested.forEach(function (n) {
      var r = n[0], it = n[1], d = it[I_DEPTH], yy = r.sy + d * ROW;
      ctx.fillStyle = NEST_EDGE;
      ctx.fillRect(n[2], yy, Math.max(1, n[3] - n[2]), n[3] - n[2] < SOLID_PX ? 2 : 3);
      if (n[3] - n[2] < SOLID_PX) return;
      ctx.fillStyle = PREEMPTED;
      if (d >= 1) { ctx.fillRect(n[2], yy - ROW, n[3] - n[2], ROW - 2); return; }
      rows.forEach(function (o) {
        var ol = lanes[o.lane];
        if (o === r || ol.kind !== "isr" || ol.core !== lanes[r.lane].core) return;
        for (var k = first(o.lane, it[I_T]); k < start[o.lane + 1] && items[k][I_T] <= it[I_T]; k++) {
          var p = items[k];
          if (p[I_TYPE] === T_SLICE && p[I_DEPTH] === 0 && p[I_VALUE] === it[I_VALUE] - 1 && p[I_T] + p[I_DUR] >= it[I_T] + it[I_DUR]) ctx.fillRect(n[2], o.sy, n[3] - n[2], ROW - 2);
        }
      });
    });
  }
  function drawCounter(r, L) {
    var a = start[r.lane], b = start[r.lane + 1];
    if (a === b) return;
    var lo = cLo[r.lane], hi = cHi[r.lane], span = hi - lo || 1, y = r.y, h = r.h - 4;
    function py(v) { return y + 2 + h - (v - lo) / span * h; }
    ctx.strokeStyle = colorOf(lanes[r.lane].name); ctx.beginPath();
    nVisible += lowerBound(r.lane, v1) - first(r.lane, v0);
    /* one vertical stroke per pixel column (min..max) and lines between them,
     * from the values (or the pyramid's min and max) of the column */
    var col = -1, mn = 0, mx = 0, last = 0, started = false;
    var flush = function () {
      if (col < 0) return;
      if (!started) { ctx.moveTo(col, py(mn)); started = true; }
      ctx.lineTo(col, py(mn)); ctx.lineTo(col, py(mx)); ctx.lineTo(col, py(last));
    };
    var put = function (px, lo, hi, end) {
      if (px !== col) { flush(); col = px; mn = lo; mx = hi; } else { if (lo < mn) mn = lo; if (hi > mx) mx = hi; }
      last = end;
    };
    if (L >= 0) drawCounterLod(r, L, put);
    else for (var k = Math.max(a, first(r.lane, v0) - 1); k < b; k++) {
      work.items++;
      var it = items[k];
      put(Math.round(Math.max(LABEL_W, Math.min(W, x(it[I_T])))), it[I_VALUE], it[I_VALUE], it[I_VALUE]);
      if (it[I_T] > v1) break;
    }
    flush();
    ctx.stroke();
    ctx.fillStyle = "#555"; ctx.fillText(String(hi), LABEL_W + 2, y + 10); ctx.fillText(String(lo), LABEL_W + 2, y + r.h - 2);
  }
  function drawSelection() {
    var k = sonde.selected;
    if (k === undefined || k === null || !items[k]) return;
    var it = items[k], r = laneRow[it[I_LANE]];
    if (!r) return;
    var isState = lanes[it[I_LANE]].kind === "state", y = isState ? r.y : r.sy + it[I_DEPTH] * ROW, h = isState ? STRIP - 1 : ROW - 2;
    if (lanes[it[I_LANE]].kind === "counter") { y = r.y; h = r.h; }
    var a = x(it[I_T]), b = x(it[I_T] + it[I_DUR]);
    if (b < LABEL_W || a > W) return;
    if (b - a < 5) { var c = (a + b) / 2; a = c - 2.5; b = c + 2.5; }
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, W - LABEL_W, H); ctx.clip();
    ctx.strokeStyle = COL_SEL; ctx.lineWidth = 2;
    ctx.strokeRect(a - 1, y - 1, b - a + 2, h + 2);
    ctx.restore();
  }
  /* the canvas's width on the page, read again only when it changed: read
   * in every frame, after the views had rewritten their text, it made the
   * browser lay the page out in the middle of the frame */
  var cssW = 0;
  if (window.ResizeObserver) new ResizeObserver(function () { cssW = 0; request(); }).observe(cv);
  function draw() {
    performance.mark("tl-draw-start");
    if (!cssW || !window.ResizeObserver) cssW = cv.clientWidth;
    W = cssW || 800; H = totalH;
    if (cv.width !== Math.round(W * dpr) || cv.height !== Math.round(H * dpr)) {
      cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr); cv.style.height = H + "px";
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.font = "11px system-ui, sans-serif";
    var ticks = drawRuler();
    ctx.fillStyle = "#eef0f2"; /* the ruler's grid */
    ticks.forEach(function (tk) { ctx.fillRect(Math.round(x(tk[1])), 0, 1, H); });
    covReset(strips.length);
    var L = lodLevel(), nested = [];
    nVisible = 0; work.bins = work.items = work.cols = work.solid = 0;
    rows.forEach(function (r) {
      var l = lanes[r.lane], hy = r.y;
      for (var j = r.heads.length - 1; j >= 0; j--) {
        ctx.fillStyle = r.heads[j] === "Interrupts" ? "#8a2b2b" : "#243447";
        ctx.fillText(r.heads[j], 4, hy - 3); hy -= HEAD;
      }
      ctx.fillStyle = "#f3f5f7"; ctx.fillRect(0, r.y, LABEL_W - 4, r.h);
      if (l.kind === "task" || l.kind === "isr") { ctx.fillStyle = laneColor(l); ctx.fillRect(0, r.y, 4, r.h); }
      ctx.fillStyle = "#222"; ctx.fillText(l.name.slice(0, 26), 8, r.y + 12);
      ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, r.y, W - LABEL_W, r.h); ctx.clip();
      if (r.state !== undefined) { if (L >= 0) drawLod(r.ss, L, false); else drawStates(r); }
      if (l.kind === "counter") drawCounter(r, L);
      else if (L >= 0) drawLaneLod(r, L, nested);
      else drawLane(r, nested);
      ctx.restore();
    });
    covBlit(strips);
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, W - LABEL_W, H); ctx.clip();
    drawNesting(nested);
    ctx.restore();
    drawSelection();
    $("tl-range").textContent = fmtNs(v0) + " \u2013 " + fmtNs(v1) + " (" + fmtNs(v1 - v0) + "), " + nVisible +
      " slices and events visible";
    performance.mark("tl-draw-end");
    var m = performance.measure("tl-draw", "tl-draw-start", "tl-draw-end");
    lastMs = m ? m.duration : 0;
    frames.push(lastMs); if (frames.length > 120) frames.shift();
    performance.clearMarks("tl-draw-start"); performance.clearMarks("tl-draw-end"); performance.clearMeasures("tl-draw");
    if (!inCallback) {
      inCallback = true;
      try { viewFns.forEach(function (fn) { fn(v0, v1); }); } finally { inCallback = false; }
    }
  }
  function request() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; draw(); });
  }

  /* ---- the ruler: relative time and target time, units fit for the step ---- */
  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
    return Math.max(1, (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p);
  }
  function group(s) { /* thin spaces between thousands of the integer part */
    var p = s.split("."), neg = p[0][0] === "-", i = neg ? p[0].slice(1) : p[0];
    i = i.replace(/\B(?=(\d{3})+(?!\d))/g, "\u2009");
    return (neg ? "-" : "") + i + (p.length > 1 ? "." + p[1] : "");
  }
  function rulerUnit(step) {
    if (!FREQ) return [1, "t"];
    return step >= 1e8 ? UNITS[0] : step >= 1e5 ? UNITS[1] : step >= 1e2 ? UNITS[2] : UNITS[3];
  }
  function rulerText(v, step, u) {
    var dec = Math.max(0, Math.ceil(Math.log10(u[0] / step) - 1e-9));
    return group((v / u[0]).toFixed(dec)) + " " + u[1];
  }
  function originNs() { return FREQ ? D.origin * 1e9 / FREQ : D.origin; }
  function rulerTicks() {
    var step = niceStep(v1 - v0, Math.max(2, pw() / 100)), u = rulerUnit(step), on = originNs(), rel = [], tgt = [], i, v;
    for (i = Math.ceil(v0 / step); (v = i * step) <= v1; i++) rel.push([rulerText(v, step, u), v]);
    for (i = Math.ceil((v0 + on) / step); (v = i * step) - on <= v1; i++) tgt.push([rulerText(v, step, u), v - on]);
    return { step: step, unit: u[1], unitNs: u[0], origin_ns: on, rel: rel, target: tgt, view: [v0, v1] };
  }
  function drawRuler() {
    var R = rulerTicks();
    lastRuler = R;
    if (rc.width !== Math.round(W * dpr) || rc.height !== Math.round(RULER_H * dpr)) {
      rc.width = Math.round(W * dpr); rc.height = Math.round(RULER_H * dpr); rc.style.height = RULER_H + "px";
    }
    rctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    rctx.fillStyle = "#fff"; rctx.fillRect(0, 0, W, RULER_H);
    rctx.font = "11px system-ui, sans-serif"; rctx.textBaseline = "alphabetic";
    rctx.fillStyle = "#555";
    rctx.fillText("time from first record", 4, 13);
    rctx.fillText(FREQ ? "target time (" + (FREQ / 1e6) + " MHz)" : "target tick", 4, 29);
    rctx.fillStyle = "#ccc"; rctx.fillRect(0, RULER_H - 1, W, 1); rctx.fillRect(LABEL_W - 1, 0, 1, RULER_H);
    rctx.save(); rctx.beginPath(); rctx.rect(LABEL_W, 0, W - LABEL_W, RULER_H); rctx.clip();
    [[R.rel, 0, "#222"], [R.target, 16, "#8a2b2b"]].forEach(function (row) {
      row[0].forEach(function (tk) {
        var px = Math.round(x(tk[1]));
        rctx.fillStyle = row[2]; rctx.fillRect(px, row[1] + (row[1] ? 12 : 0), 1, 4);
        rctx.fillText(tk[0], px + 3, row[1] + 13);
      });
    });
    rctx.restore();
    return R.rel;
  }

  /* ---- the view ---- */
  function setView(a, b) {
    if (b - a < 10) { var c = (a + b) / 2; a = c - 5; b = c + 5; }
    v0 = Math.max(-0.05 * end, a); v1 = Math.min(end * 1.05, b);
    if (v1 <= v0) v1 = v0 + 10;
  }
  function zoom(a, b) { setView(a, b); draw(); }
  function zoomBy(f, at, later) {
    var c = at === undefined ? (v0 + v1) / 2 : at;
    setView(c - (c - v0) * f, c + (v1 - c) * f);
    if (later) request(); else draw();
  }
  cv.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = cv.getBoundingClientRect();
    if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) { /* pan */
      var dt = (e.deltaX || e.deltaY) * (v1 - v0) / pw();
      setView(v0 + dt, v1 + dt); request(); return;
    }
    zoomBy(Math.pow(1.0015, e.deltaY), t(e.clientX - r.left), true);
  }, { passive: false });
  var drag = null;
  cv.addEventListener("mousedown", function (e) { drag = { x: e.clientX, v0: v0, v1: v1, moved: false }; });
  window.addEventListener("mouseup", function (e) {
    if (drag && !drag.moved && e.target === cv) pick(e);
    drag = null;
  });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (Math.abs(dx) > 2) drag.moved = true;
    var dt = dx * (drag.v1 - drag.v0) / pw();
    v0 = drag.v0 - dt; v1 = drag.v1 - dt; request();
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

  /* ---- the selected record ---- */
  function tick(ns) { return Math.round(D.origin + ns * FREQ / 1e9); }
  function describe(k) {
    var it = items[k], l = lanes[it[I_LANE]];
    var s = (names[it[I_NAME]] || (it[I_TYPE] === T_COUNTER ? "value " + it[I_VALUE] : "")) + "\n" + "lane: " + l.name + " (core " + l.core + ")\n" +
      "start: " + fmtNs(it[I_T]) + (FREQ ? "  (target tick " + tick(it[I_T]) + ")" : "") + "\n";
    if (it[I_TYPE] === T_SLICE) s += "end: " + fmtNs(it[I_T] + it[I_DUR]) + (FREQ ? "  (target tick " + tick(it[I_T] + it[I_DUR]) + ")" : "") + "\n" +
      "duration: " + fmtNs(it[I_DUR]) + "\n";
    if (it[I_TYPE] === T_COUNTER) s += "value: " + it[I_VALUE] + "\n";
    if (CAT[it[I_CAT]] === "isr" && l.kind === "isr" && it[I_VALUE] >= 1) s += "nesting level: " + it[I_VALUE] + "\n";
    if (CAT[it[I_CAT]]) s += "category: " + CAT[it[I_CAT]] + "\n";
    if (it[I_ARGS]) s += "arguments: " + args[it[I_ARGS]] + "\n";
    return s;
  }
  function pick(e) {
    var r = cv.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top;
    if (px < LABEL_W) return;
    var tt = t(px), tol = 3 * (v1 - v0) / pw(), best = -1;
    rows.forEach(function (row) {
      if (py < row.y || py >= row.y + row.h) return;
      var lane = row.lane, d = Math.floor((py - row.sy) / ROW);
      if (row.state !== undefined && py < row.sy) { lane = row.state; d = 0; }
      for (var k = first(lane, tt - tol); k < start[lane + 1] && items[k][I_T] <= tt + tol; k++) {
        var it = items[k];
        if ((it[I_DEPTH] === d || lanes[lane].kind === "counter") && it[I_T] - tol <= tt && it[I_T] + it[I_DUR] + tol >= tt) best = k;
      }
    });
    if (best >= 0) show(best);
  }
  function show(k) { $("tl-detail").textContent = describe(k); sonde.selected = k; draw(); }

  /* ---- legend and note (HTML; colours from the same constants as the drawing) ---- */
  function sw(col, text, cls) {
    return '<span class="tl-key' + (cls ? " " + cls : "") + '"><i style="background:' + col + '"></i>' + esc(text) + "</span>";
  }
  function legend() {
    var el = $("tl-legend");
    if (!el) return;
    el.innerHTML = "<b>Task states</b> " + STATES.map(function (s) { return sw(s[1], s[0]); }).join("") +
      " <b>Marks</b> " + sw(COL_MARK, "instant / marker", "tick") + sw(COL_DIAG, "diagnostic", "tick") +
      sw(COL_BAD, "loss, drop, decoder error", "tick") +
      " <b>ISRs</b> " + sw(NEST_EDGE, "nested activation (dark top edge)", "edge") +
      sw("#d9534f;opacity:.4", "preempted (paled)") +
      " <b>Selection</b> " + '<span class="tl-key outline"><i style="border-color:' + COL_SEL + '"></i>outline</span>' +
      '<br><span class="tl-shade"><i style="background:linear-gradient(90deg,#fff,' + PALETTE[0] + ')"></i>' +
      "slices narrower than " + SOLID_PX + " px are shaded by the share of the pixel's time they took " +
      "(white: idle, full colour: busy all of it)</span>";
  }
  function note() {
    $("tl-note").textContent = D.detail.dropped ? "Trace too large for full detail: slices kept in 1 ms windows every " +
      fmtNs(D.detail.spacing) + " (" + D.detail.dropped + " items thinned); shading shows how busy each lane was elsewhere." : "";
  }

  function visible() {
    var out = [];
    for (var l = 0; l < lanes.length; l++)
      for (var k = first(l, v0); k < start[l + 1] && items[k][I_T] <= v1; k++) {
        var it = items[k];
        if (it[I_T] + it[I_DUR] >= v0) out.push(k);
      }
    return out;
  }
  function laneItems(l) { var r = []; for (var k = start[l]; k < start[l + 1]; k++) r.push(k); return r; }
  /* the ruler sticks under the page's sticky navigation bar */
  function stick() { var nav = document.querySelector("nav"); rc.style.top = (nav ? nav.offsetHeight : 0) + "px"; }
  load();
  stick();
  window.addEventListener("resize", function () { stick(); request(); });
  return { load: load, draw: draw, zoom: zoom, visible: visible, laneItems: laneItems, show: show, describe: describe,
    end: function () { return end; }, view: function () { return [v0, v1]; }, get rows() { return rows; },
    onView: function (fn) { viewFns.push(fn); },
    ruler: function () { return lastRuler || rulerTicks(); },
    minAlpha: MIN_ALPHA, lastFrameMs: function () { return lastMs; },
    work: function () {
      return { bins: work.bins, items: work.items, cols: work.cols, solid: work.solid, level: lodLevel(), px: PW, strips: nStrips };
    }, frames: function () { return frames.slice(); },
    /* for the tests: where a lane is drawn (CSS px in the canvas) */
    laneBox: function (l, depth) {
      var r = laneRow[l];
      if (!r) return null;
      if (lanes[l].kind === "state") return { x: LABEL_W, y: r.y, w: W - LABEL_W, h: STRIP - 1 };
      return { x: LABEL_W, y: r.sy + (depth || 0) * ROW, w: W - LABEL_W, h: ROW - 2 };
    } };
})();

/* 30_flame.js -- the function profile as a flame graph (icicle, roots on
 * top: one per task, "No task", ISR and idle) and as a call tree (each
 * context a root, its callees indented below it), from the calling-context
 * tree the host built (`--format profile`'s model).  The idle loop's
 * contexts are left out of both unless "show (idle)" is ticked, as the
 * speedscope export leaves idle out unless asked: idle is most of the time
 * of a quiet system and would squeeze the work into a sliver. */
"use strict";
var Flame = (function () {
  var P, N, kids, total, allRoots, roots = [];
  function isIdle(i) { return P.nodes[i][1] < 0 && /^\(idle\)/.test(P.nodes[i][3] || ""); }
  function load() {
    P = D.profile; N = P.nodes.length; kids = []; total = new Float64Array(N); allRoots = [];
    for (var i = 0; i < N; i++) kids.push([]);
    P.nodes.forEach(function (n, i) { if (n[0] < 0) allRoots.push(i); else kids[n[0]].push(i); });
    allRoots.forEach(tot);
    pick();
  }
  function pick() {
    var withIdle = $("flame-idle").checked;
    roots = allRoots.filter(function (r) { return withIdle || !isIdle(r); });
    if (focus >= 0 && !withIdle && isIdle(rootOf(focus))) focus = -1;
  }
  function rootOf(i) { while (P.nodes[i][0] >= 0) i = P.nodes[i][0]; return i; }
  function tot(i) { /* iterative: deep stacks must not overflow the JS stack */
    var order = [i], k = 0;
    while (k < order.length) { var c = kids[order[k++]]; for (var j = 0; j < c.length; j++) order.push(c[j]); }
    for (var m = order.length - 1; m >= 0; m--) {
      var x = order[m], s = P.nodes[x][2];
      for (var q = 0; q < kids[x].length; q++) s += total[kids[x][q]];
      total[x] = s;
    }
  }
  function name(i) { var n = P.nodes[i]; return n[1] < 0 ? n[3] : P.funcs[n[1]].name; }
  var cv = $("flame-canvas"), ctx = cv.getContext("2d"), ROW = 17, focus = -1, boxes = [];
  function draw() {
    var W = cv.clientWidth || 800, dpr = window.devicePixelRatio || 1, depthMax = 0;
    boxes = [];
    var top = focus < 0 ? roots : [focus], sum = top.reduce(function (s, r) { return s + total[r]; }, 0) || 1;
    var stack = [], xx = 0;
    top.forEach(function (r) { stack.push([r, xx, 0]); xx += total[r] / sum * W; });
    while (stack.length) {
      var e = stack.pop(), i = e[0], w = total[i] / sum * W;
      if (w < 0.3) continue;
      boxes.push([i, e[1], e[2], w]);
      if (e[2] > depthMax) depthMax = e[2];
      var cx = e[1];
      kids[i].slice().sort(function (a, b) { return total[b] - total[a]; }).forEach(function (c) {
        stack.push([c, cx, e[2] + 1]); cx += total[c] / sum * W;
      });
    }
    var H = Math.max(60, (depthMax + 1) * ROW + 4);
    cv.width = W * dpr; cv.height = H * dpr; cv.style.height = H + "px";
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.font = "11px system-ui, sans-serif";
    boxes.forEach(function (b) {
      var nm = name(b[0]);
      ctx.fillStyle = P.nodes[b[0]][1] < 0 ? "#90a4ae" : colorOf(nm);
      ctx.fillRect(b[1], b[2] * ROW, Math.max(0.5, b[3] - 0.5), ROW - 1);
      if (b[3] > 40) {
        ctx.save(); ctx.beginPath(); ctx.rect(b[1], b[2] * ROW, b[3], ROW); ctx.clip();
        ctx.fillStyle = "#fff"; ctx.fillText(nm, b[1] + 3, b[2] * ROW + 12); ctx.restore();
      }
    });
    if (!boxes.length) {
      ctx.fillStyle = "#777";
      ctx.fillText(allRoots.length ? "only the idle loop ran functions: tick \"show (idle)\"" : "no function events in this trace", 8, 20);
    }
  }
  cv.addEventListener("click", function (e) {
    var r = cv.getBoundingClientRect(), px = e.clientX - r.left, py = e.clientY - r.top, hit = -1;
    boxes.forEach(function (b) { if (px >= b[1] && px < b[1] + b[3] && py >= b[2] * ROW && py < (b[2] + 1) * ROW) hit = b[0]; });
    if (hit < 0) return;
    $("flame-info").textContent = name(hit) + ": " + fmtT(total[hit]) + " " + unitT() + " inclusive, " +
      fmtT(P.nodes[hit][2]) + " " + unitT() + " self (" + fmtPct(total[hit], P.total) + " % of the traced time)";
    focus = hit === focus ? -1 : hit;
    draw();
  });
  function tree() {
    var share = roots.reduce(function (s, r) { return s + total[r]; }, 0);
    function node(i, depth) {
      var c = kids[i].slice().sort(function (a, b) { return total[b] - total[a]; }).slice(0, 50);
      var label = '<span class="bar" style="width:' + Math.max(1, Math.round(60 * total[i] / (P.total || 1))) + 'px"></span>' +
        esc(name(i)) + " \u2014 " + fmtT(total[i]) + " " + unitT() + " (" + fmtPct(total[i], P.total) + " %), self " + fmtT(P.nodes[i][2]);
      var cls = depth ? "" : ' class="ct-root"';
      if (!c.length || depth > 40) return "<div" + cls + ">" + label + "</div>";
      return "<details" + cls + (depth < 2 ? " open" : "") + "><summary>" + label + "</summary>" +
        '<div class="ct-kids">' + c.map(function (k) { return node(k, depth + 1); }).join("") + "</div></details>";
    }
    $("calltree-body").innerHTML = roots.length ? roots.slice().sort(function (a, b) { return total[b] - total[a]; })
      .map(function (r) { return node(r, 0); }).join("") : "<p>No function events in this trace" +
      (allRoots.length ? " outside the idle loop (tick \"show (idle)\")" : "") + ".</p>";
    $("flame-note").textContent = allRoots.length === roots.length ? "" :
      "(idle) left out: the graph shows " + fmtPct(share, P.total) + " % of the traced time.";
  }
  $("flame-idle").addEventListener("change", function () { pick(); draw(); tree(); });
  window.addEventListener("resize", function () { draw(); });
  load();
  return { load: load, draw: draw, tree: tree, roots: function () { return roots; }, total: function () { return total; },
    name: function (i) { return name(i); }, boxes: function () { return boxes; } };
})();

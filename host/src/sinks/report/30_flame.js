/* 30_flame.js -- the function profile as a flame graph (icicle, roots on
 * top: one per task, idle, "(main)" and ISR) and as a call tree, from the
 * calling-context tree the host built (`--format profile`'s model). */
"use strict";
var Flame = (function () {
  var P = D.profile, N = P.nodes.length, kids = [], total = new Float64Array(N), roots = [];
  for (var i = 0; i < N; i++) kids.push([]);
  P.nodes.forEach(function (n, i) { if (n[0] < 0) roots.push(i); else kids[n[0]].push(i); });
  function tot(i) { /* iterative: deep stacks must not overflow the JS stack */
    var order = [i], k = 0;
    while (k < order.length) { var c = kids[order[k++]]; for (var j = 0; j < c.length; j++) order.push(c[j]); }
    for (var m = order.length - 1; m >= 0; m--) {
      var x = order[m], s = P.nodes[x][2];
      for (var q = 0; q < kids[x].length; q++) s += total[kids[x][q]];
      total[x] = s;
    }
  }
  roots.forEach(tot);
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
    if (!boxes.length) { ctx.fillStyle = "#777"; ctx.fillText("no function events in this trace", 8, 20); }
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
    function node(i, depth) {
      var c = kids[i].slice().sort(function (a, b) { return total[b] - total[a]; }).slice(0, 50);
      var label = '<span class="bar" style="width:' + Math.max(1, Math.round(60 * total[i] / (P.total || 1))) + 'px"></span>' +
        esc(name(i)) + " \u2014 " + fmtT(total[i]) + " " + unitT() + " (" + fmtPct(total[i], P.total) + " %), self " + fmtT(P.nodes[i][2]);
      if (!c.length || depth > 40) return "<div>" + label + "</div>";
      return "<details" + (depth < 2 ? " open" : "") + "><summary>" + label + "</summary>" +
        c.map(function (k) { return node(k, depth + 1); }).join("") + "</details>";
    }
    $("calltree-body").innerHTML = roots.length ? roots.slice().sort(function (a, b) { return total[b] - total[a]; })
      .map(function (r) { return node(r, 0); }).join("") : "<p>No function events in this trace.</p>";
  }
  window.addEventListener("resize", draw);
  return { draw: draw, tree: tree, roots: roots, total: total };
})();

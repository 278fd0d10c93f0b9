/* 40_load.js -- CPU load over time: the share of each task, ISR and idle
 * per window (the analyses' windows: at most 400 over the whole trace). */
"use strict";
function drawLoad() {
  var A = D.analysis, cv = $("load-canvas"), ctx = cv.getContext("2d");
  var W = cv.clientWidth || 800, H = 180, dpr = window.devicePixelRatio || 1;
  cv.width = W * dpr; cv.height = H * dpr; ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  var rows = A.rows.filter(function (r) { return r.type !== "idle" && A.win[r.idx] && A.win[r.idx].length; });
  if (!A.nwin || !A.window) { ctx.fillText("no timed events", 8, 20); return; }
  var cores = Math.max(1, A.cores.length), bw = W / A.nwin;
  for (var w = 0; w < A.nwin; w++) {
    var y = H;
    rows.forEach(function (r) {
      var v = A.win[r.idx][w] || 0, h = v / (A.window * cores) * H;
      ctx.fillStyle = colorOf(r.name); ctx.fillRect(w * bw, y - h, Math.max(1, bw), h); y -= h;
    });
  }
  $("load-legend").innerHTML = "window " + fmtT(A.window) + " " + unitT() + "; " + rows.map(function (r) {
    return '<span><i style="background:' + colorOf(r.name) + '"></i>' + esc(r.name) + "</span>";
  }).join("");
}

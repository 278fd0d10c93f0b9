/* 50_events.js -- the event list: every detail item of the page (slices,
 * instants, counter values; not the derived task-state strips) in time
 * order, all lanes merged, in a virtually scrolled box (only the rows in
 * sight are in the DOM, so 300,000 items cost what 30 do).  It keeps step
 * with the timeline: a zoom or pan scrolls the list to the first item at or
 * after the window's start; scrolling the list pans the timeline (same
 * width) to the first row shown; clicking a row selects its item. */
"use strict";
var Events = (function () {
  var ROW = 18, MAX_H = 8e6; /* browsers cap an element's height: past MAX_H rows are mapped */
  var box = $("events-box"), inner = $("events-inner"), order = new Int32Array(0), t0 = new Float64Array(0);
  var firstRow = 0, ownTop = -1, selected = -1;
  /* the box's height and the inner one's, kept here: reading them from the
   * page after the timeline has written its range would make the browser
   * lay the page out in the middle of a frame */
  var boxH = 0, innerH = 0;
  if (window.ResizeObserver) new ResizeObserver(function () { boxH = 0; }).observe(box);
  function boxHeight() { if (!boxH || !window.ResizeObserver) boxH = box.clientHeight; return boxH; }
  function load() {
    var skip = D.lanes.map(function (l) { return l.kind === "state"; }), n = 0, k;
    for (k = 0; k < D.items.length; k++) if (!skip[D.items[k][I_LANE]]) n++;
    var idx = new Int32Array(n), j = 0;
    for (k = 0; k < D.items.length; k++) if (!skip[D.items[k][I_LANE]]) idx[j++] = k;
    var ts = new Float64Array(D.items.length);
    for (k = 0; k < D.items.length; k++) ts[k] = D.items[k][I_T];
    /* stable on equal times: lane order, as the host sent them */
    order = idx.sort(function (a, b) { return ts[a] - ts[b] || a - b; });
    t0 = new Float64Array(n);
    for (k = 0; k < n; k++) t0[k] = ts[order[k]];
    pool.forEach(function (p) { p.k = -2; }); /* D changed: every row's text is rewritten */
    innerH = Math.min(MAX_H, n * ROW);
    inner.style.height = innerH + "px";
    $("events-count").textContent = n + " items (the page's detail" + (D.detail.dropped ? ", thinned" : "") + ")";
  }
  function visibleRows() { return Math.max(1, Math.floor(boxHeight() / ROW)); }
  /* scrollTop <-> first row, linear over the scrollable range */
  function rowOfTop(top) {
    var range = Math.max(1, innerH - boxHeight()), rows = Math.max(0, order.length - visibleRows());
    return order.length * ROW <= MAX_H ? Math.floor(top / ROW) : Math.round(top / range * rows);
  }
  function topOfRow(r) {
    var range = Math.max(0, innerH - boxHeight()), rows = Math.max(1, order.length - visibleRows());
    return order.length * ROW <= MAX_H ? r * ROW : Math.round(r / rows * range);
  }
  function lowerBound(t) { /* first row at or after t */
    var lo = 0, hi = order.length;
    while (lo < hi) { var m = (lo + hi) >> 1; if (t0[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }
  function flush() { if (sonde.flushViews) sonde.flushViews(); }
  function text(k) {
    var it = D.items[k], l = D.lanes[it[I_LANE]];
    var nm = D.names[it[I_NAME]] || (it[I_TYPE] === T_COUNTER ? "= " + it[I_VALUE] : "");
    return [fmtNs(it[I_T]), it[I_TYPE] === T_SLICE ? fmtNs(it[I_DUR]) : "", l.name + (it[I_DEPTH] ? " \u00b7" + it[I_DEPTH] : ""), nm,
      it[I_ARGS] ? D.args[it[I_ARGS]] : ""];
  }
  /* the row elements, kept from frame to frame: a pan rewrites the text
   * that changed and moves the rows, it does not make the list anew */
  var pool = [];
  function row(i) {
    while (pool.length <= i) {
      var d = document.createElement("div"), p = { el: d, k: -2, sel: false, text: [] };
      d.className = "ev-row";
      for (var c = 0; c < 5; c++) {
        var sp = document.createElement("span"), tx = document.createTextNode("");
        sp.className = "ev-c" + c; sp.appendChild(tx); d.appendChild(sp); p.text.push(tx);
      }
      inner.appendChild(d);
      pool.push(p);
    }
    return pool[i];
  }
  /* rows from pin (or from the scroll position) for a list scrolled to top.
   * Row r lives in pool[r % pool.length] at r * ROW: a pan of a few rows
   * rewrites and moves only the rows that came into sight; the others keep
   * their element, place and text, so the browser restyles and lays out
   * only those (a list far longer than MAX_H maps rows, and moves them all) */
  function draw(pin, top) {
    var n = order.length, vis = visibleRows() + 1, mapped = n * ROW > MAX_H;
    if (top === undefined) top = box.scrollTop;
    firstRow = Math.min(Math.max(0, n - 1), pin !== undefined ? pin : rowOfTop(top));
    row(vis - 1);
    var m = pool.length, last = Math.min(n, firstRow + vis), r;
    for (r = firstRow; r < last; r++) {
      var k = order[r], p = pool[r % m], y = (mapped ? top + (r - firstRow) * ROW : r * ROW) + "px";
      if (p.el.style.top !== y) p.el.style.top = y;
      if (p.el.style.display) p.el.style.display = "";
      if (p.k !== k) {
        var c = text(k);
        for (var j = 0; j < 5; j++) if (p.text[j].nodeValue !== c[j]) p.text[j].nodeValue = c[j];
        p.el.dataset.k = k; p.k = k;
      }
      if (p.sel !== (k === selected)) { p.sel = k === selected; p.el.classList.toggle("sel", p.sel); }
    }
    for (; r < firstRow + m; r++) {
      var q = pool[r % m];
      if (!q.el.style.display) { q.el.style.display = "none"; q.k = -2; }
    }
  }
  /* the timeline moved: show its window's first item at the top */
  function follow(v0) {
    var r = lowerBound(v0), want = topOfRow(r), top = Math.min(want, Math.max(0, innerH - boxHeight()));
    ownTop = top; /* clamped here as the browser would: reading it back would lay the page out */
    box.scrollTop = top;
    draw(top === want ? r : undefined, top);
  }
  var pannedTo = null; /* the window start this list panned the timeline to */
  box.addEventListener("scroll", function () {
    if (Math.abs(box.scrollTop - ownTop) < 1) return; /* our own scroll, from follow() */
    ownTop = -1;
    draw();
    if (!order.length) return;
    var v = TL.view(), w = v[1] - v[0], t = t0[firstRow];
    pannedTo = t;
    TL.zoom(t, t + w);
  });
  inner.addEventListener("click", function (e) {
    var d = e.target.closest("div[data-k]");
    if (!d) return;
    selected = +d.dataset.k;
    TL.show(selected);
    draw();
  });
  load();
  return {
    load: load, draw: function () { draw(); }, lowerBound: lowerBound,
    /* the timeline moved; not when this list moved it (the list is there) */
    onView: function (v0) { if (v0 !== pannedTo) follow(v0); pannedTo = null; },
    /* the item at the top of the list, and the list's length */
    first: function () { flush(); return order.length ? order[firstRow] : -1; },
    firstRow: function () { flush(); return firstRow; },
    size: function () { return order.length; },
    /* scroll the list as a user would (the scroll event pans the timeline) */
    scrollToRow: function (r) { box.scrollTop = topOfRow(r); },
    rowHeight: ROW
  };
})();

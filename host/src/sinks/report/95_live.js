/* 95_live.js -- the page as `sonde live --serve` serves it (D.live set;
 * docs/live.md): asks the host every POLL_MS for what came since the last
 * item it has (GET delta?since=SEQ), merges it into D -- new lanes, names,
 * items, overview bins, loss figures --, keeps a window of the latest
 * D.live.window items (older ones are dropped, with the names only they
 * used), and redraws through sonde.refresh().  The bar #live-state says
 * whether the link is up, down or reconnecting, and when the target reset
 * (a new session: the timeline starts again empty).  sonde.live holds what
 * the tests read: when each item was first seen (log), the states shown. */
"use strict";
(function live() {
  if (!D.live) return;
  var POLL_MS = 250, LOG_MAX = 50000;
  var L = sonde.live = { seq: D.seq || 0, session: D.session || 0, polls: 0, failures: 0, resets: 0, missed: 0,
    log: [], states: [], lanesSeen: {}, up: D.live.up };
  var bar = $("live-state"), names = new Map(), args = new Map();
  sonde.follow = true;
  bar.hidden = false;
  /* arrival numbers of the items (for the window), kept in each item, at I_SEEN */
  D.items.forEach(function (it) { it[I_SEEN] = 0; });
  function index(arr, map) { map.clear(); arr.forEach(function (s, i) { if (!map.has(s)) map.set(s, i); }); }
  index(D.names, names);
  index(D.args, args);
  function intern(arr, map, s) {
    if (!s) return 0;
    var k = map.get(s);
    if (k === undefined) { k = arr.length; arr.push(s); map.set(s, k); }
    return k;
  }
  function laneSeen(now) {
    D.lanes.forEach(function (l) { var key = l.kind + ":" + l.name; if (!(key in L.lanesSeen)) L.lanesSeen[key] = now; });
  }
  laneSeen(Date.now());
  /* a (lane, t0, depth) order, as the host sends a whole page */
  function cmp(a, b) { return a[I_LANE] - b[I_LANE] || a[I_T] - b[I_T] || a[I_DEPTH] - b[I_DEPTH]; }
  function mergeSorted(a, b) {
    var out = new Array(a.length + b.length), i = 0, j = 0, k = 0;
    while (i < a.length && j < b.length) out[k++] = cmp(a[i], b[j]) <= 0 ? a[i++] : b[j++];
    while (i < a.length) out[k++] = a[i++];
    while (j < b.length) out[k++] = b[j++];
    return out;
  }
  /* over the window by a tenth: keep the newest arrivals, and the names
   * and args they use (so the page's memory stays bounded too) */
  function trim() {
    var max = D.live.window;
    if (D.items.length <= max * 1.1) return;
    var cut = L.seq - max, nm = [""], am = [""], nmap = new Map(), amap = new Map();
    D.items = D.items.filter(function (it) { return it[I_SEEN] >= cut; });
    D.items.forEach(function (it) {
      it[I_NAME] = intern(nm, nmap, D.names[it[I_NAME]]);
      it[I_ARGS] = intern(am, amap, D.args[it[I_ARGS]]);
    });
    D.names = nm; D.args = am;
    index(D.names, names); index(D.args, args);
  }
  function overview(ov) {
    var O = D.overview;
    if (!ov.from || O.bin !== ov.bin) { D.overview = { bin: ov.bin, n: ov.n, busy: ov.busy, count: ov.count }; return; }
    O.n = ov.n;
    ov.busy.forEach(function (b, i) {
      O.busy[i] = (O.busy[i] || []).slice(0, ov.from).concat(b);
      O.count[i] = (O.count[i] || []).slice(0, ov.from).concat(ov.count[i]);
    });
  }
  function losses(S) { return S.overwritten + S.refused + S.link_lost + S.unexplained; }
  function show(text, cls) {
    bar.textContent = text;
    bar.className = cls;
    if (L.states[L.states.length - 1] !== cls) L.states.push(cls);
  }
  function state() {
    var lv = D.live, S = D.stats, lost = losses(S);
    var what = lv.up ? "live: link up" : lv.connects ? "link DOWN " + (lv.down_ms / 1000).toFixed(0) + " s, reconnecting" +
      (lv.why ? " (" + lv.why + ")" : "") : "waiting for the link" + (lv.why ? " (" + lv.why + ")" : "");
    var text = what + " \u00b7 " + S.records + " records \u00b7 " + (lost ? lost + " lost" : "no loss") +
      (L.missed ? " \u00b7 " + L.missed + " items came and went between two looks" : "") +
      (L.resetAt ? " \u00b7 target reset at " + new Date(L.resetAt).toLocaleTimeString() + " (session " + (L.session + 1) + ")" : "");
    show(text, !lv.up ? "down" : lost ? "lossy" : L.resetAt && Date.now() - L.resetAt < 10000 ? "reset" : "up");
  }
  function merge(d) {
    var now = Date.now();
    if (d.session !== L.session) { /* the target started again: its clock too */
      L.session = d.session; L.resets++; L.resetAt = now;
      D.items = [];
    }
    D.lanes = d.lanes;
    laneSeen(now);
    overview(d.overview);
    var fresh = d.items.map(function (x, i) {
      var it = x.slice();
      it[I_NAME] = intern(D.names, names, x[I_NAME]); it[I_ARGS] = intern(D.args, args, x[I_ARGS]);
      it[I_SEEN] = d.seq - d.items.length + i;
      return it;
    });
    fresh.forEach(function (it) { L.log.push([D.lanes[it[I_LANE]].name, it[I_TYPE], it[I_T], it[I_VALUE], now]); });
    if (L.log.length > LOG_MAX) L.log.splice(0, L.log.length - LOG_MAX);
    if (fresh.length) D.items = mergeSorted(D.items, fresh.sort(cmp));
    L.seq = d.seq;
    L.missed += d.missed;
    D.stats = d.stats;
    D.live = d.live;
    trim();
    state();
    if (fresh.length || d.missed) {
      if (typeof sonde.refresh === "function") sonde.refresh();
    }
  }
  function poll() {
    var ov = D.overview;
    fetch("delta?since=" + L.seq + "&bin=" + ov.bin + "&n=" + ov.n + "&session=" + L.session, { cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (d) { L.polls++; merge(d); setTimeout(poll, POLL_MS); })
      .catch(function (e) {
        /* the host ended (or is unreachable): say so, keep what is shown, try again */
        L.failures++;
        show("host not answering (" + e.message + "): the page keeps what it has; retrying", "gone");
        setTimeout(poll, POLL_MS * 4);
      });
  }
  state();
  setTimeout(poll, POLL_MS);
})();

/* 45_search.js -- the search box: finds every record of the trace, not only
 * the timeline's kept detail, from D.search (report_search.c: the records
 * grouped by the texts --filter matches, with per group its count, its
 * earliest times and a histogram).  A query is space-separated terms that
 * must all hold: --filter expressions ([!]kind|name|obj=GLOB[,GLOB...],
 * globs as fnmatch: * ? [...] \) and plain words (a case-insensitive
 * substring of the kind, name or object).  Shows the exact count of all
 * matches, the count in the timeline's window, the first 200 in time order
 * (a click zooms there and selects the detail item if it was kept) and a
 * strip with where the matches are over the whole trace. */
"use strict";
var Search = (function () {
  var LIMIT = 200, FIELDS = { kind: 0, name: 1, obj: 2 };
  var S, keys = [], laneStart = [], cur = null, timer = null;

  /* fnmatch(glob, text, 0) as a RegExp: '*' and '?' match any character
   * ('/' and a leading '.' too), '[...]' a set ('!' or '^' negates, ']'
   * first is itself, ranges, [:class:]), '\' quotes the next character; a
   * '[' without its ']' is itself. */
  var CLASSES = { alpha: "a-zA-Z", digit: "0-9", alnum: "a-zA-Z0-9", upper: "A-Z", lower: "a-z",
    space: " \\t\\n\\r\\f\\v", blank: " \\t", xdigit: "0-9A-Fa-f", punct: "!-\\/:-@\\[-`{-~",
    cntrl: "\\x00-\\x1f\\x7f", print: " -~", graph: "!-~" };
  function reEsc(c) { return /[\\^$.*+?()[\]{}|\/-]/.test(c) ? "\\" + c : c; }
  function bracket(g, i) { /* g[i] === "[": [regexp source, index after] or null */
    var j = i + 1, neg = false, out = "";
    if (g[j] === "!" || g[j] === "^") { neg = true; j++; }
    for (var first = true; j < g.length; first = false) {
      var c = g[j];
      if (c === "]" && !first) return ["[" + (neg ? "^" : "") + out + "]", j + 1];
      if (c === "[" && g[j + 1] === ":") {
        var e = g.indexOf(":]", j + 2), name = e > 0 ? g.slice(j + 2, e) : "";
        if (CLASSES[name] !== undefined) { out += CLASSES[name]; j = e + 2; continue; }
      }
      if (c === "\\" && j + 1 < g.length) c = g[++j];
      var lo = reEsc(c);
      j++;
      if (g[j] === "-" && j + 1 < g.length && g[j + 1] !== "]") {
        var hi = g[j + 1];
        j += 2;
        if (hi === "\\" && j < g.length) hi = g[j++];
        out += lo + "-" + reEsc(hi);
      } else out += lo;
    }
    return null;
  }
  function globRe(g) {
    var src = "";
    for (var i = 0; i < g.length;) {
      var c = g[i];
      if (c === "*") { src += "[\\s\\S]*"; i++; }
      else if (c === "?") { src += "[\\s\\S]"; i++; }
      else if (c === "[") {
        var b = bracket(g, i);
        if (b) { src += b[0]; i = b[1]; } else { src += "\\["; i++; }
      } else if (c === "\\" && i + 1 < g.length) { src += reEsc(g[i + 1]); i += 2; }
      else { src += reEsc(c); i++; }
    }
    return new RegExp("^" + src + "$");
  }

  /* A query as terms: {filters: [{field, negate, res}], words, error}.  The
   * filters as select.c's parse_filter takes them. */
  function parse(q) {
    var p = { filters: [], words: [], error: "" };
    q.split(/\s+/).filter(Boolean).forEach(function (term) {
      var m = /^(!?)([A-Za-z_]\w*)=(.*)$/.exec(term);
      if (!m) { p.words.push(term.toLowerCase()); return; }
      if (FIELDS[m[2]] === undefined) { p.error = "unknown field '" + m[2] + "' (kind, name or obj)"; return; }
      if (!m[3]) { p.error = "expected [!]kind|name|obj=GLOB[,GLOB...], got '" + term + "'"; return; }
      var globs = m[3].split(","), empty = globs.indexOf("");
      if (empty >= 0) globs.length = empty; /* select.c's list of globs ends at an empty one */
      p.filters.push({ field: FIELDS[m[2]], negate: !!m[1], res: globs.map(globRe) });
    });
    return p;
  }
  function holds(p, key) {
    for (var i = 0; i < p.filters.length; i++) {
      var f = p.filters[i], texts = key.texts[f.field], m = false;
      for (var j = 0; j < texts.length && !m; j++)
        for (var r = 0; r < f.res.length && !m; r++) m = f.res[r].test(texts[j]);
      if (m === f.negate) return false;
    }
    for (var w = 0; w < p.words.length; w++)
      if (key.lower.indexOf(p.words[w]) < 0) return false;
    return true;
  }

  function load() {
    S = D.search || { bin: 1, n: 0, end: 0, first: LIMIT, total: 0, other: 0, others: [], keys: [] };
    keys = S.keys.map(function (k) {
      var texts = [[k[0]], k[1], k[2]];
      return { texts: texts, lower: [].concat(texts[0], texts[1], texts[2]).join("\u0000").toLowerCase(),
        count: k[3], times: k[4], hist: k[5] };
    });
    laneStart = [];
    for (var k = 0, l = 0; l <= D.lanes.length; l++) {
      while (k < D.items.length && D.items[k][I_LANE] < l) k++;
      laneStart.push(k);
    }
  }

  /* Could a record of this kind match p?  Only its kind is known (records
   * past the key cap). */
  function kindMayHold(p, kind) {
    return p.filters.every(function (f) {
      return f.field !== 0 || f.res.some(function (re) { return re.test(kind); }) !== f.negate;
    });
  }

  /* Matches of q: count (all records), lower (a lower bound: records past
   * the key cap, unsearched, of kinds that could match), the first LIMIT as
   * [time, key], the matching keys. */
  function query(q) {
    var p = parse(q), r = { q: q, error: p.error, count: 0, lower: false, unsearched: 0, kinds: [], keys: [], first: [] };
    if (p.error) return r;
    S.others.forEach(function (o) {
      if (kindMayHold(p, o[0])) { r.unsearched += o[1]; r.kinds.push(o[0]); }
    });
    r.lower = r.unsearched > 0;
    keys.forEach(function (key, i) {
      if (!holds(p, key)) return;
      r.count += key.count;
      r.keys.push(i);
      key.times.forEach(function (t) { r.first.push([t, i]); });
    });
    r.first.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    r.first.length = Math.min(r.first.length, LIMIT);
    return r;
  }

  /* Matches in [v0, v1): exact from the times when a key's are all kept,
   * else from its histogram (approx when a bin crosses an end; the last
   * bin ends at the latest record). */
  function inWindow(r, v0, v1) {
    var n = 0, approx = false;
    r.keys.forEach(function (i) {
      var key = keys[i];
      if (key.times.length === key.count) {
        key.times.forEach(function (t) { if (t >= v0 && t < v1) n++; });
        return;
      }
      for (var j = 0; j < key.hist.length; j += 2) {
        var lo = key.hist[j] * S.bin, hi = Math.min(lo + S.bin, S.end + 1), c = key.hist[j + 1];
        if (lo >= v0 && hi <= v1) n += c;
        else if (hi > v0 && lo < v1) { n += c * (Math.min(hi, v1) - Math.max(lo, v0)) / (hi - lo); approx = true; }
      }
    });
    return { n: Math.round(n), approx: approx };
  }

  function describe(key) {
    var obj = key.texts[2], o = obj.length ? (obj[1] !== undefined && obj[1] !== obj[0] ? obj[1] + " (" + obj[0] + ")" : obj[0]) : "";
    return [key.texts[0][0], key.texts[1].join("  "), o].filter(Boolean).join("  ");
  }

  /* The kept detail item of a record at t: one starting at t, named as the
   * record or its object if there is one. */
  function itemAt(t, key) {
    var best = -1, names = [].concat(key.texts[1], key.texts[2]);
    for (var l = 0; l < D.lanes.length; l++) {
      var lo = laneStart[l], hi = laneStart[l + 1];
      while (lo < hi) { var mid = (lo + hi) >> 1; if (D.items[mid][I_T] < t - 0.5) lo = mid + 1; else hi = mid; }
      for (var k = lo; k < laneStart[l + 1] && D.items[k][I_T] <= t + 0.5; k++) {
        if (names.indexOf(D.names[D.items[k][I_NAME]]) >= 0 || names.indexOf(D.lanes[l].name) >= 0) return k;
        if (best < 0) best = k;
      }
    }
    return best;
  }

  function spanEnd() { return Math.max(TL.end(), S.n * S.bin, 1); }

  function drawStrip() {
    var cv = $("search-strip");
    if (!cur || cur.error) { cv.hidden = true; return; }
    cv.hidden = false;
    var W = cv.width = cv.clientWidth || 600, H = cv.height, g = cv.getContext("2d"), end = spanEnd();
    var col = new Float64Array(W), max = 0;
    cur.keys.forEach(function (i) {
      var h = keys[i].hist;
      for (var j = 0; j < h.length; j += 2) {
        var x = Math.min(W - 1, Math.floor(h[j] * S.bin * W / end));
        col[x] += h[j + 1];
      }
    });
    for (var x = 0; x < W; x++) max = Math.max(max, col[x]);
    g.clearRect(0, 0, W, H);
    g.fillStyle = "#fff"; g.fillRect(0, 0, W, H);
    var v = TL.view(), a = v[0] * W / end, b = v[1] * W / end;
    g.fillStyle = "rgba(91,141,239,0.18)"; g.fillRect(a, 0, Math.max(1, b - a), H);
    g.fillStyle = "#c0392b";
    for (x = 0; x < W; x++)
      if (col[x]) { var h = Math.max(3, Math.round((H - 2) * Math.sqrt(col[x] / max))); g.fillRect(x, H - h, 1, h); }
  }

  function drawWindow() {
    if (!cur || cur.error) return;
    var v = TL.view(), w = inWindow(cur, v[0], v[1]);
    cur.inwin = w;
    $("search-win").textContent = (w.approx ? "about " : cur.lower ? "at least " : "") + w.n + " in the timeline's window (" +
      fmtNs(v[0]) + " to " + fmtNs(v[1]) + ")";
    $("search-win").dataset.n = w.n;
    drawStrip();
  }

  function draw() {
    var box = $("search-results"), q = $("search").value.trim();
    if (!q) { box.hidden = true; cur = null; return; }
    cur = query(q);
    box.hidden = false;
    var head = $("search-head");
    head.dataset.count = cur.count;
    if (cur.error) {
      head.textContent = cur.error; $("search-win").textContent = ""; $("search-list").innerHTML = ""; drawStrip(); return;
    }
    head.textContent = (cur.lower ? "at least " : "") + cur.count + " matches" +
      (cur.lower ? " (" + cur.unsearched + " " + cur.kinds.join(", ") + " records past the first " + keys.length +
        " distinct records were not searched)" : "") +
      (cur.count > cur.first.length ? "; the first " + cur.first.length + " in time order:" : ":");
    $("search-list").innerHTML = cur.first.map(function (f) {
      return '<div data-t="' + f[0] + '" data-key="' + f[1] + '">' + esc(fmtNs(f[0]) + "  " + describe(keys[f[1]])) + "</div>";
    }).join("");
    drawWindow();
  }

  function pick(e) {
    var d = e.target.closest("div[data-t]");
    if (!d) return;
    var t = +d.dataset.t, k = itemAt(t, keys[+d.dataset.key]), dur = k >= 0 ? D.items[k][I_DUR] : 0;
    var pad = Math.max(dur * 3, 20000);
    TL.zoom(t - pad, t + dur + pad);
    if (k >= 0) TL.show(k);
    drawWindow();
    $("timeline").scrollIntoView();
    return k;
  }

  $("search").addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(draw, 150); });
  $("search-list").addEventListener("click", pick);
  $("search-strip").addEventListener("click", function (e) {
    var r = e.target.getBoundingClientRect(), t = (e.clientX - r.left) * spanEnd() / r.width, v = TL.view(), w = v[1] - v[0];
    TL.zoom(t - w / 2, t + w / 2);
    drawWindow();
  });
  if (TL.onView) TL.onView(drawWindow);
  else ["wheel", "mouseup", "keyup", "click"].forEach(function (ev) { /* until the timeline says when its view moves */
    window.addEventListener(ev, function () { setTimeout(drawWindow, 0); });
  });
  return { load: load, draw: draw, query: query, parse: parse, globRe: globRe, inWindow: inWindow, itemAt: itemAt,
    keyKind: function (i) { return keys[i].texts[0][0]; } };
})();

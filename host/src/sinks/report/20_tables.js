/* 20_tables.js -- the tables of the timing analyses (the numbers of
 * `sonde stats`), functions (those of `--format profile`), markers,
 * counters and losses. */
"use strict";
function histCell(h, k) { return h && h.n ? fmtT(h[k]) : "-"; }
function meanCell(h) { return h && h.n ? (FREQ ? (h.sum * 1e6 / FREQ / h.n).toFixed(3) : (h.sum / h.n).toFixed(1)) : "-"; }

function buildTables() {
  var A = D.analysis, total = A.total, u = unitT();
  var tasks = A.rows.filter(function (r) { return r.type === "task"; });
  table("t-tasks", ["task", "runs", "cpu[" + u + "]", "cpu%", "run_mean", "run_p50", "run_p99", "run_max",
    "lat_n", "lat_mean", "lat_p99", "lat_max", "incomplete"],
    tasks.map(function (r) {
      return [r.name, r.count, fmtT(r.cpu), fmtPct(r.cpu, total), meanCell(r.run), histCell(r.run, "p50"),
        histCell(r.run, "p99"), histCell(r.run, "max"), r.latency.n, meanCell(r.latency),
        histCell(r.latency, "p99"), histCell(r.latency, "max"), r.run.incomplete + "+" + r.latency.incomplete];
    }), ["task", "runs", "cpu", "cpu%", "run_mean", "run_p50", "run_p99", "run_max", "lat_n", "lat_mean", "lat_p99",
      "lat_max", "incomplete"]);
  var isrs = A.rows.filter(function (r) { return r.type === "isr"; });
  table("t-isrs", ["isr", "count", "cpu[" + u + "]", "cpu%", "dur_mean", "dur_p50", "dur_p99", "dur_max", "gap_mean",
    "gap_min", "rate/s", "nest", "incomplete"],
    isrs.map(function (r) {
      var span = A.cores.length ? A.cores[0].traced : 0;
      return [r.name, r.count, fmtT(r.cpu), fmtPct(r.cpu, total), meanCell(r.duration), histCell(r.duration, "p50"),
        histCell(r.duration, "p99"), histCell(r.duration, "max"), meanCell(r.gap), histCell(r.gap, "min"),
        FREQ && span ? (r.count * FREQ / span).toFixed(1) : "-", r.max_nest, r.duration.incomplete];
    }), ["isr", "count", "cpu", "cpu%", "dur_mean", "dur_p50", "dur_p99", "dur_max", "gap_mean", "gap_min", "rate",
      "nest", "incomplete"]);
  table("t-cores", ["core", "traced[" + u + "]", "tasks%", "isr%", "idle%", "notask%", "max_nest"],
    A.cores.map(function (c) {
      return [String(c.core), fmtT(c.traced), fmtPct(c.tasks, c.traced), fmtPct(c.isr, c.traced),
        fmtPct(c.idle, c.traced), fmtPct(c.notask, c.traced), c.max_nest];
    }), ["core", "traced", "tasks%", "isr%", "idle%", "notask%", "max_nest"]);
  var lg = "<h3>Longest " + A.top + " runs / activations [" + u + " at s from the first record]</h3>";
  A.rows.forEach(function (r) {
    if (!r.longest.length) return;
    lg += '<div data-name="' + esc(r.name) + '"><b>' + esc(r.name) + ":</b> " + r.longest.map(function (x) {
      return '<a href="#timeline" data-t0="' + ticksToNs(x[1]) + '" data-t1="' + ticksToNs(x[1] + x[0]) + '">' +
        fmtT(x[0]) + "@" + (FREQ ? (x[1] / FREQ).toFixed(9) : x[1] + "t") + "</a>";
    }).join(" ") + "</div>";
  });
  lg += "<p>Incomplete spans (a loss inside, or open at the end; kept out of mean, percentiles and max): " +
    A.rows.reduce(function (s, r) { return s + (r.type === "isr" ? 0 : (r.run ? r.run.incomplete : 0)); }, 0) + " runs, " +
    A.rows.reduce(function (s, r) { return s + (r.type === "isr" ? r.duration.incomplete : 0); }, 0) + " ISR activations; " +
    A.losses + " losses.</p>";
  $("longest").innerHTML = lg;
  $("longest").addEventListener("click", function (e) {
    var a = e.target.closest("a[data-t0]");
    if (a) { var t0 = +a.dataset.t0, t1 = +a.dataset.t1, pad = (t1 - t0) * 2 + 1000; TL.zoom(t0 - pad, t1 + pad); }
  });

  var P = D.profile, pt = P.total;
  var funcs = P.funcs.slice().sort(function (a, b) { return b.self - a.self || b.incl - a.incl || (a.name < b.name ? -1 : 1); });
  table("t-funcs", ["function", "calls", "incl[" + u + "]", "self[" + u + "]", "self%", "mean[" + u + "]", "min[" + u + "]", "max[" + u + "]"],
    funcs.map(function (f) {
      return [f.name, f.calls, fmtT(f.incl), fmtT(f.self), fmtPct(f.self, pt),
        f.closed ? (FREQ ? (f.sum * 1e6 / FREQ / f.closed).toFixed(3) : (f.sum / f.closed).toFixed(1)) : "-",
        f.closed ? fmtT(f.min) : "-", f.closed ? fmtT(f.max) : "-"];
    }), ["function", "calls", "incl", "self", "self%", "mean", "min", "max"]);

  var marks = D.lanes.filter(function (l) { return l.kind === "marker"; });
  table("t-markers", ["marker", "core", "events"], marks.map(function (l) { return [l.name, l.core, l.items]; }));
  var counters = [];
  D.lanes.forEach(function (l, i) {
    if (l.kind !== "counter") return;
    var v = TL.laneItems(i).map(function (k) { return D.items[k][I_VALUE]; });
    counters.push([l.name, l.core, l.items, v.length ? Math.min.apply(null, v) : "-", v.length ? Math.max.apply(null, v) : "-",
      v.length ? v[v.length - 1] : "-"]);
  });
  table("t-counters", ["counter", "core", "samples", "min", "max", "last"], counters);

  var S = D.stats;
  table("t-losses", ["what", "count"], [
    ["records", S.records], ["frames", S.frames], ["diagnostics", S.diagnostics],
    ["sequence gaps", S.sequence_gaps + " (" + S.gap_frames + " frames lost)"],
    ["target drops", S.overwritten + " overwritten, " + S.refused + " refused"],
    ["link-lost frames", S.link_lost], ["unexplained lost", S.unexplained],
    ["resyncs", S.resyncs + " (" + S.discarded + " bytes discarded)"], ["estimated times", S.estimated]],
    ["what", "count"]);
  table("t-types", ["record", "id", "count"], S.types.slice().sort(function (a, b) { return a[0] - b[0]; }).map(function (t) {
    return [t[1], "0x" + (t[0] < 16 ? "0" : "") + t[0].toString(16).toUpperCase(), t[2]];
  }));
}

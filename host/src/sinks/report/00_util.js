/* 00_util.js -- shared helpers of the Sonde report page: the data, time
 * formatting (to the target clock's resolution: a 25 MHz clock ticks every
 * 40 ns, so its times print to the ten nanoseconds, never rounded to 1 us;
 * the tables keep the CLI's microseconds with three decimals or more), the
 * one colour assignment every view uses, and the error log the tests read
 * (window.sonde.errors). */
"use strict";
var sonde = window.sonde = { errors: [], ready: false, follow: false };
window.addEventListener("error", function (e) { sonde.errors.push(String(e.message)); });
var T0 = performance.now();
var D = JSON.parse(document.getElementById("sonde-data").textContent);
var T_PARSE = performance.now() - T0;
var FREQ = D.ts_freq;
/* An item of D.items is an array (it keeps a 10 M-record page small); the
 * data says once where each field is, the names of the item types and of
 * the categories (report_tl.c writes them from its one table), and the
 * scripts read items by these names only. */
function fieldOf(list, name) {
  var i = list ? list.indexOf(name) : -1;
  if (i < 0) throw new Error("the page's data has no \"" + name + "\"");
  return i;
}
var I_LANE = fieldOf(D.fields, "lane"), I_TYPE = fieldOf(D.fields, "type"), I_T = fieldOf(D.fields, "t"),
  I_DUR = fieldOf(D.fields, "dur"), I_DEPTH = fieldOf(D.fields, "depth"), I_NAME = fieldOf(D.fields, "name"),
  I_ARGS = fieldOf(D.fields, "args"), I_CAT = fieldOf(D.fields, "cat"), I_VALUE = fieldOf(D.fields, "value");
var I_SEEN = D.fields.length; /* the live page's own field: the item's arrival number */
var T_SLICE = fieldOf(D.types, "slice"), T_INSTANT = fieldOf(D.types, "instant"), T_COUNTER = fieldOf(D.types, "counter");
var CAT = D.cats;

function $(id) { return document.getElementById(id); }
function esc(s) {
  return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
}
/* The clock's resolution in ns (1 when unknown: the times are ticks then). */
function resNs() { return FREQ ? 1e9 / FREQ : 1; }
/* Decimals that show a time in units of unitNs to the clock's resolution:
 * 25 MHz (40 ns) -> us with 2 decimals, ms with 5, s with 8. */
function decimalsFor(unitNs) { return Math.max(0, Math.ceil(Math.log10(unitNs / resNs()) - 1e-9)); }
/* ticks as in the CLI tables: us with (at least) three decimals */
function fmtT(ticks) { return FREQ ? (ticks * 1e6 / FREQ).toFixed(Math.max(3, decimalsFor(1e3))) : String(ticks); }
function unitT() { return FREQ ? "us" : "t"; }
function fmtPct(part, total) { return total ? (100 * part / total).toFixed(2) : "-"; }
var UNITS = [[1e9, "s"], [1e6, "ms"], [1e3, "\u00b5s"], [1, "ns"]];
/* a duration or a time from the origin (ns), in the unit of its size, to the
 * clock's resolution; without a clock rate the times are ticks */
function fmtNs(ns) {
  if (!FREQ) return Math.round(ns) + " t";
  var a = Math.abs(ns);
  for (var i = 0; i < UNITS.length - 1 && a < UNITS[i][0]; i++);
  return (ns / UNITS[i][0]).toFixed(decimalsFor(UNITS[i][0])) + " " + UNITS[i][1];
}
function ticksToNs(t) { return FREQ ? t * 1e9 / FREQ : t; }
function table(id, head, rows, keys) {
  var h = "<tr>" + head.map(function (x) { return "<th>" + esc(x) + "</th>"; }).join("") + "</tr>";
  rows.forEach(function (r) {
    h += '<tr data-name="' + esc(r[0]) + '">' + r.map(function (c, i) {
      return '<td data-k="' + esc(keys ? keys[i] : head[i]) + '">' + esc(c) + "</td>";
    }).join("") + "</tr>";
  });
  $(id).innerHTML = h;
}

/* Colours.  Tasks and ISRs take the palette in the order of D.lanes (the
 * host's order: stable for a trace), so no two collide as a hash would; idle
 * and the no-task context have their own greys; other names (functions,
 * markers) take the next entries as they are first asked for.  Past the
 * twelve hand-picked colours the hue steps by the golden angle.  The same
 * name gets the same colour in the timeline, the load graph, the flame graph
 * and every legend. */
var PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f",
  "#ff9da7", "#2c3e8c", "#9a9a1e", "#d6338a"];
var COLOR_IDLE = "#cfd8dc", COLOR_NOTASK = "#78909c";
var colorMap = {}, colorNext = 0;
function paletteAt(i) {
  if (i < PALETTE.length) return PALETTE[i];
  return "hsl(" + Math.round((i * 137.508) % 360) + ",55%," + (i % 2 ? 42 : 55) + "%)";
}
function isNoTask(name) { return /^(no task|\(no task\)|\(main\)|notask)$/i.test(name); }
/* (re)assign from D.lanes: called again after a live refresh, keeps what was given */
function colorsFromLanes() {
  D.lanes.forEach(function (l) {
    if (l.kind === "task" || l.kind === "isr") colorOf(l.name.replace(/ state$/, ""));
  });
}
function colorOf(name) {
  name = String(name);
  if (name === "Idle" || name === "(idle)" || name === "idle") return COLOR_IDLE;
  if (isNoTask(name)) return COLOR_NOTASK;
  if (!(name in colorMap)) colorMap[name] = paletteAt(colorNext++);
  return colorMap[name];
}
colorsFromLanes();

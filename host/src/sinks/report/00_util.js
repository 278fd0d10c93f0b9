/* 00_util.js -- shared helpers of the Sonde report page: the data, number
 * formatting (the same rounding as `sonde stats`: microseconds with three
 * decimals from ticks when the clock rate is known, else ticks), and the
 * error log the tests read (window.sonde.errors). */
"use strict";
var sonde = window.sonde = { errors: [], ready: false };
window.addEventListener("error", function (e) { sonde.errors.push(String(e.message)); });
var D = JSON.parse(document.getElementById("sonde-data").textContent);
var FREQ = D.ts_freq;

function $(id) { return document.getElementById(id); }
function esc(s) {
  return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
}
/* ticks as in the CLI tables */
function fmtT(ticks) { return FREQ ? (ticks * 1e6 / FREQ).toFixed(3) : String(ticks); }
function unitT() { return FREQ ? "us" : "t"; }
function fmtPct(part, total) { return total ? (100 * part / total).toFixed(2) : "-"; }
/* ns from the origin, for the timeline */
function fmtNs(ns) {
  if (ns >= 1e9) return (ns / 1e9).toFixed(6) + " s";
  if (ns >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
  if (ns >= 1e3) return (ns / 1e3).toFixed(3) + " us";
  return Math.round(ns) + " ns";
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
var PALETTE = ["#5b8def", "#e8884a", "#58b368", "#c45ab3", "#d6b13b", "#4bb3c4", "#a0522d", "#7f7fd5", "#e05d5d", "#6c9a8b"];
function colorOf(name) {
  var h = 0;
  for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
  return PALETTE[Math.abs(h) % PALETTE.length];
}

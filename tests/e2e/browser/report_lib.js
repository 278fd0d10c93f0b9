// report_lib.js -- what the report tests' CHECK_FILEs read from the page,
// written once: `cat report_lib.js - >check.js` puts it before a test's own
// check, whose value is the file's last expression.
//   reportTest.rows(id)    a table of the page: {name: {column: text}}
//   reportTest.isrLanes()  per ISR lane: its activations (depth-0 slices) and
//                          their deepest nesting level (item[8])
window.reportTest = {
  rows: function (id) {
    var out = {};
    document.querySelectorAll("#" + id + " tr[data-name]").forEach(function (tr) {
      var r = {};
      tr.querySelectorAll("td").forEach(function (td) { r[td.dataset.k] = td.textContent; });
      out[tr.dataset.name] = r;
    });
    return out;
  },
  isrLanes: function () {
    var out = {};
    sonde.D.items.forEach(function (it) {
      var l = sonde.D.lanes[it[0]];
      if (l.kind !== "isr" || it[1] !== 0 || it[4] !== 0) return;
      var o = out[l.name] || (out[l.name] = { n: 0, nest: 0 });
      o.n++;
      o.nest = Math.max(o.nest, it[8]);
    });
    return out;
  }
};

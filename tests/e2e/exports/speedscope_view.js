// speedscope_view.js -- evaluated in speedscope's page by cdp_page.js
// (tests/e2e/test_speedscope_export.sh): loads each file of
// window.sondeFiles ([{name, b64}], set by the load script, which loaded the
// first) and, for each, walks its profiles in the Sandwich view, reading
// what speedscope shows: the profile's name and position ("sensor (1/4)")
// and the table of frames (total, self, name), after noting the profile it
// opened on (the file's activeProfileIndex) and going back to the first.
// Returns [{file, opened, profiles: [{name, index, count, rows: [[total,
// self, name]]}]}].
(async function () {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  // a wait on the page, as long as a loaded machine needs: the ceiling
  // (cdp_page.js sets it) is only against a hang
  const until = async (what, cond) => {
    const end = Date.now() + (window.sondeCeilingMs || 300000);
    for (;;) {
      const v = cond();
      if (v) return v;
      if (Date.now() > end) break;
      await sleep(50);
    }
    throw new Error("speedscope did not show " + what);
  };
  const headline = () => {
    const m = document.body.innerText.match(/\n([^\n]*?)(?: \((\d+)\/(\d+)\))?\n⤴️Export/);
    return m && { name: m[1], index: +(m[2] || 1), count: +(m[3] || 1) };
  };
  const rows = () => {
    const t = document.body.innerText;
    const i = t.indexOf("Symbol Name\n");
    if (i < 0) return [];
    const cells = t.slice(i + 12).split("\n").map((s) => s.replace(/^\t/, ""));
    const out = [];
    for (let k = 0; k + 2 < cells.length; k += 3)
      out.push([cells[k], cells[k + 1], cells[k + 2]]);
    return out;
  };
  const press = (key) => window.dispatchEvent(new KeyboardEvent("keypress", { key }));
  const result = [];
  for (let f = 0; f < window.sondeFiles.length; f++) {
    const file = window.sondeFiles[f];
    if (f > 0) speedscope.loadFileFromBase64(file.name + ".json", file.b64);
    await until(file.name, () => document.title === file.name + " - speedscope" && headline());
    press("3"); // the Sandwich view: a table of every frame
    const opened = headline();
    for (let i = opened.index; i > 1; i--) { // back to the first profile
      press("p");
      await until("profile " + (i - 1), () => { const x = headline(); return x && x.index === i - 1; });
    }
    const profiles = [];
    for (;;) {
      const h = await until("profile " + (profiles.length + 1), () => {
        const x = headline();
        return x && x.index === profiles.length + 1 && x;
      });
      // The table follows the headline, later on a loaded machine: wait
      // for a table that is not the previous profile's; an empty profile,
      // or one whose table equals the previous one, is read once the page
      // has drawn 30 frames more without a change (frames, not
      // milliseconds: a loaded machine draws them as late as the table).
      const before = JSON.stringify(profiles.length ? profiles[profiles.length - 1].rows : null);
      let r = rows(), same = 0;
      const end = Date.now() + (window.sondeCeilingMs || 300000);
      while ((!r.length || JSON.stringify(r) === before) && same < 30 && Date.now() < end) {
        await frame();
        const n = rows();
        same = JSON.stringify(n) === JSON.stringify(r) ? same + 1 : 0;
        r = n;
      }
      profiles.push({ name: h.name, index: h.index, count: h.count, rows: r });
      if (h.index >= h.count) break;
      press("n"); // the next profile
    }
    result.push({ file: file.name, opened: opened.name, profiles });
  }
  return result;
})()

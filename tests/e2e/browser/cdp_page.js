// cdp_page.js -- open a page in headless Chromium and drive it over the
// DevTools protocol (Node's built-in WebSocket; run with
// `node --experimental-websocket`).  Used by the e2e tests of the exports
// that open in a browser (the HTML report, speedscope).
//
//   node --experimental-websocket cdp_page.js URL READY_EXPR CHECK_FILE OUT_JSON [SCREENSHOT.png]
//
// Loads URL, waits until READY_EXPR is true in the page -- as long as
// Chromium runs and the page reports no error: a loaded machine takes
// minutes where a quiet one takes seconds, so the only bound is a ceiling
// against a hang, 300 s times $TEST_TIME_SCALE (tests/e2e/wait_lib.sh) --,
// evaluates the JavaScript in CHECK_FILE there (an expression, may be a
// promise) and writes its value as JSON to OUT_JSON, then the screenshot.
// Exits 1 on any JavaScript error or console error the page reported, on a
// timeout, or when the check throws; every such message is printed.
// With CDP_TRACE=FILE the check runs under Chromium's tracing of the page's
// performance marks (blink.user_timing), whose events go to FILE as JSON:
// each mark has its thread CPU time (tts), so a benchmark can tell the
// page's own work from the time a loaded machine took it away.
// With CDP_PROFILE=FILE the check runs under V8's sampling profiler, whose
// profile goes to FILE (a .cpuprofile: Chromium's DevTools open it; a
// developer's tool for finding where a frame's time goes, not a test).
"use strict";
const { spawn } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
// Node >= 20.10 has WebSocket built in (behind --experimental-websocket
// before 22); older ones take the npm package `ws` (NODE_PATH, package.json).
const WS = typeof WebSocket === "function" ? WebSocket : require("ws");

const [url, readyExpr, checkFile, outJson, shot] = process.argv.slice(2);
const check = fs.readFileSync(checkFile, "utf8");
const profile = fs.mkdtempSync(path.join(os.tmpdir(), "sonde-chromium-"));
const chrome = spawn(process.env.CHROMIUM || "chromium", [
  "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile,
  "--remote-debugging-port=0", "--window-size=1400,1000", "about:blank"], { stdio: ["ignore", "ignore", "pipe"] });
const errors = [];
let done = false;
function finish(code, msg) {
  if (done) return;
  done = true;
  if (msg) console.error(msg);
  for (const e of errors) console.error("page error: " + e);
  try { chrome.kill("SIGKILL"); } catch (e) { /* gone */ }
  try { fs.rmSync(profile, { recursive: true, force: true }); } catch (e) { /* left in tmp */ }
  process.exit(code);
}
const ceiling = 300 * (parseFloat(process.env.TEST_TIME_SCALE) || 1);
// the whole run: loading, the check (whose own waits use the same ceiling,
// window.sondeCeilingMs), the screenshot
const timer = setTimeout(() => finish(1, "timeout: the test did not end in " + 3 * ceiling + " s (a hang?)"), 3 * ceiling * 1000);

let buf = "";
chrome.stderr.on("data", (d) => {
  buf += d;
  const m = buf.match(/DevTools listening on (ws:\/\/\S+)/);
  if (m && !chrome.wsUrl) { chrome.wsUrl = m[1]; run(m[1]).catch((e) => finish(1, "driver: " + (e.stack || e))); }
});
chrome.on("exit", (c) => finish(1, "chromium exited (" + c + ") before the test was done"));

async function run(wsUrl) {
  const ws = new WS(wsUrl);
  await new Promise((ok, ko) => { ws.onopen = ok; ws.onerror = ko; });
  let id = 0;
  const pending = new Map();
  let sessionId, traceDone = null;
  const traceEvents = [];
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.method === "Tracing.dataCollected") { traceEvents.push(...msg.params.value); return; }
    if (msg.method === "Tracing.tracingComplete") { if (traceDone) traceDone(); return; }
    if (msg.id && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.ko(new Error(JSON.stringify(msg.error))); else p.ok(msg.result);
      return;
    }
    if (msg.method === "Runtime.exceptionThrown") {
      const d = msg.params.exceptionDetails;
      errors.push((d.exception && d.exception.description) || d.text);
    } else if (msg.method === "Runtime.consoleAPICalled" && (msg.params.type === "error" || msg.params.type === "assert")) {
      errors.push("console." + msg.params.type + ": " + msg.params.args.map((a) => a.value || a.description).join(" "));
    } else if (msg.method === "Log.entryAdded" && msg.params.entry.level === "error") {
      errors.push("log: " + msg.params.entry.text + (msg.params.entry.url ? " (" + msg.params.entry.url + ")" : ""));
    }
  };
  const send = (method, params = {}, sid = sessionId) => new Promise((ok, ko) => {
    const m = { id: ++id, method, params };
    if (sid) m.sessionId = sid;
    pending.set(m.id, { ok, ko });
    ws.send(JSON.stringify(m));
  });
  const { targetId } = await send("Target.createTarget", { url: "about:blank" }, null);
  ({ sessionId } = await send("Target.attachToTarget", { targetId, flatten: true }, null));
  await send("Runtime.enable");
  await send("Log.enable");
  await send("Page.enable");
  await send("Emulation.setDeviceMetricsOverride", { width: 1400, height: 1000, deviceScaleFactor: 1, mobile: false });
  await send("Page.navigate", { url });
  const evaluate = async (expr) => {
    const r = await send("Runtime.evaluate", { expression: expr, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error("in the page: " + (r.exceptionDetails.exception ? r.exceptionDetails.exception.description : r.exceptionDetails.text));
    return r.result.value;
  };
  const readyBy = Date.now() + ceiling * 1000;
  for (;;) {
    let ok = false;
    try { ok = await evaluate("!!(" + readyExpr + ")"); } catch (e) { /* not loaded yet */ }
    if (ok) break;
    if (errors.length) return finish(1, "JavaScript errors while loading");
    if (Date.now() > readyBy) return finish(1, "timeout: the page did not get ready in " + ceiling + " s (a hang?)");
    await new Promise((r) => setTimeout(r, 100));
  }
  await evaluate("window.sondeCeilingMs = " + ceiling * 1000);
  const trace = process.env.CDP_TRACE;
  /* CDP_TRACE_CATEGORIES adds categories (comma-separated), e.g.
   * devtools.timeline for the browser's style, layout and paint */
  const cats = ["blink.user_timing"].concat((process.env.CDP_TRACE_CATEGORIES || "").split(",").filter(Boolean));
  if (trace) await send("Tracing.start", { traceConfig: { includedCategories: cats }, transferMode: "ReportEvents" }, null);
  const profile = process.env.CDP_PROFILE;
  if (profile) {
    await send("Profiler.enable", {});
    await send("Profiler.setSamplingInterval", { interval: 100 });
    await send("Profiler.start", {});
  }
  const value = await evaluate(check);
  if (profile) fs.writeFileSync(profile, JSON.stringify((await send("Profiler.stop", {})).profile));
  if (trace) {
    const complete = new Promise((ok) => { traceDone = ok; });
    await send("Tracing.end", {}, null);
    await complete;
    fs.writeFileSync(trace, JSON.stringify(traceEvents));
  }
  fs.writeFileSync(outJson, JSON.stringify(value, null, 1));
  if (shot) {
    const png = await send("Page.captureScreenshot", { format: "png", captureBeyondViewport: false });
    fs.writeFileSync(shot, Buffer.from(png.data, "base64"));
  }
  clearTimeout(timer);
  if (errors.length) return finish(1, "JavaScript errors");
  finish(0);
}

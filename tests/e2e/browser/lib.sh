# lib.sh -- sourced by the e2e tests that open an export in headless
# Chromium: checks chromium and node (exit 77 = skipped when absent), installs
# the npm packages of package-lock.json once into the build directory
# (npm ci: locked, cached there), and sets CDP to the command that runs
# cdp_page.js (see there).
command -v chromium >/dev/null || { echo "SKIP: chromium is not installed (scripts/deps.sh)"; exit 77; }
command -v node >/dev/null || { echo "SKIP: node is not installed (scripts/deps.sh)"; exit 77; }
BROWSER_DIR=$SONDE_SRC/tests/e2e/browser
BROWSER_DEPS=$SONDE_BUILD/browser-deps
browser_deps() {
	if ! cmp -s "$BROWSER_DIR/package-lock.json" "$BROWSER_DEPS/package-lock.json" || [[ ! -d $BROWSER_DEPS/node_modules ]]; then
		mkdir -p "$BROWSER_DEPS" && cp "$BROWSER_DIR"/package*.json "$BROWSER_DEPS"/ &&
			(cd "$BROWSER_DEPS" && timeout 180 npm ci --no-audit --no-fund --silent) ||
			{ echo "FAIL: npm ci of tests/e2e/browser/package-lock.json" >&2; exit 1; }
	fi
}
export NODE_PATH=$BROWSER_DEPS/node_modules
if node --no-warnings --experimental-websocket -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' 2>/dev/null; then
	CDP=(node --no-warnings --experimental-websocket "$BROWSER_DIR/cdp_page.js")
else
	browser_deps # the ws package
	CDP=(node "$BROWSER_DIR/cdp_page.js")
fi

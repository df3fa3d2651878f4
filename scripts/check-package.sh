#!/usr/bin/env bash
# The package as a newcomer gets it (`npm run check:package`; CI runs it): pack, install it globally with
# production dependencies only into a fresh prefix, then from an empty folder elsewhere check --version and
# --help, run the scripted demo and compare its tree with the clone's, serve it with the viewer, and weigh the install.
# Fails when the installed package is over the limit (MAX_MB, default 250) or any step fails.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
max_mb="${MAX_MB:-250}"
work="$(mktemp -d "${TMPDIR:-/tmp}/sopworks-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT

cd "$root"
# The tree `npm run demo` gives in this clone (README: "Set up"), made now so a change to the demo's replies or
# SOPs moves it too; the installed package must give the same.
env -u OPENAI_API_KEY -u OPENAI_BASE_URL NO_COLOR=1 node bin/sopworks.js run --llm scripted:examples/wordfreq.yaml --out "$work/clone-demo" >"$work/clone-demo.log" 2>&1 \
  || { tail -n 30 "$work/clone-demo.log"; echo "FAIL: the clone's demo did not finish done"; exit 1; }
expected_tree="$(git -C "$work/clone-demo/wordfreq" rev-parse 'HEAD^{tree}')"
tarball="$(npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "packed $tarball ($(du -h "$work/$tarball" | cut -f1))"

# A global install into its own prefix: production dependencies only, as `npm i -g` does.
npm install --global --prefix "$work/global" --no-audit --no-fund --loglevel=error "$work/$tarball"
installed="$work/global/lib/node_modules/sopworks"
bin="$work/global/bin/sopworks"
for dev in tsx typescript mocha mermaid node-llama-cpp @node-llama-cpp; do
  if [ -e "$installed/node_modules/$dev" ]; then echo "FAIL: $dev is installed with the package"; exit 1; fi
done

mkdir "$work/elsewhere"
cd "$work/elsewhere"
version="$("$bin" --version)"
[ "$version" = "$(node -p "require('$root/package.json').version")" ] || { echo "FAIL: --version says $version"; exit 1; }
start=$(date +%s%N)
"$bin" --help >/dev/null
help_ms=$(( ($(date +%s%N) - start) / 1000000 ))
# Run as a user of the installed package would: no settings of this machine's, the shipped scenario.
env -u OPENAI_API_KEY -u OPENAI_BASE_URL NO_COLOR=1 "$bin" run --llm "scripted:$installed/examples/wordfreq.yaml" >"$work/demo.log" 2>&1 \
  || { tail -n 30 "$work/demo.log"; echo "FAIL: the demo did not finish done"; exit 1; }
tree="$(git -C output/wordfreq rev-parse 'HEAD^{tree}')"
[ "$tree" = "$expected_tree" ] || { echo "FAIL: the demo gave tree $tree, not $expected_tree"; exit 1; }

# The viewer serves its page and its script, bundled at pack time from the client's TypeScript (scripts/build.mjs).
"$bin" serve output --port 0 >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 1 100); do grep -q '?token=' "$work/serve.log" && break; sleep 0.1; done
viewer="$(grep -o 'http://[^ ]*/?token=' "$work/serve.log" | head -n 1 | sed 's/?token=$//')"
script_ok=0
fetch_script='fetch(process.argv[1]).then(async (r) => process.exit(r.ok && (await r.text()).includes("Request a change") ? 0 : 1), () => process.exit(1))'
if [ -n "$viewer" ] && node -e "$fetch_script" "${viewer}assets/app.js"; then script_ok=1; fi
kill -INT "$serve_pid"; wait "$serve_pid" || true
[ "$script_ok" = 1 ] || { cat "$work/serve.log"; echo "FAIL: the installed viewer does not serve its script (${viewer:-no URL}assets/app.js)"; exit 1; }

size_kb=$(du -sk "$installed" | cut -f1)
size_mb=$(( size_kb / 1024 ))
echo "installed: $installed"
echo "size: ${size_mb} MB (limit ${max_mb} MB); --version: $version; --help: ${help_ms} ms; demo tree: $tree"
[ "$size_mb" -le "$max_mb" ] || { echo "FAIL: the installed package weighs ${size_mb} MB, over ${max_mb} MB"; exit 1; }
echo "package check passed"

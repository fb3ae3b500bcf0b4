#!/usr/bin/env bash
# `npm test` runs this first (pretest): the suite needs redis-server (test/redis-*.test.ts start
# private servers) and Chromium (test/e2e/apps-browser.test.ts). Missing ones are installed from
# Debian's packages when we are root or have passwordless sudo; otherwise we stop at once and
# print the exact command, rather than letting those tests fail one by one.
#
# The runtime tests (test/runtimes/) need Bun, Deno and workerd, which come from the npm packages
# bun, deno and miniflare (devDependencies, pinned). Their binaries are put in place by install
# scripts (approved in package.json's allowScripts): an install that skipped them (--ignore-scripts,
# or an npm that blocks unapproved scripts) is repaired with `npm rebuild`, a missing package
# installed at the version package.json pins.
set -euo pipefail

(
  cd "$(dirname "$0")/.."
  runs() { "$@" >/dev/null 2>&1; }
  for runtime in bun deno workerd; do
    bin="node_modules/.bin/$runtime"
    runs "$bin" --version && continue
    package=$runtime
    [ "$runtime" = workerd ] && package=miniflare
    if [ ! -d "node_modules/$package" ]; then
      version=$(node -p "require('./package.json').devDependencies['$package']")
      echo "Installing $package@$version for the runtime tests (npm registry)..." >&2
      npm install --no-save --no-audit --no-fund "$package@$version" >&2
    fi
    runs "$bin" --version || npm rebuild "$runtime" >&2
    runs "$bin" --version || { echo "npm test needs $runtime (npm package $package); $bin does not run." >&2; exit 1; }
  done
)

# The MCP Inspector's CLI, from the npm registry (provision-inspector.sh says why it is no devDependency).
bash "$(dirname "$0")/provision-inspector.sh"

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "npm test needs ${missing[*]}; this machine has no apt-get: install them with its package manager." >&2
  exit 1
fi
install="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  run=(bash -c "$install")
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  run=(sudo bash -c "$install")
else
  echo "npm test needs ${missing[*]}, which this machine lacks. Install them, then run npm test again:" >&2
  echo "  sudo bash -c '$install'" >&2
  exit 1
fi
echo "Installing ${missing[*]} for the test suite (Debian packages)..." >&2
"${run[@]}"

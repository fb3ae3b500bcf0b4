#!/usr/bin/env bash
# `npm test` runs this first (pretest): the suite needs redis-server (test/redis-*.test.ts start
# private servers) and Chromium (test/e2e/apps-browser.test.ts). Missing ones are installed from
# Debian's packages when we are root or have passwordless sudo; otherwise we stop at once and
# print the exact command, rather than letting those tests fail one by one.
set -euo pipefail

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

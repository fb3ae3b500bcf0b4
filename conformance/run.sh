#!/usr/bin/env bash
# Runs every server scenario of the official MCP conformance suite
# (@modelcontextprotocol/conformance) against conformance/server.ts, an MCPServer fixture, then
# every client scenario against conformance/client.ts, an MCPClient "everything client"
# (conformance/run-client.sh, which also runs on its own).
#
#   npm run conformance            (or: bash conformance/run.sh)
#
# The fixture runs on the machine's Node (via tsx); the suite's runner needs Node >= 22 and runs
# on a Node 22 binary this script installs from the npm registry on first use. Results (checks.json per scenario, runner and server
# logs) go to .conformance/ (git-ignored), client results to .conformance/client/. Exits non-zero
# only when a scenario fails that conformance/expected-failures.yml does not list.
#
# Environment: CONFORMANCE_PORT (fixture port, default 0 = ephemeral), CONFORMANCE_TIMEOUT
# (seconds per scenario, default 120), HOST_NODE (node binary for the fixture and the client),
# CONFORMANCE_CLIENT=0 (server scenarios only); run-client.sh documents the client knobs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

SUITE=node_modules/@modelcontextprotocol/conformance/dist/index.js
SUITE_VERSION=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/@modelcontextprotocol/conformance/package.json 2>/dev/null | head -n 1)
EXPECTED=conformance/expected-failures.yml
OUT=.conformance
SCENARIO_TIMEOUT=${CONFORMANCE_TIMEOUT:-120}

# The suite's runner needs Node >= 22 while the project runs on Node 20: install the `node` npm
# package (a Node binary from the registry) into a git-ignored folder of its own, so it never
# shadows the project's node through node_modules/.bin.
RUNNER_NODE_VERSION=22.23.3
RUNNER_PREFIX=.cache/node-$RUNNER_NODE_VERSION
RUNNER_NODE=$RUNNER_PREFIX/node_modules/node/bin/node
HOST_NODE=${HOST_NODE:-node}
if [[ ! -x "$RUNNER_NODE" ]]; then
  echo "conformance: installing node@$RUNNER_NODE_VERSION for the suite's runner into $RUNNER_PREFIX" >&2
  npm install --prefix "$RUNNER_PREFIX" --no-save --no-package-lock --no-audit --no-fund \
    "node@$RUNNER_NODE_VERSION" >&2
fi
if [[ ! -f "$SUITE" ]]; then
  echo "conformance: $SUITE is missing; run 'npm ci' first" >&2
  exit 2
fi
runner_major=$("$RUNNER_NODE" -p 'process.versions.node.split(".")[0]')
if ((runner_major < 22)); then
  echo "conformance: $RUNNER_NODE is Node $runner_major; the suite needs Node >= 22" >&2
  exit 2
fi

rm -rf "$OUT"
mkdir -p "$OUT/results" "$OUT/logs"
READY_FILE="$OUT/url"

SERVER_PID=
stop_server() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "conformance: fixture server ignored SIGTERM; killing it" >&2
      kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=
}
# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
  local status=$?
  stop_server
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "Fixture server: $HOST_NODE ($("$HOST_NODE" --version)) --import tsx conformance/server.ts"
PORT=${CONFORMANCE_PORT:-0} CONFORMANCE_READY_FILE="$READY_FILE" \
  "$HOST_NODE" --import tsx conformance/server.ts >"$OUT/logs/server.log" 2>&1 &
SERVER_PID=$!

for _ in $(seq 300); do
  [[ -s "$READY_FILE" ]] && break
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "conformance: the fixture server exited before listening; its log:" >&2
    cat "$OUT/logs/server.log" >&2
    exit 2
  fi
  sleep 0.1
done
if [[ ! -s "$READY_FILE" ]]; then
  echo "conformance: the fixture server did not listen within 30 s; its log:" >&2
  cat "$OUT/logs/server.log" >&2
  exit 2
fi
URL=$(head -n 1 "$READY_FILE")

mapfile -t SCENARIOS < <("$RUNNER_NODE" "$SUITE" list --server | sed -n 's/^ *- \([^ ]*\).*/\1/p')
if ((${#SCENARIOS[@]} == 0)); then
  echo "conformance: the suite listed no server scenarios" >&2
  exit 2
fi

echo "Suite: @modelcontextprotocol/conformance $SUITE_VERSION on $RUNNER_NODE ($("$RUNNER_NODE" --version))"
echo "Server: $URL"
echo "Running ${#SCENARIOS[@]} server scenarios (every scenario the suite lists, pending ones included)"
echo

for scenario in "${SCENARIOS[@]}"; do
  code=0
  timeout --kill-after=5 "$SCENARIO_TIMEOUT" \
    "$RUNNER_NODE" "$SUITE" server --url "$URL" --scenario "$scenario" -o "$OUT/results/$scenario" \
    >"$OUT/logs/$scenario.log" 2>&1 || code=$?
  if ((code == 124 || code == 137)); then
    echo "conformance: scenario $scenario timed out after ${SCENARIO_TIMEOUT}s" >>"$OUT/logs/$scenario.log"
  fi
done

summary=0
"$HOST_NODE" --import tsx conformance/summarize.ts "$OUT/results" "$EXPECTED" "${SCENARIOS[@]}" || summary=$?
echo "Results and logs: $OUT/"
stop_server

client_summary=0
if [[ "${CONFORMANCE_CLIENT:-1}" != 0 ]]; then
  echo
  bash conformance/run-client.sh || client_summary=$?
fi
if ((summary != 0)); then exit "$summary"; fi
exit "$client_summary"

#!/usr/bin/env bash
# Runs every server scenario of the official MCP conformance suite
# (@modelcontextprotocol/conformance) against conformance/server.ts, an MCPServer fixture.
#
#   npm run conformance            (or: bash conformance/run.sh)
#
# The fixture runs on the machine's Node (via tsx); the suite's runner needs Node >= 22 and runs
# on the binary of the `node` devDependency. Results (checks.json per scenario, runner and server
# logs) go to .conformance/ (git-ignored). Exits non-zero only when a scenario fails that
# conformance/expected-failures.yml does not list.
#
# Environment: CONFORMANCE_PORT (fixture port, default 0 = ephemeral), CONFORMANCE_TIMEOUT
# (seconds per scenario, default 120), HOST_NODE (node binary for the fixture).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

RUNNER_NODE=node_modules/node/bin/node
SUITE=node_modules/@modelcontextprotocol/conformance/dist/index.js
SUITE_VERSION=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' node_modules/@modelcontextprotocol/conformance/package.json 2>/dev/null | head -n 1)
EXPECTED=conformance/expected-failures.yml
OUT=.conformance
SCENARIO_TIMEOUT=${CONFORMANCE_TIMEOUT:-120}

# The machine's node: `npm run` puts node_modules/.bin first on PATH, and the `node` devDependency
# links node_modules/.bin/node to Node 22, so skip every PATH entry inside node_modules.
find_host_node() {
  local dir
  local -a dirs
  IFS=: read -r -a dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    case "$dir" in */node_modules/* | */node_modules) continue ;; esac
    if [[ -x "$dir/node" ]]; then
      echo "$dir/node"
      return 0
    fi
  done
  return 1
}
HOST_NODE=${HOST_NODE:-$(find_host_node || true)}

if [[ -z "$HOST_NODE" ]]; then
  echo "conformance: no node outside node_modules on PATH for the fixture server" >&2
  exit 2
fi
if [[ ! -x "$RUNNER_NODE" || ! -f "$SUITE" ]]; then
  echo "conformance: $RUNNER_NODE or $SUITE is missing; run 'npm ci' (the node@22 devDependency installs its binary in a preinstall script)" >&2
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
# shellcheck disable=SC2317 # invoked by the EXIT trap
cleanup() {
  local status=$?
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
exit "$summary"

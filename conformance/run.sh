#!/usr/bin/env bash
# Runs the server scenarios of the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in conformance/suite.sh) against conformance/server.ts,
# an MCPServer fixture, at both protocol eras: each scenario once per revision among 2025-11-25
# (legacy, initialize and sessions) and 2026-07-28 (stateless, server/discover) that it is tagged
# for, labelled `scenario@revision`; then all of them again against the fixture's /mcp-v1 endpoint,
# the same server configured with the startHTTP options written for the SDK v1 transport. Then it runs every client scenario against
# conformance/client.ts, an MCPClient "everything client" (conformance/run-client.sh, which also
# runs on its own). Extension scenarios (tagged `extension` only) run for the extensions MCPServer
# implements (tasks-* and sep-2640-skills-*, at 2026-07-28 with the runner's --force, see
# suite.sh); any other would be listed and not run.
#
#   npm run conformance            (or: bash conformance/run.sh); .ci/run calls it after npm test
#
# The fixture runs on the machine's Node (via tsx); the suite's runner runs on Node 22 (suite.sh).
# Results (checks.json per run, runner and server logs) go to .conformance/ (git-ignored), client
# results to .conformance/client/. Exits non-zero only when a run fails that
# conformance/expected-failures.yml does not list.
#
# Environment: CONFORMANCE_PORT (fixture port, default 0 = ephemeral), CONFORMANCE_TIMEOUT
# (seconds per run, default 120), CONFORMANCE_SCENARIOS (space-separated server scenario names to
# run instead of all), HOST_NODE (node binary for the fixture and the client),
# CONFORMANCE_CLIENT=0 (server scenarios only); run-client.sh documents the client knobs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

EXPECTED=conformance/expected-failures.yml
OUT=.conformance
SCENARIO_TIMEOUT=${CONFORMANCE_TIMEOUT:-120}
REVISIONS=(2025-11-25 2026-07-28)
HOST_NODE=${HOST_NODE:-node}
# shellcheck source=conformance/suite.sh
source conformance/suite.sh

rm -rf "$OUT"
mkdir -p "$OUT/results" "$OUT/results-v1" "$OUT/logs" "$OUT/logs-v1"
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
URL=$(sed -n 1p "$READY_FILE")
URL_V1=$(sed -n 2p "$READY_FILE")

plan_runs server "${CONFORMANCE_SCENARIOS:-}"
NOT_RUN=("${UNTAGGED[@]}")
if ((${#LABELS[@]} == 0)); then
  echo "conformance: no server scenario to run (CONFORMANCE_SCENARIOS='${CONFORMANCE_SCENARIOS:-}')" >&2
  exit 2
fi

echo "Suite: @modelcontextprotocol/conformance $SUITE_VERSION on $RUNNER_NODE ($("$RUNNER_NODE" --version))"
echo "Server: $URL, and $URL_V1 (the same server with startHTTP options written for the SDK v1 transport)"
echo "Running ${#LABELS[@]} server scenario runs at ${REVISIONS[*]} (${#LISTED[@]} scenarios listed by the suite)"
if ((${#NOT_RUN[@]} > 0)); then
  echo "Not run (extension scenarios, extensions MCPServer does not implement): ${NOT_RUN[*]}"
fi
echo

# run_scenarios <url> <results dir> <logs dir>: every planned run against one endpoint.
run_scenarios() {
  local url=$1 results=$2 logs=$3 label code
  for label in "${LABELS[@]}"; do
    code=0
    local force=()
    if [[ -n "${FORCED[$label]:-}" ]]; then force=(--force); fi
    timeout --kill-after=5 "$SCENARIO_TIMEOUT" \
      "$RUNNER_NODE" "$SUITE" server --url "$url" --scenario "${label%@*}" --spec-version "${label#*@}" \
      "${force[@]}" -o "$results/$label" >"$logs/$label.log" 2>&1 || code=$?
    if ((code == 124 || code == 137)); then
      echo "conformance: run $label timed out after ${SCENARIO_TIMEOUT}s" >>"$logs/$label.log"
    fi
  done
}

summary=0
run_scenarios "$URL" "$OUT/results" "$OUT/logs"
"$HOST_NODE" --import tsx conformance/summarize.ts "$OUT/results" "$EXPECTED" "${LABELS[@]}" || summary=$?
echo
echo "The same scenarios against $URL_V1 (enableDnsRebindingProtection, allowedHosts with ports, full allowedOrigins):"
run_scenarios "$URL_V1" "$OUT/results-v1" "$OUT/logs-v1"
"$HOST_NODE" --import tsx conformance/summarize.ts "$OUT/results-v1" "$EXPECTED" "${LABELS[@]}" || summary=$?
echo "Results and logs: $OUT/"
stop_server

client_summary=0
if [[ "${CONFORMANCE_CLIENT:-1}" != 0 ]]; then
  echo
  bash conformance/run-client.sh || client_summary=$?
fi
if ((summary != 0)); then exit "$summary"; fi
exit "$client_summary"

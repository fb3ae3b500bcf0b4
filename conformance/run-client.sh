#!/usr/bin/env bash
# Runs every client scenario of the official MCP conformance suite against conformance/client.ts,
# an "everything client" built on MCPClient. conformance/run.sh calls it after the server
# scenarios; it also runs on its own:
#
#   bash conformance/run-client.sh
#
# The suite (pinned in conformance/suite.sh, the same version as the server scenarios) and the
# Node 22 binary its runner needs are installed on first use by suite.sh.
#
# Each scenario runs once per revision it applies to among 2025-11-25 (the latest pre-2026
# revision, MCPClient's legacy path) and 2026-07-28, labelled `scenario@revision`; a scenario
# tagged with neither (2025-03-26 back-compat, extensions) runs once at the suite's default and
# keeps its bare name. Results go to .conformance/client/ (git-ignored). Exits non-zero only when
# a run fails that the `client:` list of conformance/expected-failures.yml does not list.
#
# Environment: CONFORMANCE_CLIENT_TIMEOUT (seconds per run, default 60), CONFORMANCE_CLIENT_SCENARIOS
# (space-separated scenario names to run instead of all), CONFORMANCE_CLIENT_NEGOTIATION=auto
# (MCPClient probes the revision instead of pinning the one the suite asks for), HOST_NODE.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

EXPECTED=conformance/expected-failures.yml
OUT=.conformance/client
RUN_TIMEOUT=${CONFORMANCE_CLIENT_TIMEOUT:-60}
REVISIONS=(2025-11-25 2026-07-28)
HOST_NODE=${HOST_NODE:-node}
HOST_NODE_PATH=$(command -v "$HOST_NODE")
# shellcheck source=conformance/suite.sh
source conformance/suite.sh

rm -rf "$OUT"
mkdir -p "$OUT/results"

plan_runs client "${CONFORMANCE_CLIENT_SCENARIOS:-}"
# A scenario tagged for no revision runs once, at the client's default.
for name in "${UNTAGGED[@]}"; do
  LABELS+=("$name")
  REVISION_OF+=("")
done

echo "Client suite: @modelcontextprotocol/conformance $SUITE_VERSION on $RUNNER_NODE ($("$RUNNER_NODE" --version))"
echo "Client: $HOST_NODE_PATH ($("$HOST_NODE_PATH" --version)) --import tsx conformance/client.ts (MCPClient)"
echo "Running ${#LABELS[@]} client scenario runs (${#LISTED[@]} scenarios listed by the suite)"
echo

# A run in progress is stopped with the script (timeout runs it in a process group of its own,
# which a terminal's Ctrl-C does not reach).
RUN_PID=
# shellcheck disable=SC2317 # invoked by the INT/TERM traps
interrupt() {
  if [[ -n "$RUN_PID" ]]; then
    kill -TERM "$RUN_PID" 2>/dev/null || true
    wait "$RUN_PID" 2>/dev/null || true
  fi
  exit "$1"
}
trap 'interrupt 130' INT
trap 'interrupt 143' TERM

for i in "${!LABELS[@]}"; do
  label=${LABELS[$i]}
  name=${label%@*}
  revision=${REVISION_OF[$i]}
  dir="$OUT/results/$label"
  mkdir -p "$dir"
  args=(client --command "$HOST_NODE_PATH --import tsx conformance/client.ts" --scenario "$name"
    --timeout "$(((RUN_TIMEOUT - 10) * 1000))" -o "$dir")
  if [[ -n "$revision" ]]; then args+=(--spec-version "$revision"); fi
  code=0
  # timeout signals its whole process group, so a hung client dies with the runner.
  timeout --kill-after=5 "$RUN_TIMEOUT" "$RUNNER_NODE" "$SUITE" "${args[@]}" >"$dir/runner.log" 2>&1 &
  RUN_PID=$!
  wait "$RUN_PID" || code=$?
  RUN_PID=
  if ((code == 124 || code == 137)); then
    echo "conformance: run $label timed out after ${RUN_TIMEOUT}s" >>"$dir/runner.log"
  fi
  echo "$code" >"$dir/runner.exit"
done

summary=0
"$HOST_NODE" --import tsx conformance/summarize.ts --client "$OUT/results" "$EXPECTED" "${LABELS[@]}" || summary=$?
echo "Client results and logs: $OUT/"
exit "$summary"

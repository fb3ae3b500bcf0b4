#!/usr/bin/env bash
# Sourced by run.sh and run-client.sh: provides the official MCP conformance suite
# (@modelcontextprotocol/conformance $SUITE_VERSION) and the Node 22 binary its runner needs, each
# installed from the npm registry into a git-ignored folder of its own under .cache/ on first use.
#
# Neither is a devDependency on purpose: the `node` package would link node_modules/.bin/node,
# which `npm run` puts first on PATH, so every other script (tests included) would silently run on
# Node 22; and the suite's 0.2.0 line exists only as prereleases.
#
# Sets SUITE_VERSION, SUITE (the runner's entry point) and RUNNER_NODE; defines plan_runs.

SUITE_VERSION=0.2.0-alpha.12
SUITE_PREFIX=.cache/conformance-$SUITE_VERSION
SUITE=$SUITE_PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js
RUNNER_NODE_VERSION=22.23.3
RUNNER_PREFIX=.cache/node-$RUNNER_NODE_VERSION
RUNNER_NODE=$RUNNER_PREFIX/node_modules/node/bin/node

if [[ ! -x "$RUNNER_NODE" ]]; then
  echo "conformance: installing node@$RUNNER_NODE_VERSION for the suite's runner into $RUNNER_PREFIX" >&2
  npm install --prefix "$RUNNER_PREFIX" --no-save --no-package-lock --no-audit --no-fund \
    "node@$RUNNER_NODE_VERSION" >&2
fi
if [[ ! -f "$SUITE" ]]; then
  # npm on Node 20 warns EBADENGINE for a dependency that wants Node 22; the runner runs on 22.
  echo "conformance: installing @modelcontextprotocol/conformance@$SUITE_VERSION into $SUITE_PREFIX" >&2
  npm install --prefix "$SUITE_PREFIX" --no-save --no-package-lock --no-audit --no-fund \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" >&2
fi
if [[ ! -f "$SUITE" ]]; then
  echo "conformance: $SUITE is missing after installing @modelcontextprotocol/conformance@$SUITE_VERSION" >&2
  exit 2
fi
runner_major=$("$RUNNER_NODE" -p 'process.versions.node.split(".")[0]')
if ((runner_major < 22)); then
  echo "conformance: $RUNNER_NODE is Node $runner_major; the suite needs Node >= 22" >&2
  exit 2
fi

# Extension scenarios (tagged `extension`, on no revision's timeline) of the extensions the package
# implements, by name prefix, and the revision each is run at (with the runner's --force).
EXTENSION_PREFIXES=(tasks- sep-2640-skills-)
EXTENSION_REVISION=2026-07-28

# plan_runs server|client "<names, or empty for all>": one run per scenario and revision of
# REVISIONS it is tagged for, and one at EXTENSION_REVISION per extension scenario named by
# EXTENSION_PREFIXES. Sets LISTED (what the suite lists, `name tags`), LABELS (`name@revision`),
# REVISION_OF (the revision of each label), FORCED (labels run with --force) and UNTAGGED
# (scenarios run at none of them).
plan_runs() {
  local kind=$1 wanted=$2 entry name tags revision matched
  # `list --server` / `list --client` print `  - name [rev,rev,...]`: keep the name and its tags.
  mapfile -t LISTED < <("$RUNNER_NODE" "$SUITE" list "--$kind" |
    sed -n 's/^ *- \([^ ]*\)\( *\[\(.*\)\]\)\{0,1\} *$/\1 \3/p')
  if ((${#LISTED[@]} == 0)); then
    echo "conformance: the suite listed no $kind scenarios" >&2
    exit 2
  fi
  local -A want=()
  for name in $wanted; do want[$name]=1; done
  LABELS=()
  REVISION_OF=()
  UNTAGGED=()
  declare -gA FORCED=()
  local prefix
  for entry in "${LISTED[@]}"; do
    name=${entry%% *}
    tags=",${entry#* },"
    if ((${#want[@]} > 0)) && [[ -z "${want[$name]:-}" ]]; then continue; fi
    matched=0
    for revision in "${REVISIONS[@]}"; do
      if [[ "$tags" == *",$revision,"* ]]; then
        LABELS+=("$name@$revision")
        REVISION_OF+=("$revision")
        matched=1
      fi
    done
    if ((matched == 0)) && [[ "$tags" == *",extension,"* ]]; then
      for prefix in "${EXTENSION_PREFIXES[@]}"; do
        if [[ "$name" == "$prefix"* ]]; then
          LABELS+=("$name@$EXTENSION_REVISION")
          REVISION_OF+=("$EXTENSION_REVISION")
          FORCED["$name@$EXTENSION_REVISION"]=1
          matched=1
        fi
      done
    fi
    if ((matched == 0)); then UNTAGGED+=("$name"); fi
  done
}

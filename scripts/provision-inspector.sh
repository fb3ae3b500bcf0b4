#!/usr/bin/env bash
# Installs the MCP Inspector (@modelcontextprotocol/inspector, pinned) into a git-ignored folder of
# its own under .cache/ when it is missing: test/server/workflow-suspend.test.ts runs its CLI
# (`--cli`) as a client that supports neither elicitation nor tasks. It is not a devDependency: it
# brings its own copies of the SDK and a UI stack (React, Vite, Ink) that nothing else here needs.
# npm on Node 20 warns EBADENGINE (it asks for Node 22); its CLI runs on Node 20.
set -euo pipefail

INSPECTOR_VERSION=2.12.0
prefix=.cache/inspector-$INSPECTOR_VERSION
bin=$prefix/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js
[[ -f "$bin" ]] && exit 0
echo "Installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION for the test suite into $prefix..." >&2
npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund \
  "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
if [[ ! -f "$bin" ]]; then
  echo "provision-inspector: $bin is missing after installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
  exit 2
fi

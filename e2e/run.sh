#!/usr/bin/env bash
# End-to-end tests of the web page: the release `caisson serve` driven by headless Chromium.
# Installs what is missing (Debian's chromium, the pinned playwright-core), builds, runs.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
npm ci --no-audit --no-fund --loglevel=error
(cd .. && cargo build --release -p caisson)
start=$(date +%s)
node --test --test-concurrency=1 tests/
echo "e2e: $(( $(date +%s) - start )) s"

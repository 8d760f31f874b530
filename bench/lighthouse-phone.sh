#!/bin/bash
# Lighthouse's mobile performance score of QueueLens pages, one run each, with the machine's load beside it
# (docs/benchmarks.md, "Lighthouse on a phone"). Needs a running production server and Chromium:
#   BASE_URL=http://127.0.0.1:3918 QUEUELENS_SECRET=… bench/lighthouse-phone.sh / /failed /jobs/99
set -euo pipefail
: "${BASE_URL:?the server, e.g. http://127.0.0.1:3918}" "${QUEUELENS_SECRET:?a secret the server accepts}"
out=$(mktemp -d)
for path in "$@"; do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} npx -y lighthouse@12.8.2 "$BASE_URL$path" --quiet --only-categories=performance \
    --extra-headers="{\"authorization\":\"Bearer $QUEUELENS_SECRET\"}" \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu" --output=json --output-path="$out/report.json" >/dev/null
  node -e '
    const report = require(process.argv[1]);
    const figure = (id) => report.audits[id].displayValue;
    console.log(`| ${process.argv[2]} | ${Math.round(report.categories.performance.score * 100)} | ${figure("first-contentful-paint")} | ${figure("largest-contentful-paint")} | ${figure("total-blocking-time")} | ${figure("cumulative-layout-shift")} | ${figure("speed-index")} | ${process.argv[3]} |`);
  ' "$out/report.json" "$path" "$load"
done
rm -rf "$out"

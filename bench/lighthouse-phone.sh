#!/bin/bash
# Lighthouse's mobile performance score of QueueLens pages, RUNS runs each (default 3), the median run's
# figures with the machine's load at its start and Lighthouse's CPU benchmark index (docs/benchmarks.md, "Lighthouse
# on a phone": the score moves with the machine, and the index tells one machine from another). Needs a running
# production server and Chromium; REPORT_DIR keeps every run's JSON report for its diagnostics:
#   BASE_URL=http://127.0.0.1:3918 QUEUELENS_SECRET=… bench/lighthouse-phone.sh / /failed /jobs/99
set -euo pipefail
: "${BASE_URL:?the server, e.g. http://127.0.0.1:3918}" "${QUEUELENS_SECRET:?a secret the server accepts}"
runs=${RUNS:-3}
out=${REPORT_DIR:-$(mktemp -d)}
mkdir -p "$out"
for path in "$@"; do
  reports=()
  for run in $(seq 1 "$runs"); do
    report="$out/$(echo "$path" | tr -c 'a-zA-Z0-9\n' '_')-$run.json"
    cut -d' ' -f1-3 /proc/loadavg >"$report.load"
    # Now and then Lighthouse loses the trace of a load (NO_NAVSTART) and exits with an error: that run is made again, twice at most.
    for attempt in 1 2 3; do
      CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium} npx -y lighthouse@12.8.2 "$BASE_URL$path" --quiet --only-categories=performance \
        --extra-headers="{\"authorization\":\"Bearer $QUEUELENS_SECRET\"}" \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu" --output=json --output-path="$report" >/dev/null && break
      [ "$attempt" -lt 3 ] || exit 1
    done
    reports+=("$report")
  done
  node -e '
    const { readFileSync } = require("node:fs");
    const [path, ...files] = process.argv.slice(1);
    const runs = files.map((file) => ({ report: JSON.parse(readFileSync(file, "utf8")), load: readFileSync(`${file}.load`, "utf8").trim() }));
    const score = ({ report }) => Math.round(report.categories.performance.score * 100);
    runs.sort((a, b) => score(a) - score(b));
    const median = runs[Math.floor(runs.length / 2)];
    const figure = (id) => median.report.audits[id].displayValue;
    const scores = runs.map(score).join(", ");
    console.log(`| ${path} | ${score(median)} (${scores}) | ${figure("first-contentful-paint")} | ${figure("largest-contentful-paint")} | ${figure("total-blocking-time")} | ${figure("cumulative-layout-shift")} | ${figure("speed-index")} | ${median.load} | ${Math.round(median.report.environment.benchmarkIndex)} |`);
  ' "$path" "${reports[@]}"
done
[ -n "${REPORT_DIR:-}" ] || rm -rf "$out"

#!/usr/bin/env bash
# End-to-end check of a `seiche compare` report in headless Chromium: the page loads, every
# picture in it decodes, each solver of the comparison appears, and a screenshot is taken
# (REPORT_DIR/screenshot.png). Usage: tools/check_report.sh REPORT_DIR [SOLVER...]
# Run through `make report-check`, which installs Debian's chromium first.
set -euo pipefail
dir=$(realpath "$1")
shift
solvers=("${@:-pbf wcsph ddr}")
page="$dir/index.html"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "check_report: chromium is not installed (scripts/install-deps.sh --browser)" >&2
  exit 2
fi
[ -f "$page" ] || { echo "check_report: no $page" >&2; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=15000)
dom=$("$browser" "${flags[@]}" --dump-dom "file://$page" 2>/dev/null)
loaded=$(grep -o 'data-images-loaded="[0-9]*/[0-9]*"' <<<"$dom" | head -1 | tr -dc '0-9/')
if [ -z "$loaded" ]; then
  echo "check_report: the page did not finish loading in Chromium" >&2
  exit 1
fi
ok=${loaded%/*}
total=${loaded#*/}
echo "check_report: $ok of $total images decoded in Chromium"
if [ "$ok" != "$total" ] || [ "$total" -lt 5 ]; then
  echo "check_report: FAIL: expected all of at least 5 images (pictures and plots) to load" >&2
  exit 1
fi
for s in ${solvers[*]}; do
  if ! grep -q "<td>$s</td>" <<<"$dom"; then
    echo "check_report: FAIL: solver $s is missing from the report's tables" >&2
    exit 1
  fi
done
rm -f "$dir/screenshot.png"
"$browser" "${flags[@]}" --window-size=1400,4200 --screenshot="$dir/screenshot.png" \
  "file://$page" >/dev/null 2>&1
size=$(stat -c %s "$dir/screenshot.png" 2>/dev/null || echo 0)
if [ "$size" -lt 20000 ]; then
  echo "check_report: FAIL: screenshot missing or blank ($size bytes)" >&2
  exit 1
fi
echo "check_report: PASS: screenshot $dir/screenshot.png ($size bytes)"

#!/usr/bin/env bash
# ctest: tools/paraview/check_series.py (or CHECK, another check beside it) under pvpython and
# Xvfb; 77 (skipped) without them, or when the check says it is.
# Usage: run_check.sh SEICHE_BINARY SCENE OUT_DIR [CHECK]
set -uo pipefail
if ! command -v pvpython > /dev/null || ! command -v xvfb-run > /dev/null; then
  echo "paraview check: skipped: pvpython (python3-paraview) or xvfb-run (xvfb) is not installed"
  exit 77
fi
mkdir -p "$3"
# ParaView 5.11 now and then fails to open a fresh Xvfb display ("bad X server connection")
# before it has checked anything; that is tried again with another display. Any other failure
# is tried once more (one run in a whole suite on a loaded machine failed once, not again in
# five reruns), its log printed first: a fault of seiche's fails both times.
failures=0
for attempt in 1 2 3 4; do
  server=$((1000 + ($$ * 3 + attempt) % 500))
  xvfb-run -a -n "$server" -s "-screen 0 1280x1024x24" pvpython --force-offscreen-rendering \
    "$(dirname "$0")/${4:-check_series.py}" "$1" "$2" "$3" > "$3/log" 2>&1
  status=$?
  if [ $status -eq 77 ]; then
    cat "$3/log"
    exit 77
  fi
  if [ $status -eq 0 ]; then
    grep -v "^ *[0-9]\+ \+0x" "$3/log"
    exit 0
  fi
  if grep -q "bad X server connection" "$3/log"; then
    echo "paraview check: attempt $attempt could not open its display; trying again"
    continue
  fi
  grep -v "^ *[0-9]\+ \+0x" "$3/log"
  failures=$((failures + 1))
  [ $failures -ge 2 ] && exit $status
  echo "paraview check: attempt $attempt failed (exit $status, log above); once more"
done
grep -v "^ *[0-9]\+ \+0x" "$3/log"
exit 1

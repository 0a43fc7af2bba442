#!/usr/bin/env bash
# Speed on a busy machine (issue 15): each benchmark scene with 2 threads, quiet, beside one
# CPU-bound competitor and beside three (seiche bench --competitors N), REPEATS times each,
# interleaved; prints the median of the mean ms per step and its ratio to the quiet figure.
# With a second binary (BEFORE) both are run, interleaved, for a before/after table.
# Usage: tools/bench_load.sh SEICHE [BEFORE_SEICHE]   (REPEATS=3 by default)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
binaries=("$1")
[ $# -ge 2 ] && binaries+=("$2")
repeats="${REPEATS:-3}"
scenes=("bench/ddr_9k_3d.json 150" "bench/dam_break_reference_3d.json 60" "dam_break_2d.json 300")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-28s %-8s %12s %12s %8s %12s %8s\n" scene binary "quiet ms" "1 busy ms" ratio "3 busy ms" ratio
for entry in "${scenes[@]}"; do
  read -r scene steps <<<"$entry"
  declare -A runs=()
  for ((r = 0; r < repeats; r++)); do
    for c in 0 1 3; do
      for b in "${!binaries[@]}"; do
        mean=$("${binaries[$b]}" bench "$root/scenes/$scene" --steps "$steps" --threads 2 \
                 --competitors "$c" 2>/dev/null | sed -n 's/.*(median), \([0-9.]*\) (mean).*/\1/p')
        runs[$b,$c]+="$mean "
      done
    done
  done
  for b in "${!binaries[@]}"; do
    python3 - "$scene" "$([ "$b" = 0 ] && echo after || echo before)" "${runs[$b,0]}" \
      "${runs[$b,1]}" "${runs[$b,3]}" <<'PY'
import statistics, sys
scene, label, *cols = sys.argv[1:]
med = [statistics.median(float(x) for x in c.split()) for c in cols]
name = scene.replace("bench/", "").replace(".json", "")
print(f"{name:<28} {label:<8} {med[0]:12.2f} {med[1]:12.2f} {med[1] / med[0]:7.2f}x "
      f"{med[2]:12.2f} {med[2] / med[0]:7.2f}x")
PY
  done
  unset runs
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

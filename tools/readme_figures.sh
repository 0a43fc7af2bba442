#!/usr/bin/env bash
# Measures the README's quick figures again on this machine and prints them with the date, the
# CPU and the load average, to be copied into the README: the time per step of the reference dam
# break, how fast `seiche render` draws, the live viewer's frames per second (under Xvfb when there
# is no display). Usage: tools/readme_figures.sh [BUILD_DIR] (`make readme-figures`, about 30 s
# on 2 cores). The long figures have their own tools: tools/bench_accuracy.py (against the
# reference), `seiche compare`, `seiche validate`.
set -euo pipefail
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
build=${1:-build}
seiche="$build/seiche"
[ -x "$seiche" ] || { echo "readme-figures: $seiche not found: build first (make build)" >&2; exit 2; }
out=out/readme_figures
mkdir -p "$out"
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "readme-figures: $(date -u +%Y-%m-%d), $cpu, $(nproc) cores, load average at start $(cut -d' ' -f1-3 /proc/loadavg)"

echo "== seiche bench scenes/bench/dam_break_reference_3d.json (ms per step, median)"
"$seiche" bench scenes/bench/dam_break_reference_3d.json --steps 40 | grep -E "ms per step|particles" | head -3

echo "== seiche render of the 3D dam break (2 s, every frame at the scene's render size)"
"$seiche" run scenes/dam_break_3d.json -o "$out/dam_break_3d" -q --overwrite > /dev/null
frames=$(ls "$out/dam_break_3d/frames"/frame_*.vtp | wc -l)
start=$(date +%s.%N)
"$seiche" render "$out/dam_break_3d" > /dev/null 2>&1
end=$(date +%s.%N)
awk -v n="$frames" -v a="$start" -v b="$end" 'BEGIN { printf "%d frames in %.1f s: %.1f frames per second\n", n, b - a, n / (b - a) }'

echo "== seiche view --benchmark --frames 300 (3D, then 2D dam break)"
viewer() {
  if [ -n "${DISPLAY:-}" ]; then "$seiche" view "$1" --benchmark --frames 300
  elif command -v xvfb-run > /dev/null; then xvfb-run -a -s "-screen 0 1280x1024x24" "$seiche" view "$1" --benchmark --frames 300
  else echo "no display and no xvfb-run: skipped"; fi
}
viewer scenes/dam_break_3d.json 2>&1 | tail -4 || echo "viewer: not built or failed (see above)"
viewer scenes/dam_break_2d.json 2>&1 | tail -4 || echo "viewer: not built or failed (see above)"
echo "readme-figures: load average at end $(cut -d' ' -f1-3 /proc/loadavg)"

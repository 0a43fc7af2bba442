#!/usr/bin/env bash
# Two builds of seiche on the same runs, frames and tables compared byte for byte: what a redesign
# that must not change results checks (the 2D and 3D dam breaks with every solver, the floating
# boxes, the droplets on plates, a WCSPH drop with vorticity confinement). About a minute.
#   tools/bitwise_runs.sh OLD/seiche NEW/seiche [WORK_DIR]
# Exit 0 when every .vtp, .ply, stats.csv and bodies.csv is the same, 1 otherwise (naming them).
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
old=$(realpath "$1"); new=$(realpath "$2"); work=$(realpath -m "${3:-$(mktemp -d /tmp/seiche-bitwise.XXXXXX)}")
cd "$(dirname "$0")/.."
# The solver list, as each program names it ("pbf, wcsph or ddr"): the solvers both builds have
# (a build that adds a solver is compared on the others).
list() { "$1" run --help | sed -n 's/.*Solver: \(.*\) (overrides solver.type).*/\1/p' | sed 's/,//g; s/ or / /'; }
solvers=$(for s in $(list "$new"); do case " $(list "$old") " in *" $s "*) echo "$s" ;; esac; done)
runs() {
  local bin=$1 out=$2
  run() { local name=$1; shift; "$bin" run "$@" -o "$out/$name" -q --threads 2 --set output.preview=false > /dev/null; }
  for s in $solvers; do
    run "db2_$s" scenes/dam_break_2d.json --solver "$s" --end-time 1.0
    run "db3_$s" scenes/dam_break_3d.json --solver "$s" --end-time 0.3
  done
  run fbox2 scenes/floating_box_2d.json --end-time 1.0
  run fbox3 scenes/floating_box_3d.json --end-time 0.3
  run drops2 scenes/droplets_on_plates_2d.json --end-time 0.5
  run drops3 scenes/droplets_on_plates_3d.json --end-time 0.2
  run drop_wcsph scenes/droplet_zero_g_2d.json --solver wcsph --end-time 0.3 --set solver.vorticity=0.1
}
rm -rf "$work/old" "$work/new"
runs "$old" "$work/old"
runs "$new" "$work/new"
n=0; bad=0
while IFS= read -r f; do
  n=$((n + 1))
  cmp -s "$work/old/$f" "$work/new/$f" || { echo "differs: $f"; bad=$((bad + 1)); }
done < <(cd "$work/old" && find . -type f \( -name '*.vtp' -o -name '*.ply' -o -name stats.csv -o -name bodies.csv \) | sort)
echo "$n files compared, $bad differ (runs in $work)"
[ "$bad" -eq 0 ]

#!/usr/bin/env bash
# A scene split over processes (mpirun -np N seiche run) writes the frames and stats of the run in
# one process, byte for byte: every solver on the 2D dam break with 2 and 3 processes (PBF also
# 4, with its warm start, and with vorticity confinement and an obstacle), the 3D dam break with 2 and 4, floating
# bodies, surface tension and adhesion, an emitter, a sink, a puddle smaller than the processes
# (some own no cell), checkpoints written by N processes resumed by M, a process killed, frames
# written in pieces, and a bad scene, which must end with a message, not hang. About two minutes on two cores.
#   tools/check_split_runs.sh BUILD/seiche [WORK_DIR]
# Exit 0 when all agree, 1 naming what differs, 77 (skipped) without mpirun or an MPI build.
set -uo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
bin=$(realpath "$1")
work=$(realpath -m "${2:-$(mktemp -d /tmp/seiche-split.XXXXXX)}")
# The work directory is this script's: emptied when it holds an earlier check, else refused.
if [ -d "$work" ] && [ -n "$(ls -A "$work")" ]; then
  if [ ! -f "$work/.seiche-split-check" ]; then
    echo "$work is not empty and not an earlier check's: give another directory" >&2; exit 2
  fi
  rm -rf "$work"
fi
mkdir -p "$work" && touch "$work/.seiche-split-check"
cd "$(dirname "$0")/.."
if ! command -v mpirun > /dev/null; then
  echo "skipped: no mpirun (scripts/install-deps.sh installs openmpi-bin)"
  exit 77
fi
mpi=(mpirun --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
# A build without MPI says so when started as several processes.
if ! "${mpi[@]}" -np 2 "$bin" run scenes/dam_break_2d.json --end-time 0.01 -o "$work/probe" -q \
     --threads 1 --set output.preview=false > "$work/probe.log" 2>&1; then
  if grep -q "built without MPI" "$work/probe.log"; then
    echo "skipped: this seiche was built without MPI"
    exit 77
  fi
  echo "FAIL: a probe run under mpirun failed:"; cat "$work/probe.log"; exit 1
fi
failed=0
# compare_runs REF DIR LABEL: REF's frames, stats.csv and bodies.csv against DIR's, byte for byte.
compare_runs() {
  local ref=$1 dir=$2 label=$3 files=0 differ=()
  for f in "$ref"/frames/* "$ref"/stats.csv "$ref"/bodies.csv "$ref"/sensors.csv; do
    [ -e "$f" ] || continue
    files=$((files + 1))
    cmp -s "$f" "$dir/${f#"$ref"/}" || differ+=("${f#"$ref"/}")
  done
  if [ ${#differ[@]} -gt 0 ]; then
    echo "FAIL $label: ${#differ[@]} of $files files differ (${differ[*]:0:4} ...)"; failed=1
  else
    echo "ok   $label: $files files the same"
  fi
}
# same NAME NP ARGS...: the run in one process and under mpirun -np NP, compared.
same() {
  local name=$1 np=$2; shift 2
  local one="$work/${name}_1" many="$work/${name}_$np"
  if [ ! -d "$one" ]; then
    "$bin" run "$@" -o "$one" -q --threads 2 --set output.preview=false > "$one.log" 2>&1 ||
      { echo "FAIL $name: the run in one process failed"; cat "$one.log"; failed=1; return; }
  fi
  timeout 300 "${mpi[@]}" -np "$np" "$bin" run "$@" -o "$many" -q --threads 1 \
    --set output.preview=false > "$many.log" 2>&1 ||
    { echo "FAIL $name: the run under mpirun -np $np failed"; cat "$many.log"; failed=1; return; }
  compare_runs "$one" "$many" "$name, $np processes"
}
solvers=$("$bin" run --help | sed -n 's/.*Solver: \(.*\) (overrides solver.type).*/\1/p' | sed 's/,//g; s/ or / /')
for s in $solvers; do
  same "db2_$s" 2 scenes/dam_break_2d.json --solver "$s" --end-time 0.3
  same "db2_$s" 3 scenes/dam_break_2d.json --solver "$s" --end-time 0.3
done
same db2_pbf 4 scenes/dam_break_2d.json --solver pbf --end-time 0.3
# PBF's warm start: values carried with the particles across processes.
same db2_warm 3 scenes/dam_break_2d.json --end-time 0.3 --set solver.pbf.warm_start=0.5 \
  --set solver.pbf.density_tolerance=0.0005
# ... with its peak correction: flags gathered over the halo, the largest error over processes.
same db2_peak 3 scenes/dam_break_2d.json --end-time 0.3 --set solver.pbf.warm_start=0.8 \
  --set solver.pbf.warm_start_join=larger --set solver.pbf.max_iterations=100 \
  --set solver.pbf.density_tolerance=0.0005 --set solver.pbf.peak_tolerance=0.002
same db2_vort 3 scenes/dam_break_2d.json --end-time 0.3 --set solver.vorticity=0.05 \
  --set 'obstacles=[{"min": [0.8, 0], "max": [0.9, 0.15]}]'
# Pressure sensors (their exact sums over processes): the far wall, the floor and an obstacle's
# face, rows between frames.
sensors='sensors=[{"face": "+x", "centre": [1.6, 0.05], "size": 0.05},
  {"face": "-y", "centre": [0.6, 0], "size": 0.1}, {"object": "obstacles[0]", "face": "-x",
  "centre": [0.8, 0.05], "size": 0.05}]'
same sensors2 3 scenes/dam_break_2d.json --end-time 0.5 --set output.sensor_rate=700 \
  --set 'obstacles=[{"min": [0.8, 0], "max": [0.9, 0.15]}]' --set "$sensors"
same db3 2 scenes/dam_break_3d.json --end-time 0.1 --set particle_radius=0.015
same db3 4 scenes/dam_break_3d.json --end-time 0.1 --set particle_radius=0.015
# Bodies moved by the fluid (forces summed over processes, Bullet on each), surface tension
# and adhesion, an emitter, a sink.
same fbox2 3 scenes/floating_box_2d.json --end-time 0.3
same fbox3 2 scenes/floating_box_3d.json --end-time 0.1
# The viscosity: the fluid's pairs, the walls' and the moving body's (its halo's velocity change).
same fbox2_visc 3 scenes/floating_box_2d.json --end-time 0.3 --set solver.kinematic_viscosity=0.001
# The wall function on water: the first layers' shear and its reaction on the body (the halo's
# records of it).
same fbox2_wall 3 scenes/floating_box_2d.json --end-time 0.3 --set solver.kinematic_viscosity=1e-6 \
  --set solver.wall_function=true
same drops2 3 scenes/droplets_on_plates_2d.json --end-time 0.3
same jet2 3 scenes/jet_breakup_2d.json --end-time 0.3
same sink2 3 scenes/dam_break_2d.json --end-time 1.0 --set 'sinks=[{"min": [1.3, 0], "max": [1.6, 0.3]}]'
# All the fluid crosses from the processes' first regions to others' (a block flying across
# the tank without gravity: the split is rebalanced on the way); surface meshes of the whole
# fluid (frames/surface_*.ply, closed and manifold in one process: no seam at the borders).
same crossing 3 scenes/dam_break_2d.json --end-time 0.5 --set gravity=[0,0] \
  --set 'fluid=[{"min": [0.1, 0.3], "max": [0.4, 0.6], "velocity": [2, 0]}]'
same mesh3 4 scenes/dam_break_3d.json --end-time 0.05 --set particle_radius=0.02 --mesh
# ... and those meshes are closed and manifold: every directed edge once, its reverse once.
if ! python3 - "$work"/mesh3_4/frames/surface_*.ply <<'PY'
import re, struct, sys
from collections import Counter
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    end = data.index(b"end_header\n") + len(b"end_header\n")
    head = data[:end].decode()
    nv, nf = (int(re.search(r"element %s (\d+)" % k, head).group(1)) for k in ("vertex", "face"))
    at = end + 4 * nv * len(re.findall(r"property float", head))
    edges = Counter()
    for k in range(nf):
        count, a, b, c = struct.unpack_from("<B3i", data, at + 13 * k)
        assert count == 3, path
        edges.update([(a, b), (b, c), (c, a)])
    bad = sum(1 for (u, v), n in edges.items() if n != 1 or edges.get((v, u)) != 1)
    if nf == 0 or bad:
        sys.exit(f"{path}: {nf} triangles, {bad} edges not shared by exactly two of them")
    print(f"ok   mesh3, 4 processes: {path.rsplit('/', 1)[1]} closed and manifold ({nf} triangles)")
PY
then
  failed=1
fi
# A puddle of a few cells, four processes: some own no particle at all.
same puddle 4 scenes/dam_break_2d.json --end-time 0.2 \
  --set 'fluid=[{"min": [0.75, 0], "max": [0.85, 0.05]}]'
# Checkpoints: a run stopped at 0.2 s by N processes, resumed to 0.3 s by M (1 = no mpirun),
# is the uninterrupted run of one process.
resumed() {
  local name=$1 first=$2 second=$3 scene=${4:-scenes/dam_break_2d.json}
  local ref="$work/${name}_ref" dir="$work/${name}_${first}to${second}"
  local common=(--set output.preview=false --set output.checkpoint_every=0.1 -q)
  launch() { if [ "$1" -eq 1 ]; then "$bin" "${@:2}" --threads 2; else timeout 300 "${mpi[@]}" -np "$1" "$bin" "${@:2}" --threads 1; fi; }
  [ -d "$ref" ] || "$bin" run "$scene" --end-time 0.3 -o "$ref" "${common[@]}" > "$ref.log" 2>&1
  if ! launch "$first" run "$scene" --end-time 0.2 -o "$dir" "${common[@]}" > "$dir.log" 2>&1 ||
     ! launch "$second" run --resume "$dir" --end-time 0.3 "${common[@]:0:4}" -q >> "$dir.log" 2>&1; then
    echo "FAIL $name: stopped by $first, resumed by $second:"; cat "$dir.log"; failed=1; return
  fi
  compare_runs "$ref" "$dir" "$name: stopped by $first process(es), resumed by $second"
}
resumed resume 2 3
resumed resume 1 2
resumed resume 3 1
resumed fbox_resume 2 3 scenes/floating_box_2d.json  # bodies: their poses and velocities too
resumed sensors_resume 2 3 "$work/sensors2_1/scene.json"  # sensors: the row under way kept
# A process killed (kill -9) after the first checkpoint: mpirun stops the others; the run
# resumes from its checkpoint and ends as the run that was never stopped.
killed() {
  local ref="$work/killed_ref" dir="$work/killed"
  local common=(--set output.preview=false --set output.checkpoint_every=0.1 -q)
  "$bin" run scenes/dam_break_2d.json --end-time 0.6 -o "$ref" "${common[@]}" > "$ref.log" 2>&1
  timeout 300 "${mpi[@]}" -np 2 "$bin" run scenes/dam_break_2d.json --end-time 0.6 -o "$dir" \
    "${common[@]}" --threads 1 > "$dir.log" 2>&1 &
  local job=$! waited=0
  while [ ! -f "$dir/checkpoint.bin" ] && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
  pkill -9 -f -n "seiche run scenes/dam_break_2d.json --end-time 0.6 -o $dir" || true
  if wait $job; then echo "FAIL killed: the run ended normally (killed too late?)"; failed=1; return; fi
  if ! timeout 300 "${mpi[@]}" -np 2 "$bin" run --resume "$dir" --set output.preview=false -q \
       --threads 1 >> "$dir.log" 2>&1; then
    echo "FAIL killed: the resume failed:"; cat "$dir.log"; failed=1; return
  fi
  local differ=0 files=0
  for f in "$ref"/frames/* "$ref"/stats.csv; do
    files=$((files + 1)); cmp -s "$f" "$dir/${f#"$ref"/}" || differ=$((differ + 1))
  done
  if [ $differ -gt 0 ]; then echo "FAIL killed: $differ of $files files differ"; failed=1
  else echo "ok   killed: a process killed, the run resumed by 2: $files files the same"; fi
}
killed
# An interrupt (SIGINT) to one of the processes: every process stops after the same step, the
# run ends "interrupted" with its summary, and its frames are the one-process run's. (Ctrl-C on
# mpirun makes it send SIGTERM to all, which seiche takes the same way, and SIGKILL a few
# seconds later: racy for a test.)
interrupted() {
  local dir="$work/interrupted" ref="$work/db2_pbf_1"
  timeout 120 "${mpi[@]}" -np 2 "$bin" run scenes/dam_break_2d.json --end-time 30 -o "$dir" \
    --set output.preview=false -q --threads 1 > "$dir.log" 2>&1 &
  local job=$! waited=0
  while [ ! -f "$dir/frames/frame_000003.vtp" ] && [ $waited -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
  local one=""
  for p in $(pgrep -f -- "-o $dir"); do
    [ "$(cat /proc/$p/comm 2>/dev/null)" = seiche ] && { one=$p; break; }
  done
  [ -n "$one" ] && kill -INT "$one"
  wait $job; local code=$?  # mpirun's: 130 or 1 (its processes ended with 130); 124: hung
  if [ $code -eq 0 ] || [ $code -eq 124 ] || ! grep -q '"interrupted"' "$dir/summary.json" 2>/dev/null; then
    echo "FAIL interrupted: exit $code, summary: $(cat "$dir/summary.json" 2>/dev/null | head -2)"
    cat "$dir.log"; failed=1; return
  fi
  local differ=0
  for k in 000000 000001 000002 000003; do
    cmp -s "$ref/frames/frame_$k.vtp" "$dir/frames/frame_$k.vtp" || differ=$((differ + 1))
  done
  if [ $differ -gt 0 ]; then echo "FAIL interrupted: $differ of 4 frames differ"; failed=1
  else echo "ok   interrupted: SIGINT to one process stopped both (summary: interrupted), frames the same"; fi
}
interrupted
# Frames in pieces (output.pieces): each process writes its own particles, a .pvtp joins them.
# Read back whole (seiche render reads them through the .pvd), they are the one-process run's
# frames: the pictures of both runs are the same bytes. Also across a resume by another count.
pieces() {
  local ref="$work/db2_pbf_1" dir="$work/pieces" dir2="$work/pieces_resumed"
  local set=(--set output.preview=false --set output.pieces=true --set output.ply=false -q --threads 1)
  local pictures=(-q --no-movie --set render.width=200 --set render.height=120 --threads 1)
  if ! timeout 300 "${mpi[@]}" -np 3 "$bin" run scenes/dam_break_2d.json --solver pbf --end-time 0.3        -o "$dir" "${set[@]}" > "$dir.log" 2>&1 ||
     ! timeout 300 "${mpi[@]}" -np 3 "$bin" run scenes/dam_break_2d.json --solver pbf --end-time 0.2        -o "$dir2" "${set[@]}" --set output.checkpoint_every=0.1 >> "$dir.log" 2>&1 ||
     ! timeout 300 "${mpi[@]}" -np 2 "$bin" run --resume "$dir2" --end-time 0.3 -q --threads 1 >> "$dir.log" 2>&1 ||
     ! "$bin" render "$ref" "${pictures[@]}" >> "$dir.log" 2>&1 ||
     ! "$bin" render "$dir" "${pictures[@]}" >> "$dir.log" 2>&1 ||
     ! "$bin" render "$dir2" "${pictures[@]}" >> "$dir.log" 2>&1; then
    echo "FAIL pieces: a run or its pictures failed:"; cat "$dir.log"; failed=1; return
  fi
  local frames pieces3 pieces2 differ=0
  frames=$(ls "$ref"/frames/frame_*.vtp | wc -l)
  pieces3=$(ls "$dir"/frames/frame_000009_*.vtp 2> /dev/null | wc -l)
  pieces2=$(ls "$dir2"/frames/frame_000009_*.vtp 2> /dev/null | wc -l)
  for f in "$ref"/render/frame_*.png; do
    cmp -s "$f" "$dir/render/${f##*/}" || differ=$((differ + 1))
    cmp -s "$f" "$dir2/render/${f##*/}" || differ=$((differ + 1))
  done
  if [ "$frames" -lt 10 ] || [ "$pieces3" -ne 3 ] || [ "$pieces2" -ne 2 ] || [ $differ -gt 0 ] ||
     ! grep -q 'frame_000009.pvtp' "$dir/particles.pvd" "$dir2/particles.pvd"; then
    echo "FAIL pieces: $frames frames, $pieces3 and $pieces2 pieces of the last, $differ pictures differ"
    failed=1
  else
    echo "ok   pieces: 3 processes' pieces (and 3 then 2 across a resume) read back as the one-process frames ($frames pictures the same)"
  fi
}
pieces
# A bad scene: refused with its message by every process, without hanging.
refused() {
  local name=$1 expect=$2; shift 2
  if timeout 120 "${mpi[@]}" -np 2 "$bin" run "$@" -q --threads 1 > "$work/$name.log" 2>&1; then
    echo "FAIL $name: a split run accepted it"; failed=1
  elif ! grep -q "$expect" "$work/$name.log"; then
    echo "FAIL $name: no message naming $expect:"; cat "$work/$name.log"; failed=1
  else
    echo "ok   $name: refused ($(grep -m1 "$expect" "$work/$name.log" | cut -c1-90)...)"
  fi
}
refused bad_scene "solver.pbf.max_iterations" scenes/dam_break_2d.json -o "$work/bad" \
  --set solver.pbf.max_iterations=0
# A damaged checkpoint: process 0 reads it, every process stops with its message.
damaged="$work/resume_2to3"
if [ -f "$damaged/checkpoint.bin" ]; then
  cp -r "$damaged" "$work/damaged"
  printf '\x55' | dd of="$work/damaged/checkpoint.bin" bs=1 seek=4000 conv=notrunc status=none
  refused damaged_checkpoint "checksum" --resume "$work/damaged"
fi
# seiche bench under mpirun: a line per process whose particles add up to the scene's.
if timeout 120 "${mpi[@]}" -np 2 "$bin" bench scenes/dam_break_2d.json --steps 5 --threads 1 > "$work/bench.log" 2>&1 &&
   python3 - "$work/bench.log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
total = int(re.search(r"particles +(\d+) fluid", text).group(1))
rows = re.findall(r"process (\d+) +(\d+) particles \+ (\d+) halo; .* peak memory (\d+) MiB", text)
assert [int(r[0]) for r in rows] == [0, 1], rows
assert sum(int(r[1]) for r in rows) == total and all(int(r[2]) > 0 and int(r[3]) > 0 for r in rows), rows
PY
then
  echo "ok   bench under mpirun: a line per process, their particles the scene's, each with its halo and memory"
else
  echo "FAIL bench under mpirun:"; cat "$work/bench.log"; failed=1
fi
# Commands that do not split refuse mpirun rather than run N times over into the same files.
if timeout 120 "${mpi[@]}" -np 2 "$bin" validate > "$work/validate.log" 2>&1; then
  echo "FAIL validate under mpirun: accepted"; failed=1
elif ! grep -q "runs in one process" "$work/validate.log"; then
  echo "FAIL validate under mpirun: no message:"; cat "$work/validate.log"; failed=1
else
  echo "ok   validate under mpirun: refused ($(grep -m1 "runs in one process" "$work/validate.log" | cut -c1-70)...)"
fi
exit $failed

#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, builds examples/embed against the installed
# package through find_package(seiche), and runs it: the dam-break front must move and the run
# reach 1 s. The installed program must find its plot scripts in PREFIX/share/seiche, and a copy
# of it with no data beside it must say where it looked. Usage: tools/check_embed.sh BUILD_DIR
# [CXX_FLAGS]
# CXX_FLAGS: the flags the libraries were built with that a user must build with too (the
# sanitizers of `make test-asan`).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "$1" && pwd)"
flags="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/lib/cmake/seiche/seicheConfig.cmake" || { echo "no seicheConfig.cmake installed"; exit 1; }
# The exported targets must not carry seiche's own build flags into a user's build.
if grep -q -- "-march=native" "$work"/prefix/lib/cmake/seiche/*.cmake; then
  echo "-march=native leaked into the installed package"; exit 1
fi
cmake -S "$src/examples/embed" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$flags" > "$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j 2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/build/embed" | tee "$work/out.txt"
grep -q "reached 1 s" "$work/out.txt"
# The front starts at 0.25 m and must have reached the far wall region.
python3 - "$work/out.txt" <<'PY'
import re, sys
fronts = [float(m) for m in re.findall(r"front at x = ([\d.]+)", open(sys.argv[1]).read())]
assert len(fronts) == 10, fronts
assert fronts[0] > 0.3 and max(fronts) > 0.9, fronts
print("check_embed: the installed package builds and runs the example")
PY

# The installed program makes a compare report with its plots (no source path compiled in).
if [ -x "$work/prefix/bin/seiche" ]; then
  test -f "$work/prefix/share/seiche/tools/plot_compare.py" || { echo "plot scripts not installed"; exit 1; }
  env -u SEICHE_DATA_DIR "$work/prefix/bin/seiche" compare "$src/scenes/dam_break_2d.json" --solvers pbf \
    --end-time 0.02 --no-scaling --no-stability -q -o "$work/cmp" > "$work/cmp.log" 2>&1 \
    || { cat "$work/cmp.log"; exit 1; }
  test -f "$work/cmp/index.html" && test -f "$work/cmp/density_error.png" \
    || { echo "the installed seiche made no plots"; cat "$work/cmp.log"; exit 1; }
  # A lone copy of the binary: the report's CSVs, and a message naming SEICHE_DATA_DIR.
  mkdir -p "$work/lone" && cp "$work/prefix/bin/seiche" "$work/lone/seiche"
  env -u SEICHE_DATA_DIR "$work/lone/seiche" compare "$src/scenes/dam_break_2d.json" --solvers pbf \
    --end-time 0.02 --no-scaling --no-stability -q -o "$work/cmp2" > "$work/cmp2.log" 2>&1 || true
  grep -q "SEICHE_DATA_DIR" "$work/cmp2.log" || { echo "no message about the data directory"; cat "$work/cmp2.log"; exit 1; }
  test -f "$work/cmp2/runs.csv" || { echo "no CSVs without the data"; exit 1; }
  echo "check_embed: the installed program finds its plot scripts; a lone copy says where it looked"
fi

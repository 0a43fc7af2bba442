#!/usr/bin/env bash
# Installs the build tree into a fresh prefix, builds examples/embed against the installed
# package through find_package(seiche), and runs it: the dam-break front must move and the run
# reach 1 s. The installed program must find its plot scripts in PREFIX/share/seiche, and a copy
# of it with no data beside it must say where it looked. With seiche::mpi, examples/embed_mpi
# over 3 processes must print what it prints in one. Usage: tools/check_embed.sh BUILD_DIR
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

# With seiche::mpi installed: examples/embed_mpi over 3 processes prints what one process does.
if grep -q "seiche::mpi" "$work"/prefix/lib/cmake/seiche/seicheTargets.cmake && command -v mpirun > /dev/null; then
  cmake -S "$src/examples/embed_mpi" -B "$work/build_mpi" -DCMAKE_PREFIX_PATH="$work/prefix" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="$flags" > "$work/configure_mpi.log" || { cat "$work/configure_mpi.log"; exit 1; }
  cmake --build "$work/build_mpi" -j 2 > "$work/build_mpi.log" || { cat "$work/build_mpi.log"; exit 1; }
  mpi=(mpirun --oversubscribe -np 3)
  [ "$(id -u)" -eq 0 ] && mpi+=(--allow-run-as-root)
  "$work/build_mpi/embed_mpi" > "$work/mpi_1.txt"
  "${mpi[@]}" "$work/build_mpi/embed_mpi" > "$work/mpi_3.txt"
  grep -q "reached 0.5 s" "$work/mpi_3.txt" && grep -q "over 3 process" "$work/mpi_3.txt" ||
    { echo "embed_mpi over 3 processes:"; cat "$work/mpi_3.txt"; exit 1; }
  if ! diff <(grep "^t = " "$work/mpi_1.txt") <(grep "^t = " "$work/mpi_3.txt"); then
    echo "embed_mpi: 3 processes differ from one"; exit 1
  fi
  [ "$(grep -c "^t = " "$work/mpi_3.txt")" -eq 5 ] || { echo "embed_mpi: expected 5 samples"; exit 1; }
  echo "check_embed: a program of its own splits a scene over 3 processes with seiche::mpi, bit for bit one process's"
else
  echo "check_embed: seiche::mpi not installed or no mpirun: the MPI example is skipped"
fi

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

#!/usr/bin/env bash
# Installs the Debian packages seiche needs, by name, skipping the ones already there.
# --browser adds Debian's chromium (for `make report-check`); --movie adds ffmpeg (MP4s from
# `seiche render`); --fuzz adds clang and its OpenMP runtime (the libFuzzer targets of
# `make fuzz`); --blender adds Blender (`make blender-check`); --paraview adds ParaView and its
# pvpython (tools/paraview/open_run.py; the test Output.ParaViewReadsTheRun runs when it is
# there; Debian removes python3-vtk9 for it). None is needed to build, run or test.
set -euo pipefail
extra=()
for arg in "$@"; do
  case "$arg" in
    --browser) extra+=(chromium) ;;
    --movie) extra+=(ffmpeg) ;;
    --fuzz) extra+=(clang libomp-dev) ;;
    --blender) extra+=(blender) ;;
    --paraview) extra+=(paraview python3-paraview) ;;
    *) echo "install-deps: unknown option $arg (--browser, --movie, --fuzz, --blender, --paraview)" >&2; exit 2 ;;
  esac
done
packages=(
  build-essential cmake pkg-config
  libglm-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  zlib1g-dev libbullet-dev libfreetype-dev fonts-dejavu-core
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-matplotlib python3-jsonschema python3-vtk9
  python3-dev pybind11-dev python3-numpy python3-pytest python3-setuptools python3-pip python3-venv
  libglfw3-dev libglew-dev libimgui-dev libgl1-mesa-dri xvfb xauth
  libopenvdb-dev libopenvdb-tools python3-openvdb
  libopenmpi-dev openmpi-bin
  "${extra[@]}"
)
# Debian's python3-paraview and python3-vtk9 conflict: with ParaView's Python installed
# (--paraview), VTK's own is not asked for again (its test is then skipped, ParaView's runs).
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
if installed python3-paraview || [[ " ${extra[*]} " == *" python3-paraview "* ]]; then
  packages=("${packages[@]/python3-vtk9}")
fi
missing=()
for p in "${packages[@]}"; do
  [ -n "$p" ] || continue
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

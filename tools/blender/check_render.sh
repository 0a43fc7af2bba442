#!/usr/bin/env bash
# `make blender-check`, last step: `blender -b check.blend -y -a` (how a farm renders) wrote a
# picture per frame, and the first and the last differ in their pixels: the animation renders without the add-on.
set -euo pipefail
dir=$1
mapfile -t pictures < <(ls "$dir"/frame_*.bmp 2>/dev/null | sort)
if [ "${#pictures[@]}" -lt 2 ]; then
  echo "blender-check (render): FAIL: ${#pictures[@]} pictures in $dir" >&2
  exit 1
fi
if cmp -s "${pictures[0]}" "${pictures[-1]}"; then
  echo "blender-check (render): FAIL: the first and last pictures are the same" >&2
  exit 1
fi
echo "blender-check (render): ${#pictures[@]} pictures, the first and the last differ: passed"

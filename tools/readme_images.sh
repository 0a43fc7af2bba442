#!/usr/bin/env bash
# Makes the README's pictures of scenes again (docs/images/*.png): each scene run to the moment
# its caption names, its last frame's preview copied. Usage: tools/readme_images.sh [BUILD_DIR]
# (`make readme-images`). About 30 s on 2 cores.
set -euo pipefail
build=${1:-build}
out=out/readme_images
mkdir -p "$out"
picture() {  # image scene end-time [--set ...]
  local image=$1 scene=$2 end=$3
  shift 3
  echo "readme-images: $image ($scene to t = $end s)"
  "$build/seiche" run "scenes/$scene.json" -o "$out/$scene" --end-time "$end" -q --overwrite "$@" > /dev/null
  cp "$out/$scene/preview_last.png" "docs/images/$image.png"
}
picture render_dam_break_3d dam_break_3d 0.4
picture surface_droplet_zero_g_3d droplet_zero_g_3d 0.134
picture surface_droplets_on_plates_3d droplets_on_plates_3d 1.5
picture surface_jet_breakup_3d jet_breakup_3d 0.6
picture surface_droplets_on_plates_2d droplets_on_plates_2d 1.5
picture bodies_floating_crates_3d floating_crates_3d 2.0
picture bodies_pour_into_glass_3d pour_into_glass_3d 1.5
picture bodies_sphere_through_tank_3d sphere_through_tank_3d 0.8
picture bodies_floating_box_2d floating_box_2d 3.0
picture bodies_dam_break_gate_2d dam_break_gate_2d 0.4
picture bodies_hull_and_breakwater_2d hull_and_breakwater_2d 0.734
picture bodies_sloshing_tank_3d sloshing_tank_3d 1.2
# The gate scene's pressure sensors over its whole run (sensors.png, docs/scene-format.md).
echo "readme-images: sensors_dam_break_gate_2d (dam_break_gate_2d to t = 2 s)"
"$build/seiche" run scenes/dam_break_gate_2d.json -o "$out/dam_break_gate_2d_whole" -q --overwrite > /dev/null
cp "$out/dam_break_gate_2d_whole/sensors.png" docs/images/sensors_dam_break_gate_2d.png
echo "readme-images: done (docs/images)"

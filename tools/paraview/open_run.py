"""A seiche run in ParaView: the particles as Point Gaussian spheres of the particle radius
coloured by speed, the surface meshes when the run has them, the timeline of the run.

    pvpython tools/paraview/open_run.py RUN_DIR                      # an interactive window
    pvpython tools/paraview/open_run.py RUN_DIR --screenshot last.png  # the last frame, then quit
    (in ParaView: View > Python Shell > Run Script, after setting RUN_DIR below)

Reads particles.pvd (frames/frame_NNNNNN.vtp with point arrays velocity, density, id and the
frame time) and, for meshes, surface.pvd or the frames/surface_NNNNNN.ply series.
"""
import glob
import json
import os
import sys

from paraview import simple as pv

RUN_DIR = None  # set this when running the script from ParaView's Python shell


def open_run(run):
    """Builds the pipeline for RUN; returns (particles source, surface source or None, view)."""
    with open(os.path.join(run, "scene.json")) as f:
        scene = json.load(f)
    radius = float(scene.get("particle_radius", 0.01))
    particles = pv.PVDReader(registrationName="seiche particles",
                             FileName=os.path.join(run, "particles.pvd"))
    view = pv.GetActiveViewOrCreate("RenderView")
    display = pv.Show(particles, view)
    display.SetRepresentationType("Point Gaussian")
    display.GaussianRadius = radius
    display.ShaderPreset = "Sphere"
    pv.ColorBy(display, ("POINTS", "velocity", "Magnitude"))
    display.RescaleTransferFunctionToDataRange(True, False)
    display.SetScalarBarVisibility(view, True)
    pv.GetColorTransferFunction("velocity").ApplyPreset("Viridis (matplotlib)", True)
    surface = None
    if os.path.exists(os.path.join(run, "surface.pvd")):
        surface = pv.PVDReader(registrationName="seiche surface",
                               FileName=os.path.join(run, "surface.pvd"))
    else:
        meshes = sorted(glob.glob(os.path.join(run, "frames", "surface_*.ply")))
        if meshes:
            # A numbered series counts 0, 1, 2, ...: frame k is at k / frame_rate, as the
            # particles' frames are.
            series = pv.PLYReader(registrationName="seiche surface files", FileNames=meshes)
            frame_rate = float(scene.get("time", {}).get("frame_rate", 30))
            surface = pv.TemporalShiftScale(registrationName="seiche surface", Input=series,
                                            Scale=1.0 / frame_rate)
    if surface is not None:
        shown = pv.Show(surface, view)
        shown.Opacity = 0.5
        shown.ColorArrayName = ['POINTS', '']  # one plain colour
    scene_time = pv.GetAnimationScene()
    scene_time.UpdateAnimationUsingDataTimeSteps()
    # Colours from 0 to the last frame's fastest particle (the first frame is at rest).
    times = list(particles.TimestepValues)
    if times:
        scene_time.AnimationTime = times[-1]
        display.RescaleTransferFunctionToDataRange(False, True)
        scene_time.AnimationTime = times[0]
    if scene.get("dimension", 3) == 2:
        view.InteractionMode = "2D"
    view.CameraPosition = [0, 0, 1]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    if scene.get("dimension", 3) == 3:
        view.CameraPosition = [view.CameraFocalPoint[0] + 1.2, view.CameraFocalPoint[1] + 1.0,
                               view.CameraFocalPoint[2] + 2.5]
        view.ResetCamera()
    return particles, surface, view


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__)
        return
    run = RUN_DIR or (args[0] if args else None)
    if not run or not os.path.isfile(os.path.join(run, "particles.pvd")):
        sys.exit("usage: pvpython open_run.py RUN_DIR [--screenshot FILE]: RUN_DIR is a seiche run "
                 "directory with particles.pvd (output.vtk)")
    particles, surface, view = open_run(run)
    if "--screenshot" in args:
        scene_time = pv.GetAnimationScene()
        scene_time.AnimationTime = particles.TimestepValues[-1]
        pv.SaveScreenshot(args[args.index("--screenshot") + 1], view, ImageResolution=[960, 540])
    else:
        pv.Interact(view)


if __name__ == "__main__":
    main()

"""A seiche run in ParaView: the particles as Point Gaussian spheres of the particle radius
coloured by speed, the surface meshes when the run has them, the timeline of the run.

    pvpython tools/paraview/open_run.py RUN_DIR                      # an interactive window
    pvpython tools/paraview/open_run.py RUN_DIR --screenshot last.png  # the last frame, then quit
    pvpython tools/paraview/open_run.py RUN_DIR --screenshot f.png --time 0.5 --size 1920x1080
    (in ParaView: View > Python Shell > Run Script, after setting RUN_DIR below)

The camera frames the whole run: the particles' bounds over all frames (up to 120 spread over
the run, read once for the bounds and the colours; so a flow that runs
across the tank stays in the picture), with the speed colour bar in a strip of its own at the
right, never over the fluid. Colours run from 0 to the fastest particle of the run. The surface
is coloured by the fluid's speed at its vertices from the .vtp meshes (output.mesh_vtk);
ParaView's PLY reader drops the PLY meshes' velocity, so a PLY-only surface is one colour.

Reads particles.pvd (frames/frame_NNNNNN.vtp with point arrays velocity, density, id and the
frame time) and, for meshes, surface.pvd or the frames/surface_NNNNNN.ply series.
"""
import glob
import json
import math
import os
import sys

from paraview import simple as pv

RUN_DIR = None  # set this when running the script from ParaView's Python shell

# Where the fluid goes, as fractions of the picture (left, right, bottom, top); the colour bar
# lives right of it.
FLUID_AREA = (0.03, 0.84, 0.05, 0.95)
BAR_LEFT = 0.88
SIZE = (960, 540)


def run_extent(source, times, samples=120):
    """The bounds of SOURCE and its fastest point over TIMES (all of them, or SAMPLES spread
    evenly with the last), in one pass over the frames."""
    if len(times) > samples:
        step = (len(times) - 1) / (samples - 1)
        times = [times[round(i * step)] for i in range(samples)]
    lo, hi, fastest = [math.inf] * 3, [-math.inf] * 3, 0.0
    for t in times or [None]:
        source.UpdatePipeline() if t is None else source.UpdatePipeline(t)
        b = source.GetDataInformation().GetBounds()
        if b[0] > b[1]:  # an empty frame
            continue
        for k in range(3):
            lo[k], hi[k] = min(lo[k], b[2 * k]), max(hi[k], b[2 * k + 1])
        fastest = max(fastest, source.PointData["velocity"].GetRange(-1)[1])
    if lo[0] > hi[0]:
        return [0, 1, 0, 1, 0, 1], fastest
    return [lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]], fastest


def _sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def _dot(a, b):
    return sum(a[i] * b[i] for i in range(3))


def _cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _unit(a):
    n = math.sqrt(_dot(a, a))
    return [x / n for x in a]


def project(view, point, aspect):
    """POINT in the picture's coordinates, (0, 0) bottom left to (1, 1) top right."""
    eye, focus = list(view.CameraPosition), list(view.CameraFocalPoint)
    forward = _unit(_sub(focus, eye))
    right = _unit(_cross(forward, list(view.CameraViewUp)))
    up = _cross(right, forward)
    v = _sub(point, eye)
    if view.CameraParallelProjection:
        half = view.CameraParallelScale
    else:
        half = max(_dot(v, forward), 1e-9) * math.tan(math.radians(view.CameraViewAngle) / 2)
    return 0.5 + 0.5 * _dot(v, right) / (half * aspect), 0.5 + 0.5 * _dot(v, up) / half


def frame(view, bounds, size, area=FLUID_AREA):
    """Moves the camera along its own axes (its direction kept) until BOUNDS fill AREA."""
    aspect = size[0] / size[1]
    corners = [[bounds[i], bounds[2 + j], bounds[4 + k]] for i in (0, 1) for j in (0, 1) for k in (0, 1)]
    for _ in range(12):
        xy = [project(view, c, aspect) for c in corners]
        x0, x1 = min(p[0] for p in xy), max(p[0] for p in xy)
        y0, y1 = min(p[1] for p in xy), max(p[1] for p in xy)
        scale = max((x1 - x0) / (area[1] - area[0]), (y1 - y0) / (area[3] - area[2]), 1e-6)
        shift_x = (x0 + x1) / 2 - (area[0] + area[1]) / 2
        shift_y = (y0 + y1) / 2 - (area[2] + area[3]) / 2
        if abs(scale - 1) < 1e-3 and abs(shift_x) < 1e-3 and abs(shift_y) < 1e-3:
            break
        eye, focus = list(view.CameraPosition), list(view.CameraFocalPoint)
        forward = _unit(_sub(focus, eye))
        right = _unit(_cross(forward, list(view.CameraViewUp)))
        up = _cross(right, forward)
        distance = math.sqrt(_dot(_sub(focus, eye), _sub(focus, eye)))
        half = (view.CameraParallelScale if view.CameraParallelProjection
                else distance * math.tan(math.radians(view.CameraViewAngle) / 2))
        # A shift of the picture's fraction s moves the camera 2 s half-heights (x: widths).
        move = [2 * shift_x * half * aspect * right[i] + 2 * shift_y * half * up[i] for i in range(3)]
        focus = [focus[i] + move[i] for i in range(3)]
        if view.CameraParallelProjection:
            view.CameraParallelScale = half * scale
            eye = [focus[i] - distance * forward[i] for i in range(3)]
        else:
            eye = [focus[i] - distance * scale * forward[i] for i in range(3)]
        view.CameraFocalPoint, view.CameraPosition = focus, eye


def open_run(run, size=SIZE):
    """Builds the pipeline for RUN; returns (particles source, surface source or None, view)."""
    with open(os.path.join(run, "scene.json")) as f:
        scene = json.load(f)
    radius = float(scene.get("particle_radius", 0.01))
    three_d = scene.get("dimension", 3) == 3
    particles = pv.PVDReader(registrationName="seiche particles",
                             FileName=os.path.join(run, "particles.pvd"))
    view = pv.GetActiveViewOrCreate("RenderView")
    view.ViewSize = list(size)
    display = pv.Show(particles, view)
    display.SetRepresentationType("Point Gaussian")
    display.GaussianRadius = radius
    display.ShaderPreset = "Sphere"
    pv.ColorBy(display, ("POINTS", "velocity", "Magnitude"))
    speed = pv.GetColorTransferFunction("velocity")
    speed.ApplyPreset("Viridis (matplotlib)", True)
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
        surface.UpdatePipeline()
        if "velocity" in surface.PointData.keys():  # .vtp meshes (output.mesh_vtk)
            pv.ColorBy(shown, ("POINTS", "velocity", "Magnitude"))
        else:
            # ParaView's PLY reader keeps only the normals of the PLY meshes' vx vy vz.
            shown.ColorArrayName = ['POINTS', '']  # one plain colour
            print("open_run.py: the surface is one colour: ParaView drops the PLY meshes' velocity; "
                  "run with --set output.mesh_vtk=true for a surface coloured by speed")
    scene_time = pv.GetAnimationScene()
    scene_time.UpdateAnimationUsingDataTimeSteps()
    times = list(particles.TimestepValues) if particles.TimestepValues else []
    # Colours from 0 to the fastest particle of the run; the camera frames all of its frames.
    bounds, fastest = run_extent(particles, times)
    speed.RescaleTransferFunction(0.0, fastest if fastest > 0 else 1.0)
    speed.AutomaticRescaleRangeMode = "Never"
    bar = pv.GetScalarBar(speed, view)
    bar.Title = "speed (m/s)"
    bar.ComponentTitle = ""
    bar.WindowLocation = "Any Location"
    bar.Orientation = "Vertical"
    bar.Position = [BAR_LEFT, 0.12]
    bar.ScalarBarLength = 0.76
    bar.TitleFontSize = 14
    bar.LabelFontSize = 12
    bar.RangeLabelFormat = "%-#.2f"
    bar.Visibility = 1
    view.OrientationAxesVisibility = 0  # it would sit on the fluid in the bottom-left corner
    if not three_d:
        view.InteractionMode = "2D"
    view.CameraPosition = [0, 0, 1]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    if three_d:
        view.CameraPosition = [1.2, 1.0, 2.5]
    else:
        view.CameraParallelProjection = 1
    view.CameraParallelScale = 1.0
    pad = 1.5 * radius  # the spheres reach a radius past the centres
    bounds = [bounds[i] + (pad if i % 2 else -pad) for i in range(6)]
    centre = [(bounds[2 * k] + bounds[2 * k + 1]) / 2 for k in range(3)]
    span = max(bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4], 1e-6)
    offset = _unit(_sub(list(view.CameraPosition), [0, 0, 0]))
    view.CameraFocalPoint = centre
    view.CameraPosition = [centre[i] + 3 * span * offset[i] for i in range(3)]
    frame(view, bounds, size)
    view.CenterOfRotation = centre
    if times:
        scene_time.AnimationTime = times[0]
    return particles, surface, view


def main():
    args = sys.argv[1:]
    if "-h" in args or "--help" in args:
        print(__doc__)
        return

    def option(name, default=None):
        if name not in args:
            return default
        i = args.index(name)
        if i + 1 >= len(args):
            sys.exit(f"open_run.py: {name} needs a value")
        value = args.pop(i + 1)
        args.pop(i)
        return value

    picture = option("--screenshot")
    at = option("--time")
    size = option("--size", f"{SIZE[0]}x{SIZE[1]}")
    try:
        size = tuple(int(v) for v in size.lower().split("x"))
        assert len(size) == 2 and min(size) >= 16 and max(size) <= 16384
    except (ValueError, AssertionError):
        sys.exit(f"open_run.py: --size {size}: expected WIDTHxHEIGHT in pixels, e.g. 1920x1080")
    run = RUN_DIR or (args[0] if args else None)
    if not run or not os.path.isfile(os.path.join(run, "particles.pvd")):
        sys.exit("usage: pvpython open_run.py RUN_DIR [--screenshot FILE [--time T] [--size WxH]]: "
                 "RUN_DIR is a seiche run directory with particles.pvd (output.vtk)")
    particles, surface, view = open_run(run, size)
    if picture:
        times = list(particles.TimestepValues)
        t = times[-1] if at is None else float(at)
        if times and not times[0] - 1e-9 <= t <= times[-1] + 1e-9:
            sys.exit(f"open_run.py: --time {at}: the run covers {times[0]:g} to {times[-1]:g} s")
        pv.GetAnimationScene().AnimationTime = t
        pv.SaveScreenshot(picture, view, ImageResolution=list(size))
    else:
        pv.Interact(view)


if __name__ == "__main__":
    main()

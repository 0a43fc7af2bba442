"""seiche: particle fluids — Position Based Fluids (Macklin & Müller 2013), WCSPH (Becker &
Teschner 2007), double density relaxation (Clavet et al. 2005) and DFSPH (Bender & Koschier
2015, 2017) on the same scenes.

    import seiche
    scene = seiche.load_scene("scenes/dam_break_2d.json")
    w = seiche.World(scene)
    w.advance_to(0.5, every=1 / 30, callback=lambda w: w.write_frame("out/py_dam"))
    print(w.stats["density_error_max"], w.positions.shape)

Units are SI throughout (m, s, kg, kg/m³, N). The particle arrays (positions, velocities,
densities, ids) are read-only NumPy views of the world's own memory, in storage order, valid
until the next step or change of the world: read them again after each step. docs/python.md
has the whole API.
"""

from ._seiche import (  # noqa: F401  (the compiled part)
    Scene,
    SceneError,
    SceneFileNotFoundError,
    World,
    __version__,
    load_scene,
    mesh,
    pair_loops,
    read_frame,
    read_pvd,
    render,
    set_threads,
    solvers,
    threads,
)


import csv as _csv
import errno as _errno
import json as _json
import pathlib as _pathlib
import re as _re


class Run:
    """A run directory that `seiche run` wrote (finished, stopped or still running), read back.

    run = seiche.read_run("out/dam_break_2d")
    run.times                  # frame times, s (NumPy array)
    f = run.frame_at(0.5)      # the frame nearest t = 0.5 s: dict of NumPy arrays
    f["position"], f["velocity"], f["density"], f["id"], f["time"]
    run.stats["density_error_max"]   # stats.csv, a NumPy array per column
    run.bodies["y"]                   # bodies.csv (None without bodies)
    run.scene                         # scene.json as written by the run (a dict)

    Frames come from particles.pvd (VTP) when the run wrote it, else from frames/frame_*.ply at
    their frame numbers over time.frame_rate. Positions and velocities are n × 3 (z = 0 in
    2D); ids are the creation ids, which stay with a particle when sinks remove others."""

    def __init__(self, directory):
        self.directory = _pathlib.Path(directory)
        if not self.directory.is_dir():
            raise FileNotFoundError(_errno.ENOENT, "No such run directory", str(directory))
        scene = self.directory / "scene.json"
        self.scene = _json.loads(scene.read_text()) if scene.exists() else {}
        pvd = self.directory / "particles.pvd"
        if pvd.exists():
            self._frames = [(t, str(self.directory / f)) for t, f in read_pvd(str(pvd))]
        else:
            rate = float(self.scene.get("time", {}).get("frame_rate", 0) or 0)
            found = []
            for f in (self.directory / "frames").glob("frame_*.ply"):
                m = _re.fullmatch(r"frame_(\d+)\.ply", f.name)
                if m:
                    k = int(m.group(1))
                    found.append((k / rate if rate > 0 else float(k), str(f)))
            self._frames = sorted(found)
        if not self._frames:
            raise ValueError(f"{directory}: no frames (neither particles.pvd nor frames/frame_*.ply)")
        import numpy as np

        self.times = np.array([t for t, _ in self._frames])
        self._stats = self._bodies = self._sensors = None

    def __len__(self):
        return len(self._frames)

    def __iter__(self):
        return (self.frame(k) for k in range(len(self)))

    def frame(self, k):
        """Frame k (0 is the first written; negative counts from the end)."""
        t, path = self._frames[k]
        f = read_frame(path)
        f["time"] = t
        return f

    def frame_at(self, time):
        """The frame whose time is nearest `time` (s)."""
        return self.frame(int(abs(self.times - time).argmin()))

    @staticmethod
    def _table(path):
        if not path.exists():
            return None
        import numpy as np

        with open(path, newline="") as f:
            rows = list(_csv.reader(f))
        if not rows:
            return {}
        columns = {}
        for k, name in enumerate(rows[0]):
            values = [r[k] if k < len(r) else "" for r in rows[1:]]
            try:
                columns[name] = np.array([float(v) for v in values])
            except ValueError:  # a text column (a body's name)
                columns[name] = np.array(values)
        return columns

    @property
    def stats(self):
        """stats.csv as {column: NumPy array} (one row per step), or None if the run has none."""
        if self._stats is None:
            self._stats = self._table(self.directory / "stats.csv")
        return self._stats

    @property
    def bodies(self):
        """bodies.csv as {column: NumPy array} (a row per frame and body), or None."""
        if self._bodies is None:
            self._bodies = self._table(self.directory / "bodies.csv")
        return self._bodies

    @property
    def sensors(self):
        """sensors.csv as {column: NumPy array}: time and each pressure sensor's reading (Pa),
        a row per 1/output.sensor_rate s; None if the scene had no sensors."""
        if self._sensors is None:
            self._sensors = self._table(self.directory / "sensors.csv")
        return self._sensors


def read_run(directory):
    """A finished run directory as a Run: frames by time as NumPy arrays, stats and bodies."""
    return Run(directory)


class UnstableError(RuntimeError):
    """The simulation went unstable: `step`, `time` (s), `particle` (creation id) and `reason`
    say where. The world keeps the state of the failed step for inspection."""

    step = 0
    time = 0.0
    particle = 0
    reason = ""


def scene_of(scene, **overrides):
    """A Scene from a Scene, a dict or a path, with dotted keys changed: the convenience of the
    examples (`seiche.scene_of("scenes/dam_break_2d.json", **{"solver.xsph": 0.02})`)."""
    if isinstance(scene, Scene):
        s = scene.copy()
    elif isinstance(scene, dict):
        s = Scene.from_dict(scene)
    else:
        s = load_scene(str(scene))
    for key, value in overrides.items():
        s.set(key, value)
    return s


__all__ = [
    "Scene",
    "SceneError",
    "SceneFileNotFoundError",
    "UnstableError",
    "World",
    "__version__",
    "load_scene",
    "mesh",
    "pair_loops",
    "read_frame",
    "read_pvd",
    "read_run",
    "Run",
    "render",
    "scene_of",
    "set_threads",
    "solvers",
    "threads",
]

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
    render,
    set_threads,
    solvers,
    threads,
)


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
    "render",
    "scene_of",
    "set_threads",
    "solvers",
    "threads",
]

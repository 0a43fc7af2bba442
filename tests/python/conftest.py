# The module under test is the build tree's (PYTHONPATH=BUILD/python, set by ctest); the seiche
# program beside it runs the same scenes for comparison.
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("SEICHE_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
BINARY = os.environ.get("SEICHE_BINARY", str(SOURCE / "build" / "seiche"))


@pytest.fixture
def source():
    return SOURCE


@pytest.fixture
def binary():
    return BINARY


def small_scene_2d(**changes):
    """A 0.2 m x 0.2 m column in a 0.6 m x 0.4 m tank, r = 5 mm: 400 particles, fast."""
    scene = {
        "name": "py_small_2d",
        "dimension": 2,
        "particle_radius": 0.005,
        "gravity": [0, -9.81],
        "container": {"min": [0, 0], "max": [0.6, 0.4]},
        "fluid": [{"min": [0, 0], "max": [0.2, 0.2]}],
        "solver": {"type": "pbf"},
        "time": {"end_time": 0.1, "frame_rate": 50},
    }
    scene.update(changes)
    return scene

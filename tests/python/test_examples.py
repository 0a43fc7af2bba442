# The examples of examples/python run (short, --quick) and write their plots and data.
import csv
import os
import subprocess
import sys

import pytest

from conftest import SOURCE

PNG = b"\x89PNG\r\n\x1a\n"


def run_example(name, out):
    env = dict(os.environ)
    subprocess.run([sys.executable, str(SOURCE / "examples" / "python" / name), "--quick",
                    "--out", str(out)], check=True, env=env, cwd=out.parent,
                   stdout=subprocess.PIPE, timeout=300)


def test_sweep_iterations_writes_its_plot_and_more_iterations_cost_more_and_err_less(tmp_path):
    out = tmp_path / "out"
    run_example("sweep_iterations.py", out)
    assert (out / "sweep_iterations.png").read_bytes()[:8] == PNG
    rows = {int(r["iterations"]): r for r in csv.DictReader(open(out / "sweep_iterations.csv"))}
    assert sorted(rows) == list(range(1, 9))
    assert float(rows[8]["density_error_mean_percent"]) < 0.5 * float(rows[2]["density_error_mean_percent"])


def test_custom_initial_velocity_writes_frames_and_its_plot(tmp_path):
    out = tmp_path / "out"
    run_example("custom_initial_velocity.py", out)
    assert (out / "custom_initial_velocity.png").read_bytes()[:8] == PNG
    run = out / "spinning_disc_2d"
    assert (run / "scene.json").exists() and (run / "particles.pvd").exists()
    assert len(list((run / "frames").glob("frame_*.ply"))) == 4  # t = 0, 1/30, 2/30, 3/30


def test_notebook_runs_as_a_script(tmp_path):
    out = tmp_path / "out"
    run_example("notebook_dam_break.py", out)
    assert (out / "notebook_dam_break.png").read_bytes()[:8] == PNG

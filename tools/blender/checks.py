"""What the `make blender-check` scripts share: the add-on loaded from beside them, the run
directory given after `--`, and the ok/FAIL lines with the exit status at the end."""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
run = os.path.abspath(sys.argv[sys.argv.index("--") + 1])
failures = []


def load_addon():
    """tools/blender/seiche_blender.py as a module (not installed)."""
    spec = importlib.util.spec_from_file_location("seiche_blender", os.path.join(here, "seiche_blender.py"))
    addon = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(addon)
    return addon


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def finish(name):
    """Prints the verdict and exits 1 when a check failed."""
    print(f"{name}: {len(failures)} failed" if failures else f"{name}: all passed")
    sys.exit(1 if failures else 0)

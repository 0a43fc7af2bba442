"""The Python module built by the project's CMake (target seiche_python), for pip:

    python3 -m venv --system-site-packages ~/.venvs/seiche
    ~/.venvs/seiche/bin/pip install --no-build-isolation .

CMAKE_ARGS in the environment is passed to CMake (e.g. CMAKE_ARGS=-DSEICHE_NATIVE=OFF for a
module that runs on other CPUs than the building one).
"""
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(seiche VERSION ([0-9.]+)",
                    (ROOT / "CMakeLists.txt").read_text()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DSEICHE_BUILD_TESTS=OFF", "-DSEICHE_PYTHON=ON",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "seiche_python", "-j",
                        str(os.cpu_count() or 1)], check=True)
        built = sorted((build / "python" / "seiche").glob("_seiche*.so"))
        if not built:
            sys.exit("seiche: the module was not built; the CMake messages above say why "
                     "(scripts/install-deps.sh installs pybind11-dev, python3-dev, python3-numpy)")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        # The VDB plugin (output.vdb), when OpenVDB was there: the module looks beside itself.
        for plugin in (build / "python" / "seiche").glob("libseiche_vdb.so"):
            shutil.copy2(plugin, target.parent / plugin.name)


setup(version=VERSION, ext_modules=[Extension("seiche._seiche", sources=[])],
      cmdclass={"build_ext": CMakeBuild})

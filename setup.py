"""Builds the Python package hdae for pip: the pure-Python modules of python/hdae and the
extension hdae._hdae, which CMake builds (target hdae_python, Release) in setuptools' build
directory; its version is the CMake project's. Needs what scripts/install-deps.sh --build
installs, and pybind11-dev and python3-dev."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(hdae VERSION ([0-9.]+)", text)
    if match is None:
        raise RuntimeError("CMakeLists.txt names no 'project(hdae VERSION x.y.z'")
    return match.group(1)


class CMakeBuild(build_ext):
    """Builds the extension with CMake instead of compiling sources itself."""

    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DHDAE_BUILD_PYTHON=ON", "-DHDAE_BUILD_TESTS=OFF",
                     "-DHDAE_BUILD_EXAMPLES=OFF", f"-DPython_EXECUTABLE={sys.executable}"]
        jobs = str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "hdae_python", "-j", jobs],
                       check=True)
        built = sorted((build / "python" / "hdae").glob("_hdae*.so"))
        if not built:
            raise RuntimeError(f"CMake built no extension _hdae*.so in {build / 'python/hdae'} "
                               "(pybind11-dev and python3-dev installed?)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=project_version(),
    packages=["hdae"],
    package_dir={"hdae": "python/hdae"},
    ext_modules=[Extension("hdae._hdae", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)

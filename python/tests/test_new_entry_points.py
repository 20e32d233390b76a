"""The binding's calls to gp_argsort, gp_sort_segments_offsets and
gp_sort_pairs_segments_offsets, before the library has them: a stand-in built over
the existing API (new_entry_points_shim.c, host memory) is loaded instead, and the
NumPy tests that use those paths run against it in a fresh interpreter."""
import os
import shutil
import subprocess
import sys

import pytest

import gpuprims
from gpuprims import _lib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


@pytest.mark.skipif(_lib.argsort is not None, reason="the library has gp_argsort itself")
def test_binding_against_stand_in(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    shim = str(tmp_path / "libgpuprims_shim.so")
    lib = os.path.realpath(_lib.path)
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-Wall", "-Wextra", "-Werror",
                    "-I", os.path.join(REPO, "include"),
                    os.path.join(HERE, "new_entry_points_shim.c"), lib,
                    "-Wl,-rpath," + os.path.dirname(lib), "-o", shim], check=True)
    pkg = os.path.dirname(os.path.dirname(os.path.abspath(gpuprims.__file__)))
    path = os.environ.get("PYTHONPATH")
    env = dict(os.environ, GPUPRIMS_LIBRARY=shim,
               PYTHONPATH=pkg + (os.pathsep + path if path else ""))
    code = ("import gpuprims._lib as L; assert L.argsort and L.sort_segments_offsets "
            "and L.sort_pairs_segments_offsets")
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        os.path.join(HERE, "test_numpy.py"), "-k",
                        "argsort or offsets or rows or pairs"],
                       env=env, cwd=HERE, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert " passed" in r.stdout and "skipped" not in r.stdout.splitlines()[-1]

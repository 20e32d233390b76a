#!/usr/bin/env bash
# CTest entry for the Python tests: pytest over python/tests with the package loading
# the libgpuprims.so CMake just built ($1). Exit 77 (skipped) without numpy or pytest.
set -u
lib=$1 repo=$2
py=${PYTHON:-python3}
if ! "$py" -c "import numpy, pytest" 2>/dev/null; then
  echo "python tests skipped: $py lacks numpy or pytest ($py -m pip install numpy pytest hypothesis)"
  exit 77
fi
export GPUPRIMS_LIBRARY=$lib
export PYTHONPATH=$repo/python${PYTHONPATH:+:$PYTHONPATH}
cd "$repo/python"
exec "$py" -m pytest -q -p no:cacheprovider --doctest-modules gpuprims tests

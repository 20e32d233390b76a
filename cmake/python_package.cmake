# The Python package's wheel (pyproject.toml, scikit-build-core, which sets SKBUILD):
# the shared library goes inside the package as gpuprims/libgpuprims.so, where
# python/gpuprims/_lib.py loads it. Only this component is installed into the wheel.
if(SKBUILD)
  install(FILES $<TARGET_FILE:gpuprims_shared> DESTINATION gpuprims
          RENAME libgpuprims.so COMPONENT python)
endif()

# CTest runs the Python package's pytest suite (python/tests) against the library this
# build made (GPUPRIMS_LIBRARY), so `ctest` covers the binding with no pip install.
# python/tests/ctest.sh exits 77 (skipped) when python3 lacks numpy or pytest. Not in a
# sanitizer build: an ASan library cannot be loaded into an uninstrumented python3.
if(GP_BUILD_TESTS AND NOT (GP_SANITIZE OR GP_FUZZ))
  add_test(NAME python_pytest
           COMMAND bash ${PROJECT_SOURCE_DIR}/python/tests/ctest.sh
                   $<TARGET_FILE:gpuprims_shared> ${PROJECT_SOURCE_DIR})
  set_tests_properties(python_pytest PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900)
endif()

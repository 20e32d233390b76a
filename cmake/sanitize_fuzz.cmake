# Sanitizers and fuzzing, off by default (issue 11; .ci/run turns them on for a host-only
# build). Included from CMakeLists.txt before any target, so the flags reach them all.
#   GP_SANITIZE=ON  compile and link the C/C++ code with -fsanitize=address,undefined
#                   (UBSan findings abort, so a test fails on them). Use with
#                   -DGP_WITH_CUDA=OFF: the CUDA runtime and ASan do not mix.
#   GP_FUZZ=ON      the libFuzzer targets in tests/fuzz/ (clang only; implies the
#                   sanitizers): CTest runs each for GP_FUZZ_SECONDS on its committed
#                   seed corpus plus what it finds (kept in the build folder);
#                   tests/fuzz/run.sh BUILD SECONDS is the longer run.
option(GP_SANITIZE "Build the host code with AddressSanitizer and UBSan" OFF)
option(GP_FUZZ "Build the libFuzzer targets in tests/fuzz (needs clang)" OFF)
set(GP_FUZZ_SECONDS 30 CACHE STRING "Seconds CTest runs each fuzz target")

if(GP_FUZZ AND NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(WARNING "gpuprims: GP_FUZZ needs clang as the C compiler (CC=clang); fuzz targets skipped")
  set(GP_FUZZ OFF)
endif()
if(GP_SANITIZE OR GP_FUZZ)
  set(GP_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${GP_SAN_FLAGS}>")
  add_link_options(-fsanitize=address,undefined)
endif()
if(GP_FUZZ)
  # coverage for the fuzzer in the library too; only the fuzz targets link its main
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=fuzzer-no-link>")
endif()

# Called after every test is added: the fuzz targets (one executable and one CTest
# test each), the sanitizer runtime in the installed package's link flags (so a
# consumer links), and the sanitizers' options for every test.
function(gp_sanitize_targets)
  if(NOT (GP_SANITIZE OR GP_FUZZ))
    return()
  endif()
  set(link -fsanitize=address,undefined)
  if(GP_FUZZ)
    list(APPEND link -fsanitize=fuzzer-no-link)
  endif()
  foreach(t gpuprims_static gpuprims_shared)
    target_link_options(${t} INTERFACE "$<INSTALL_INTERFACE:${link}>")
  endforeach()
  if(GP_FUZZ)
    gp_add_fuzz_targets()
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  # libomp keeps a few thread-team buffers to the end: not ours to free
  set_tests_properties(${tests} PROPERTIES ENVIRONMENT
    "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan.supp;UBSAN_OPTIONS=print_stacktrace=1")
endfunction()

function(gp_add_fuzz_targets)
  file(GLOB srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
  foreach(src ${srcs})
    get_filename_component(name ${src} NAME_WE)
    string(REPLACE "fuzz_" "" what ${name})
    add_executable(${name} ${src})
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src)
    target_compile_options(${name} PRIVATE ${GP_WARN_C})
    target_link_libraries(${name} PRIVATE gpuprims_static)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX)
    # new inputs go to the first folder (the build's), the seeds are only read
    set(found ${PROJECT_BINARY_DIR}/fuzz/${what})
    file(MAKE_DIRECTORY ${found})
    add_test(NAME ${name}
             COMMAND ${name} -max_total_time=${GP_FUZZ_SECONDS} -max_len=4096
                     -rss_limit_mb=2048 -timeout=10 -artifact_prefix=${PROJECT_BINARY_DIR}/fuzz/
                     ${found} ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/${what})
    set_tests_properties(${name} PROPERTIES TIMEOUT 600)
  endforeach()
endfunction()

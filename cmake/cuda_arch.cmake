# Which GPUs the CUDA backend is compiled for, and which toolkits build it. Included by
# CMakeLists.txt before enable_language(CUDA); gp_cuda_arch_choose() runs after it,
# when CMake has probed the machine for a GPU (CMAKE_CUDA_ARCHITECTURES_NATIVE).
#
# GP_CUDA_ARCHS (ignored when CMAKE_CUDA_ARCHITECTURES or $CUDAARCHS is given):
#   auto      this machine's GPU when it has one (CMake's "native"), else "portable"
#   portable  every GPU CUDA 13 runs: sm_75 80 86 89 90 100 120 machine code plus the
#             newest PTX, which later GPUs compile when they load it
#   dev       this machine's GPU when it has one, else sm_80 + sm_90: compiles both
#             sides of every sm_90 fallback in a third of portable's time (CI uses it)
set(GP_CUDA_ARCHS auto CACHE STRING "CUDA targets: auto, portable or dev (see cmake/cuda_arch.cmake)")
set_property(CACHE GP_CUDA_ARCHS PROPERTY STRINGS auto portable dev)
set(GP_CUDA_ARCHS_PORTABLE 75 80 86 89 90 100 120)
set(GP_CUDA_ARCHS_DEV 80 90)
# Oldest toolkit accepted: the code uses cudaLaunchKernelEx and cudaLibraryLoadData (12.0).
# Only 13.0 is tested; 12.x builds for the portable targets it knows.
set(GP_CUDA_MIN_VERSION 12.0)

set(GP_CUDA_ARCH_USER OFF)
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  set(GP_CUDA_ARCH_USER ON)
endif()

# Real code for each of `archs` that this nvcc can build, plus PTX of the newest of them.
function(gp_cuda_arch_list out)
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code
                  OUTPUT_VARIABLE codes RESULT_VARIABLE rc ERROR_QUIET)
  set(list)
  set(newest)
  foreach(a ${ARGN})
    if(rc EQUAL 0 AND NOT codes MATCHES "sm_${a}\n")
      message(STATUS "gpuprims: nvcc ${CMAKE_CUDA_COMPILER_VERSION} cannot build sm_${a}: left out")
      continue()
    endif()
    list(APPEND list ${a}-real)
    set(newest ${a})
  endforeach()
  if(newest)
    list(APPEND list ${newest}-virtual)
  endif()
  set(${out} "${list}" PARENT_SCOPE)
endfunction()

function(gp_cuda_arch_choose)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS GP_CUDA_MIN_VERSION)
    message(FATAL_ERROR "gpuprims needs CUDA ${GP_CUDA_MIN_VERSION} or newer (13.0 is tested); "
            "found nvcc ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}). Install a newer "
            "toolkit, point CMAKE_CUDA_COMPILER at one, or build the CPU backend alone "
            "with -DGP_WITH_CUDA=OFF.")
  endif()
  if(GP_CUDA_ARCH_USER)
    set(why "as given")
  elseif(NOT GP_CUDA_ARCHS MATCHES "^(auto|portable|dev)$")
    message(FATAL_ERROR "GP_CUDA_ARCHS=${GP_CUDA_ARCHS}: use auto, portable or dev, or give "
            "CMAKE_CUDA_ARCHITECTURES yourself")
  elseif(CMAKE_CUDA_ARCHITECTURES_NATIVE AND NOT GP_CUDA_ARCHS STREQUAL "portable")
    set(CMAKE_CUDA_ARCHITECTURES native PARENT_SCOPE)
    set(why "native: this machine's GPU (${CMAKE_CUDA_ARCHITECTURES_NATIVE}); -DGP_CUDA_ARCHS=portable builds for every GPU")
  elseif(GP_CUDA_ARCHS STREQUAL "dev")
    gp_cuda_arch_list(archs ${GP_CUDA_ARCHS_DEV})
    set(CMAKE_CUDA_ARCHITECTURES "${archs}" PARENT_SCOPE)
    set(why "dev: no GPU found here, so sm_80 and sm_90 to compile both sides of every fallback")
  else()
    gp_cuda_arch_list(archs ${GP_CUDA_ARCHS_PORTABLE})
    set(CMAKE_CUDA_ARCHITECTURES "${archs}" PARENT_SCOPE)
    if(GP_CUDA_ARCHS STREQUAL "portable")
      set(why "portable: every GPU this toolkit supports")
    else()
      set(why "portable: no GPU found at configure time, so every GPU this toolkit supports")
    endif()
  endif()
  set(GP_CUDA_ARCH_WHY "${why}" PARENT_SCOPE)
endfunction()

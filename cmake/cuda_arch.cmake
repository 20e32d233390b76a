# Which GPUs the CUDA backend is compiled for, and which toolkits build it. Included by
# CMakeLists.txt before enable_language(CUDA); gp_cuda_arch_choose() runs after it,
# when CMake has probed the machine for a GPU (CMAKE_CUDA_ARCHITECTURES_NATIVE; where a
# CMake version does not, nvidia-smi answers).
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

# The compute capabilities of this machine's GPUs as "90-real;...", or "" where it has
# none: CMake's own probe where this CMake version ran it, else nvidia-smi.
function(gp_cuda_arch_native out)
  set(native "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  if(NOT native)
    find_program(GP_NVIDIA_SMI nvidia-smi)
    if(GP_NVIDIA_SMI)
      execute_process(COMMAND ${GP_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                      OUTPUT_VARIABLE caps RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0)
        string(REGEX MATCHALL "[0-9]+\\.[0-9]+" caps "${caps}")
        foreach(c ${caps})
          string(REPLACE "." "" c "${c}")
          list(APPEND native ${c}-real)
        endforeach()
      endif()
    endif()
  endif()
  # a GPU newer than this nvcc knows takes the portable list, whose PTX it can compile
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --list-gpu-code OUTPUT_VARIABLE codes ERROR_QUIET)
  set(known)
  foreach(a ${native})
    string(REPLACE "-real" "" n "${a}")
    if(codes MATCHES "sm_${n}\n")
      list(APPEND known ${a})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES known)
  set(${out} "${known}" PARENT_SCOPE)
endfunction()

function(gp_cuda_arch_choose)
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS GP_CUDA_MIN_VERSION)
    message(FATAL_ERROR "gpuprims needs CUDA ${GP_CUDA_MIN_VERSION} or newer (13.0 is tested); "
            "found nvcc ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}). Install a newer "
            "toolkit, point CMAKE_CUDA_COMPILER at one, or build the CPU backend alone "
            "with -DGP_WITH_CUDA=OFF.")
  endif()
  if(GP_CUDA_ARCH_USER)
    set(GP_CUDA_ARCH_WHY "as given" PARENT_SCOPE)
    return()
  endif()
  if(NOT GP_CUDA_ARCHS MATCHES "^(auto|portable|dev)$")
    message(FATAL_ERROR "GP_CUDA_ARCHS=${GP_CUDA_ARCHS}: use auto, portable or dev, or give "
            "CMAKE_CUDA_ARCHITECTURES yourself")
  endif()
  set(native)
  if(NOT GP_CUDA_ARCHS STREQUAL "portable")
    gp_cuda_arch_native(native)
  endif()
  if(native)
    set(archs "${native}")
    set(why "native: this machine's GPU; -DGP_CUDA_ARCHS=portable builds for every GPU")
  elseif(GP_CUDA_ARCHS STREQUAL "dev")
    gp_cuda_arch_list(archs ${GP_CUDA_ARCHS_DEV})
    set(why "dev: no GPU found here, so sm_80 and sm_90 to compile both sides of every fallback")
  elseif(GP_CUDA_ARCHS STREQUAL "portable")
    gp_cuda_arch_list(archs ${GP_CUDA_ARCHS_PORTABLE})
    set(why "portable: every GPU this toolkit supports")
  else()
    gp_cuda_arch_list(archs ${GP_CUDA_ARCHS_PORTABLE})
    set(why "portable: no GPU found at configure time, so every GPU this toolkit supports")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${archs}" PARENT_SCOPE)
  set(GP_CUDA_ARCH_WHY "${why}" PARENT_SCOPE)
endfunction()

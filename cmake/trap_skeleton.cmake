# The integrate kernel without its expression (src/cuda/integrate/trap_skeleton.cu),
# compiled at build time with -rdc to a relocatable CUBIN for each real GPU target of the
# build and embedded in the library (generated/gp_trap_skeleton_fatbin.h), so that a new
# expression costs NVRTC only its own part, which nvJitLink links to this
# (src/cuda/integrate/jit_split.c; docs/perf/host.md). Sets GP_TRAP_SKELETON_HEADER and
# GP_TRAP_SKELETON_ARCHS ("sm_80 sm_90"), or leaves them empty where the targets name no real architecture (the whole kernel is then
# compiled per expression, as before).
set(GP_TRAP_SKELETON_HEADER "")
set(GP_TRAP_SKELETON_ARCHS "")
set(gp_skel_gencode)
set(gp_skel_archs)
foreach(a ${CMAKE_CUDA_ARCHITECTURES})
  if(a MATCHES "^([0-9]+[a-z]?)(-real|-virtual)?$" AND NOT CMAKE_MATCH_2 STREQUAL "-virtual")
    list(APPEND gp_skel_gencode -gencode arch=compute_${CMAKE_MATCH_1},code=sm_${CMAKE_MATCH_1})
    list(APPEND gp_skel_archs sm_${CMAKE_MATCH_1})
  endif()
endforeach()
if(gp_skel_gencode)
  set(gp_skel_dir ${PROJECT_BINARY_DIR}/generated)
  set(GP_TRAP_SKELETON_HEADER ${gp_skel_dir}/gp_trap_skeleton_fatbin.h)
  set(gp_skel_src ${PROJECT_SOURCE_DIR}/src/cuda/integrate/trap_skeleton.cu)
  # the options that matter for bits are NVRTC's (jit.c): no contraction, IEEE division
  # and square root (nvcc's defaults), denormals kept (the default)
  add_custom_command(
    OUTPUT ${GP_TRAP_SKELETON_HEADER}
    COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -rdc=true --fmad=false --prec-div=true
            --prec-sqrt=true --ftz=false -std=c++17 ${gp_skel_gencode}
            -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
            ${gp_skel_src} -o ${gp_skel_dir}/trap_skeleton.fatbin
    COMMAND ${CMAKE_COMMAND} -DIN=${gp_skel_dir}/trap_skeleton.fatbin
            -DOUT=${GP_TRAP_SKELETON_HEADER} -DNAME=gp_trap_skeleton_fatbin
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    DEPENDS ${gp_skel_src} ${PROJECT_SOURCE_DIR}/src/cuda/integrate/trap_kernel.cuh
            ${PROJECT_SOURCE_DIR}/src/cuda/common/warp_reduce.cuh
            ${PROJECT_SOURCE_DIR}/src/core/integrate.h ${PROJECT_SOURCE_DIR}/cmake/embed_file.cmake
    COMMENT "Compiling the prebuilt integrate kernel (-rdc; ${gp_skel_archs})"
    VERBATIM)
  string(REPLACE ";" " " GP_TRAP_SKELETON_ARCHS "${gp_skel_archs}")
  message(STATUS "gpuprims: integrate kernel prebuilt for ${GP_TRAP_SKELETON_ARCHS} (split JIT)")
else()
  message(STATUS "gpuprims: no real GPU target to prebuild the integrate kernel for: "
                 "each expression compiles the whole kernel")
endif()

# Installs a CMake package (find_package(gpuprims) gives gpuprims::gpuprims and
# gpuprims::gpuprims_shared) and a pkg-config file (gpuprims.pc).
include(CMakePackageConfigHelpers)
set(GP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gpuprims)
install(EXPORT gpuprimsTargets NAMESPACE gpuprims:: DESTINATION ${GP_CMAKE_DIR})
set_target_properties(gpuprims_static PROPERTIES EXPORT_NAME gpuprims)
set_target_properties(gpuprims_shared PROPERTIES EXPORT_NAME gpuprims_shared)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpuprimsConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/gpuprimsConfig.cmake INSTALL_DESTINATION ${GP_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/gpuprimsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpuprimsConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/gpuprimsConfigVersion.cmake
        DESTINATION ${GP_CMAKE_DIR})

set(GP_PC_LIBS_PRIVATE "-lm -lpthread")
if(OpenMP_C_FOUND)
  string(APPEND GP_PC_LIBS_PRIVATE " ${OpenMP_C_FLAGS}")
endif()
if(GP_HAVE_CUDA)
  string(APPEND GP_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lnvrtc -ldl -lrt -lstdc++")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/gpuprims.pc.in ${CMAKE_CURRENT_BINARY_DIR}/gpuprims.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/gpuprims.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

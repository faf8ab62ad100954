# What a Debian user expects of an installed tool, and the packages themselves (docs/cli.md,
# "Install"): the man page clbench(1) made from this build's --help, the bash completion, the
# copyright and changelog, and CPack's three .deb files: clbench (the tool, the CUDA module when
# built), libclbench0 (the shared library) and libclbench-dev (the static library, the header,
# pkg-config and CMake files, the examples). Build them from a tree configured with
# -DCMAKE_INSTALL_PREFIX=/usr (run.sh does), so the libdir is Debian's multiarch one.

set(CLBENCH_MAN ${CMAKE_BINARY_DIR}/clbench.1)
add_custom_command(OUTPUT ${CLBENCH_MAN} ${CLBENCH_MAN}.gz
  COMMAND ${CMAKE_COMMAND} -DCLBENCH=$<TARGET_FILE:clbench> -DIN=${CMAKE_SOURCE_DIR}/packaging/clbench.1.in
          -DOUT=${CLBENCH_MAN} -DVERSION=${PROJECT_VERSION} -P ${CMAKE_SOURCE_DIR}/cmake/ManPage.cmake
  COMMAND gzip -9nfk ${CLBENCH_MAN}
  DEPENDS clbench ${CMAKE_SOURCE_DIR}/packaging/clbench.1.in ${CMAKE_SOURCE_DIR}/cmake/ManPage.cmake
  COMMENT "Writing the man page clbench(1) from clbench --help"
  VERBATIM)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/changelog.gz
  COMMAND gzip -9nc ${CMAKE_SOURCE_DIR}/packaging/changelog > ${CMAKE_BINARY_DIR}/changelog.gz
  DEPENDS ${CMAKE_SOURCE_DIR}/packaging/changelog)
add_custom_target(clbench_man ALL DEPENDS ${CLBENCH_MAN}.gz ${CMAKE_BINARY_DIR}/changelog.gz)

install(FILES ${CLBENCH_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tool)
install(FILES packaging/clbench.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME clbench COMPONENT tool)
foreach(comp_pkg tool:clbench lib:libclbench0 dev:libclbench-dev)
  string(REPLACE ":" ";" cp ${comp_pkg})
  list(GET cp 0 comp)
  list(GET cp 1 pkg)
  install(FILES packaging/copyright ${CMAKE_BINARY_DIR}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg} COMPONENT ${comp})
endforeach()
if(CLBENCH_CUDA_BUILD) # the CUDA module sits beside clbench, where it is looked for first
  install(FILES packaging/clbench.lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          RENAME clbench COMPONENT tool)
endif()
install(FILES packaging/libclbench0/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
        RENAME libclbench0 COMPONENT lib)
install(FILES examples/CMakeLists.txt examples/pick_device.c examples/decide.c
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/libclbench-dev/examples COMPONENT dev)

set(CLBENCH_DEB_MAINTAINER "clbench maintainers <maintainers@users.noreply.a-seed-c2b44004.example>" CACHE STRING
    "Maintainer field of the Debian packages")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clbench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${CLBENCH_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL tool lib dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)   # clbench_VERSION_amd64.deb, libclbench-dev_VERSION_amd64.deb
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# dpkg-shlibdeps adds what the binaries link beyond the named Depends (libmpi with CLBENCH_MPI)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "")
set(CPACK_DEBIAN_TOOL_PACKAGE_NAME clbench)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS "libcjson1, ocl-icd-libopencl1 | libopencl1, libsqlite3-0, libssl3, zlib1g")
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, libclblast1")
set(CPACK_COMPONENT_TOOL_DESCRIPTION "OpenCL device characterization and benchmark suite
clbench lists OpenCL devices, characterizes them (memory bandwidth and
latency, compute peaks, launch and transfer costs), runs application
benchmarks and a scored suite, and compares and reports the results. Every
number printed was measured and its kernel's output verified; each benchmark
group runs in a worker process.")
set(CPACK_DEBIAN_LIB_PACKAGE_NAME libclbench0)
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_DEPENDS "libcjson1, ocl-icd-libopencl1 | libopencl1, libsqlite3-0, libssl3, zlib1g")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON) # the shlibs file of libclbench0
# ldconfig through Debian's trigger, not CPack's postinst and postrm calls (lintian)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/packaging/libclbench0/triggers
    ${CMAKE_SOURCE_DIR}/packaging/libclbench0/postinst ${CMAKE_SOURCE_DIR}/packaging/libclbench0/postrm)
set(CPACK_COMPONENT_LIB_DESCRIPTION "OpenCL benchmark library
libclbench, the library under clbench: device inventory and selection, the
benchmark registry and runner, results as JSON.")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libclbench-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
    "libclbench0 (= ${PROJECT_VERSION}), libcjson-dev, ocl-icd-opencl-dev | opencl-dev, libsqlite3-dev, libssl-dev, zlib1g-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION "OpenCL benchmark library (development files)
libclbench, the library under clbench: device inventory and selection, the
benchmark registry and runner, results as JSON. This package holds the static
library, the header, the pkg-config and CMake package files and examples.")
include(CPack)

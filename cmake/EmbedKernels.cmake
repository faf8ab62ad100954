# clbench_embed_kernels(OUT file1.cl file2.cl ...)
# Writes OUT, a C file holding each kernel's source as a byte array and a name table, using
# CMake alone (no xxd). The generation reruns whenever a kernel changes.
function(clbench_embed_kernels out)
  set(kernels ${ARGN})
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DKERNELS=${kernels}"
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedKernelsScript.cmake
    DEPENDS ${kernels} ${CMAKE_SOURCE_DIR}/cmake/EmbedKernelsScript.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()

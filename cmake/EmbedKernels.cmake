# clbench_embed_kernels(OUT file1.cl file2.cl ...)
# Writes OUT, a C file holding each kernel's source as a byte array and a name table, using
# CMake alone (no xxd). The generation reruns whenever a kernel changes.
function(clbench_embed_kernels out)
  set(kernels ${ARGN})
  # the files a kernel includes (EmbedKernelsScript.cmake pastes them in) are dependencies too
  set(included "")
  foreach(k ${kernels})
    file(STRINGS ${k} incs REGEX "^#include \"[^\"]+\"")
    get_filename_component(dir ${k} DIRECTORY)
    foreach(inc ${incs})
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" f "${inc}")
      list(APPEND included ${dir}/${f})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${k})
    endforeach()
  endforeach()
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} "-DKERNELS=${kernels}"
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedKernelsScript.cmake
    DEPENDS ${kernels} ${included} ${CMAKE_SOURCE_DIR}/cmake/EmbedKernelsScript.cmake
    COMMENT "Embedding OpenCL kernels"
    VERBATIM)
endfunction()

# clbench_check_unique_kernel_names(file1.cl ...): kernels are looked up by file name, so two
# files of the same name in different folders would shadow each other; refuse at configure time.
function(clbench_check_unique_kernel_names)
  set(seen "")
  foreach(k ${ARGN})
    get_filename_component(n ${k} NAME_WE)
    if(n IN_LIST seen)
      message(FATAL_ERROR "two OpenCL kernels named ${n}.cl; kernel file names must be unique (${k})")
    endif()
    list(APPEND seen ${n})
  endforeach()
endfunction()

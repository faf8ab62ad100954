# Script mode: -DCLBENCH=path/to/clbench -DIN=clbench.1.in -DOUT=clbench.1 -DVERSION=x.y.z
# The man page's OPTIONS are `clbench --help` of this build, escaped for roff, so the page can
# never say other than the tool (tests/pkg_man.sh checks it).
set(ENV{ASAN_OPTIONS} "detect_leaks=0") # a sanitized build writes its page too
execute_process(COMMAND ${CLBENCH} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLBENCH} --help failed (${rc})")
endif()
string(REPLACE "\\" "\\e" help "${help}")
string(REPLACE "-" "\\-" help "${help}")
string(REGEX REPLACE "\n$" "" help "${help}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
file(READ ${IN} page)
string(REPLACE "@HELP@" "${help}" page "${page}")
string(REPLACE "@VERSION@" "${VERSION}" page "${page}")
file(WRITE ${OUT} "${page}")

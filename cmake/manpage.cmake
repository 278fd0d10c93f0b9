# manpage.cmake -- writes sonde.1 from host/share/sonde.1.in, its COMMANDS
# section made from the program's own help (`sonde --help` lists the
# commands, `sonde help COMMAND` describes each), so the page cannot drift
# from the tool.  Run after the build (cmake -P):
#
#   -DSONDE=<sonde binary> -DIN=<sonde.1.in> -DOUT=<sonde.1>
#   -DVERSION=<x.y.z> -DDATADIR=<installed datadir> -DINCLUDEDIR=<installed includedir>
#   -DDOCDIR=<installed docdir: README.md and docs/*.md>

cmake_minimum_required(VERSION 3.25) # the policies of the project

# Text as roff, inside .nf/.fi: backslashes and minus signs escaped, a line
# starting with a control character protected.
function(roff_text in out)
  string(REPLACE "\\" "\\e" t "${in}")
  string(REPLACE "-" "\\-" t "${t}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" t "${t}")
  set(${out} "${t}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND "${SONDE}" --help OUTPUT_VARIABLE _main RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "manpage: '${SONDE} --help' failed")
endif()
# the commands: the lines of the "commands:" block
string(REGEX MATCH "commands:\n(([^\n]+\n)+)" _block "${_main}")
string(REGEX MATCHALL "\n  [a-z]+ " _names "\n${CMAKE_MATCH_1}")
set(_sections "")
foreach(_n IN LISTS _names)
  string(STRIP "${_n}" _cmd)
  if(_cmd STREQUAL "help")
    continue()
  endif()
  execute_process(COMMAND "${SONDE}" help ${_cmd} OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "manpage: '${SONDE} help ${_cmd}' failed")
  endif()
  roff_text("${_help}" _help)
  string(APPEND _sections ".SS \"sonde ${_cmd}\"\n.nf\n${_help}.fi\n")
endforeach()
if(_sections STREQUAL "")
  message(FATAL_ERROR "manpage: no commands found in '${SONDE} --help'")
endif()
file(READ "${IN}" _page)
string(REPLACE "@COMMANDS@\n" "${_sections}" _page "${_page}")
string(REPLACE "@VERSION@" "${VERSION}" _page "${_page}")
string(REPLACE "@DATADIR@" "${DATADIR}" _page "${_page}")
string(REPLACE "@INCLUDEDIR@" "${INCLUDEDIR}" _page "${_page}")
string(REPLACE "@DOCDIR@" "${DOCDIR}" _page "${_page}")
file(WRITE "${OUT}" "${_page}")

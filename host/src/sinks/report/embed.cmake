# embed.cmake -- turns the report page's files into C strings at build time
# (cmake -P, from host/src/sinks/deps.cmake):
#   -DOUT=report_assets.c -DTEMPLATE=report.html -DCSS=report.css -DJS="a.js;b.js"
# Each becomes a char array of its bytes, so no quoting rule of C can bite.
function(embed_var out name)
  set(_all "")
  foreach(_f IN LISTS ARGN)
    file(READ ${_f} _hex HEX)
    string(APPEND _all "${_hex}")
  endforeach()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _c "${_all}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" _c "${_c}")
  file(APPEND ${out} "const char ${name}[] = {\n${_c}0x00 };\n")
endfunction()
file(WRITE ${OUT} "/* GENERATED from host/src/sinks/report/ by embed.cmake: do not edit. */\n")
embed_var(${OUT} sonde_report_template ${TEMPLATE})
embed_var(${OUT} sonde_report_css ${CSS})
embed_var(${OUT} sonde_report_js ${JS})

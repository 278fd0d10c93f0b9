# deps.cmake -- build dependencies of the export sinks in src/sinks/
# (included by host/CMakeLists.txt before the sonde_host library is defined).
#
# The perfetto sink packs its TracePackets with protobuf-c: the C code is
# generated at build time from perfetto_trace.proto by protoc-c, compiled into
# sonde_host, and libprotobuf-c is linked through pkg-config.  An interface
# target carries the generated header's directory to sonde_host and, through
# it, to the unit tests (which unpack traces with the same generated code).
find_program(SONDE_PROTOC_C NAMES protoc-c REQUIRED)
pkg_check_modules(PROTOBUFC REQUIRED IMPORTED_TARGET libprotobuf-c)

set(_pf_proto ${CMAKE_CURRENT_LIST_DIR}/perfetto_trace.proto)
set(_pf_gen ${CMAKE_CURRENT_BINARY_DIR}/sinks_gen)
file(MAKE_DIRECTORY ${_pf_gen})
add_custom_command(
  OUTPUT ${_pf_gen}/perfetto_trace.pb-c.c ${_pf_gen}/perfetto_trace.pb-c.h
  COMMAND ${SONDE_PROTOC_C} --c_out=${_pf_gen} --proto_path=${CMAKE_CURRENT_LIST_DIR} ${_pf_proto}
  DEPENDS ${_pf_proto}
  COMMENT "protoc-c perfetto_trace.proto"
  VERBATIM)
list(APPEND SONDE_HOST_SRC ${_pf_gen}/perfetto_trace.pb-c.c)

add_library(sonde_perfetto_pb INTERFACE)
target_include_directories(sonde_perfetto_pb INTERFACE ${_pf_gen})
target_link_libraries(sonde_perfetto_pb INTERFACE PkgConfig::PROTOBUFC)
list(APPEND SONDE_HOST_LIBS sonde_perfetto_pb)

# The profile sinks (elf_symbols.c) read function symbols with elfutils'
# libelf.  Added here because this is the one deps file of src/sinks/; its
# owner is the profile sink's author.
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
list(APPEND SONDE_HOST_LIBS PkgConfig::LIBELF)

# The HTML report (sink_html.c): its page is made of real files in report/,
# embedded as C strings at build time by report/embed.cmake.
set(_rp_dir ${CMAKE_CURRENT_LIST_DIR}/report)
file(GLOB _rp_js CONFIGURE_DEPENDS ${_rp_dir}/*.js)
list(SORT _rp_js)
set(_rp_out ${CMAKE_CURRENT_BINARY_DIR}/sinks_gen/report_assets.c)
add_custom_command(
  OUTPUT ${_rp_out}
  COMMAND ${CMAKE_COMMAND} -DOUT=${_rp_out} -DTEMPLATE=${_rp_dir}/report.html -DCSS=${_rp_dir}/report.css
          "-DJS=${_rp_js}" -P ${_rp_dir}/embed.cmake
  DEPENDS ${_rp_dir}/embed.cmake ${_rp_dir}/report.html ${_rp_dir}/report.css ${_rp_js}
  COMMENT "embedding the report page"
  VERBATIM)
list(APPEND SONDE_HOST_SRC ${_rp_out})

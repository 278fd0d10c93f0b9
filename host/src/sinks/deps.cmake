# deps.cmake -- build dependencies of the export sinks in src/sinks/
# (included by host/CMakeLists.txt before the layers' libraries are defined).
#
# The perfetto sink writes its protobuf by hand (perfetto_writer.c says why);
# perfetto_trace.proto defines the format.  The tests decode the sink's
# output with C code that protoc-c generates from that file at build time,
# in a library of their own (sonde_perfetto_pb, linked by tests/ and by the
# fuzzers in tests/fuzz/), so the tool itself does not link libprotobuf-c.
if(SONDE_BUILD_TESTS OR SONDE_FUZZ)
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
  add_library(sonde_perfetto_pb STATIC EXCLUDE_FROM_ALL ${_pf_gen}/perfetto_trace.pb-c.c)
  target_include_directories(sonde_perfetto_pb PUBLIC ${_pf_gen})
  target_link_libraries(sonde_perfetto_pb PUBLIC PkgConfig::PROTOBUFC)
endif()

# The HTML report (sink_html.c): its page is made of real files in report/,
# embedded as C strings at build time by report/embed.cmake.
set(_rp_dir ${CMAKE_CURRENT_LIST_DIR}/report)
file(GLOB _rp_js CONFIGURE_DEPENDS ${_rp_dir}/*.js)
list(SORT _rp_js)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/sinks_gen)
set(_rp_out ${CMAKE_CURRENT_BINARY_DIR}/sinks_gen/report_assets.c)
add_custom_command(
  OUTPUT ${_rp_out}
  COMMAND ${CMAKE_COMMAND} -DOUT=${_rp_out} -DTEMPLATE=${_rp_dir}/report.html -DCSS=${_rp_dir}/report.css
          "-DJS=${_rp_js}" -P ${_rp_dir}/embed.cmake
  DEPENDS ${_rp_dir}/embed.cmake ${_rp_dir}/report.html ${_rp_dir}/report.css ${_rp_js}
  COMMENT "embedding the report page"
  VERBATIM)
list(APPEND SONDE_HOST_SRC ${_rp_out})

# The SQLite export (sink_sqlite.c, sqlite_*.c) writes through libsqlite3.
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
list(APPEND SONDE_HOST_LIBS PkgConfig::SQLITE3)

# deps.cmake -- build dependencies of src/cli/ (included by host/CMakeLists.txt
# before the layers' libraries are defined).
#
# `sonde live --serve` (live_serve.c) serves the report page over HTTP with
# libmicrohttpd (Debian: libmicrohttpd-dev), which runs the server in a
# thread of its own: the shared state is guarded by a pthread mutex.
pkg_check_modules(SONDE_MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
find_package(Threads REQUIRED)
list(APPEND SONDE_HOST_LIBS PkgConfig::SONDE_MHD Threads::Threads)

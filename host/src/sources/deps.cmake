# deps.cmake -- build dependencies of the links in src/sources/ (included by
# host/CMakeLists.txt before the layers' libraries are defined).
#
# Serial ports go through libserialport (Debian: libserialport-dev): it knows
# every platform's way to set arbitrary baud rates, which termios alone does
# not.
pkg_check_modules(SONDE_SERIALPORT REQUIRED IMPORTED_TARGET libserialport)
list(APPEND SONDE_HOST_LIBS PkgConfig::SONDE_SERIALPORT)

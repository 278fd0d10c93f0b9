# util/elf_symbols.c reads function symbols with elfutils' libelf
# (Debian: libelf-dev).
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)
list(APPEND SONDE_HOST_LIBS PkgConfig::LIBELF)

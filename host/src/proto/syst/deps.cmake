# The SyS-T decoder reads collateral XML with expat (Debian: libexpat1-dev).
pkg_check_modules(SONDE_SYST_EXPAT REQUIRED IMPORTED_TARGET expat)
list(APPEND SONDE_HOST_LIBS PkgConfig::SONDE_SYST_EXPAT)
include_directories(${SONDE_SYST_EXPAT_INCLUDE_DIRS})

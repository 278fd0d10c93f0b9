# install.cmake -- what `cmake --install` (and `make install PREFIX=...`)
# puts where (included by the top-level CMakeLists.txt):
#
#   bin/sonde                                  the host tool
#   share/man/man1/sonde.1                     its manual page (host/share/sonde.1.in)
#   share/bash-completion/completions/sonde    bash completion
#   share/zsh/site-functions/_sonde            zsh completion (SONDE_ZSH_COMPLETION_DIR)
#   share/doc/sonde/                           README.md and docs/*.md, which the manual
#                                              page points to
#   include/sonde/*.h                          the target library's headers
#   share/sonde/target/                        its sources, ports, miniprof/, rtos/,
#                                              sources.mk and CMakeLists.txt; include -> the headers
#   share/cmake/Sonde/                         find_package(Sonde) -> sonde::target
#   share/pkgconfig/sonde.pc                   pkg-config sonde
#
# The target library is installed as sources: a firmware builds it with its
# own cross compiler and configuration.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SONDE_ZSH_COMPLETION_DIR "${CMAKE_INSTALL_DATADIR}/zsh/site-functions"
    CACHE STRING "where the zsh completion goes (Debian: share/zsh/vendor-completions)")

if(SONDE_BUILD_HOST)
  install(TARGETS sonde RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_BINARY_DIR}/host/sonde.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${PROJECT_SOURCE_DIR}/host/share/sonde.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME sonde)
  install(FILES ${PROJECT_SOURCE_DIR}/host/share/_sonde DESTINATION ${SONDE_ZSH_COMPLETION_DIR})
  file(GLOB _sonde_docs ${PROJECT_SOURCE_DIR}/docs/*.md)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${_sonde_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

set(_sonde_target_dir ${CMAKE_INSTALL_DATADIR}/sonde/target)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/target/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sonde)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/target/src ${PROJECT_SOURCE_DIR}/target/ports
                  ${PROJECT_SOURCE_DIR}/target/miniprof ${PROJECT_SOURCE_DIR}/target/rtos
        DESTINATION ${_sonde_target_dir})
install(FILES ${PROJECT_SOURCE_DIR}/target/CMakeLists.txt ${PROJECT_SOURCE_DIR}/target/sources.mk
        DESTINATION ${_sonde_target_dir})
# the sources find their headers where a source tree has them: target/include
file(RELATIVE_PATH _sonde_inc_link "${CMAKE_INSTALL_PREFIX}/${_sonde_target_dir}"
     "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}/sonde")
install(CODE "
  set(_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${_sonde_target_dir}\")
  file(REMOVE \"\${_dir}/include\")
  file(CREATE_LINK \"${_sonde_inc_link}\" \"\${_dir}/include\" SYMBOLIC)
  message(STATUS \"Installing: \${_dir}/include -> ${_sonde_inc_link}\")")

configure_file(${PROJECT_SOURCE_DIR}/cmake/SondeConfig.cmake.in
               ${PROJECT_BINARY_DIR}/SondeConfig.cmake @ONLY)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/SondeConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/SondeConfig.cmake ${PROJECT_BINARY_DIR}/SondeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/Sonde)

file(RELATIVE_PATH SONDE_PC_UP "${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
set(SONDE_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
set(SONDE_PC_TARGETDIR "\${prefix}/${_sonde_target_dir}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/sonde.pc.in ${PROJECT_BINARY_DIR}/sonde.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/sonde.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

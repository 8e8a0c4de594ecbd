# What `cmake --install` puts where, and the Debian package made of it (CPack's DEB generator;
# scripts/package.sh; docs/guide/install.md). The installed program finds its data beside itself
# (<prefix>/bin/../share/diskref: cli/data_dir.h), so the layout under share/diskref mirrors the
# source tree's: a sample game names its rules as ../../data/rules.
include(GNUInstallDirs)
# Installing (and so packaging) takes what is built and builds nothing: scripts/package.sh builds the
# program and its man pages first, without the ~50 test programs that `all` would add.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

set(DISKREF_MAINTAINER "The diskref developers <diskref@example.org>" CACHE STRING
    "The package's maintainer (name <address>): whoever builds and hands out the .deb")

# The program and its data: the rules, the example scenes and scripts, the sample games a user tries
# first, and the example photo of a dispute that `diskref photo` and `diskref serve` are tried on
# (the pages of the live feed and the hall are compiled into the program).
install(TARGETS diskref RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY data/rules data/scenes data/scripts DESTINATION ${CMAKE_INSTALL_DATADIR}/diskref/data)
install(DIRECTORY sample_videos/skirmish sample_videos/drops sample_videos/duel
        DESTINATION ${CMAKE_INSTALL_DATADIR}/diskref/sample_videos)
install(DIRECTORY sample_photos/dispute DESTINATION ${CMAKE_INSTALL_DATADIR}/diskref/sample_photos)

# Documentation: the README, the docs (guide, reference, design notes, figures, pictures), the
# licence as Debian wants it (copyright) and the changelog, compressed as Debian policy says.
set(doc_dir ${CMAKE_INSTALL_DATADIR}/doc/diskref)
install(FILES README.md LICENSE CONTRIBUTING.md DESTINATION ${doc_dir})
install(FILES packaging/copyright DESTINATION ${doc_dir})
install(DIRECTORY docs/ DESTINATION ${doc_dir}/docs)

# Man pages and bash completion, written by the program itself from its command line
# (cli/command_docs.h), then compressed (gzip -n: no time stamp, so the same build gives the same
# bytes).
set(generated_docs ${PROJECT_BINARY_DIR}/installed-docs)
add_custom_command(
  OUTPUT ${generated_docs}/stamp
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${generated_docs}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${generated_docs}/man1
  COMMAND $<TARGET_FILE:diskref> --write-man-pages ${generated_docs}/man1
  COMMAND $<TARGET_FILE:diskref> --write-bash-completion ${generated_docs}/diskref.bash
  COMMAND sh -c "gzip -9nf '${generated_docs}'/man1/*.1"
  COMMAND sh -c "gzip -9nc '${PROJECT_SOURCE_DIR}/packaging/changelog' > '${generated_docs}/changelog.gz'"
  COMMAND ${CMAKE_COMMAND} -E touch ${generated_docs}/stamp
  DEPENDS diskref ${PROJECT_SOURCE_DIR}/packaging/changelog
  COMMENT "Writing diskref's man pages and bash completion from its command line"
  VERBATIM)
add_custom_target(diskref_installed_docs ALL DEPENDS ${generated_docs}/stamp)
install(DIRECTORY ${generated_docs}/man1/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1.gz")
install(FILES ${generated_docs}/diskref.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME diskref)
install(FILES ${generated_docs}/changelog.gz DESTINATION ${doc_dir})

# The desktop entry opens the companion screen (on the bundled sample until a game is opened).
if(TARGET diskref_ui)
  install(FILES packaging/diskref.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES packaging/diskref.svg DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# The Debian package. Its dependencies are found by dpkg-shlibdeps from the libraries the program
# links (Debian's OpenCV, apriltag, GLFW, liblo, libmosquitto, …), so `apt install ./diskref_*.deb`
# pulls in exactly those.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME diskref)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${DISKREF_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "camera referee for flip-disk tabletop games")
# The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the extended description below it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "diskref watches a game table through a calibrated overhead camera, knows\n"
    "where every cardboard disk is to a fraction of a millimetre, follows the\n"
    "turn of Star Trek: Red Alert! and rules on range, contacts and collisions\n"
    "with the margin and its uncertainty (\"too close to call\" when it is).\n"
    "It keeps the game's books on a companion screen, records the session with\n"
    "its pictures, writes a report, and shows the game to spectators.")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
# "utils", not "games": Debian keeps "games" for packages whose programs are games in /usr/games.
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "mosquitto, xvfb")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/package)
include(CPack)

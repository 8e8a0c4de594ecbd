# The commit diskref is built from, taken when the build is configured (`diskref --version` says it;
# a recording's session.json keeps it). A source tree without .git (a release tarball, a copy) says
# so instead of guessing. Reconfigure (cmake -S . -B build) to take a newer commit.
find_package(Git QUIET)
set(DISKREF_COMMIT "")
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE DISKREF_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_status)
  if(NOT git_status EQUAL 0)
    set(DISKREF_COMMIT "")
  else()
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE git_changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT git_changes STREQUAL "")
      string(APPEND DISKREF_COMMIT " with uncommitted changes")
    endif()
  endif()
endif()
# The man pages' date: the commit's, so that building the same commit again writes the same pages.
string(TIMESTAMP DISKREF_BUILD_DATE "%Y-%m-%d" UTC)
if(NOT DISKREF_COMMIT STREQUAL "")
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} log -1 --format=%cs
                  OUTPUT_VARIABLE commit_date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(commit_date MATCHES "^[0-9]+-[0-9]+-[0-9]+$")
    set(DISKREF_BUILD_DATE ${commit_date})
  endif()
endif()
if(DISKREF_COMMIT STREQUAL "")
  set(DISKREF_BUILT_FROM "built from a source tree without .git")
else()
  set(DISKREF_BUILT_FROM "commit ${DISKREF_COMMIT}")
endif()
message(STATUS "diskref ${PROJECT_VERSION} (${DISKREF_BUILT_FROM})")

# The house's order, checked: which room may include which (cmake -P, run by CTest).
#
#   cmake -DSOURCE_DIR=<tree> -P cmake/check_layers.cmake
#
# Every C++ file of a room (below) may include, with "...", only the rooms its line allows, and no
# system header its line forbids. The data flows upwards: frame -> detections (vision) -> table
# poses (calibration) -> tracker (vision) -> table snapshot -> verdict (referee) -> game state
# (engine/rules) -> the network (net: the live feed of the books; never a screen) -> the recording
# (recording: frames, stills, log kept for afterwards) -> the pipeline (pipeline: frame, tracker, referee,
# recorder and feed in one place) -> the report (report: a recording as a page)
# and, beside the tracker, a dispute's photograph (photo: the tags of one photo -> the table, the
# camera and spec §6's answers with their sigma)
# and the first table's setup (setup: the kit, calibration, the table and the disks checked) -> the
# screen (ui) -> the program (cli). A file in a folder that is no room fails too, so that a new room is placed in
# the order on purpose.
cmake_minimum_required(VERSION 3.25)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "give -DSOURCE_DIR=<the tree to check>")
endif()

get_filename_component(SOURCE_DIR "${SOURCE_DIR}" ABSOLUTE)

# room | rooms it may include | system headers it must not include
set(rooms
  "engine/io|engine/io|opencv2 apriltag imgui GLFW backends"
  "engine/geometry|engine/geometry|opencv2 apriltag imgui GLFW backends"
  "engine/random|engine/random|opencv2 apriltag imgui GLFW backends"
  "engine/model|engine/io engine/geometry engine/random engine/model|opencv2 apriltag imgui GLFW backends"
  "engine/rules|engine/io engine/geometry engine/random engine/model engine/rules|opencv2 apriltag imgui GLFW backends"
  "calibration|engine calibration|imgui GLFW backends apriltag"
  "print|engine print|imgui GLFW backends"
  "vision|engine calibration vision|imgui GLFW backends"
  "simulator|engine calibration print simulator|imgui GLFW backends"
  "photo|engine calibration vision photo|imgui GLFW backends"
  "referee|engine referee|opencv2 apriltag imgui GLFW backends"
  "net|engine referee net|opencv2 apriltag imgui GLFW backends"
  "recording|engine calibration vision referee recording|imgui GLFW backends"
  "pipeline|engine calibration vision referee net recording pipeline|imgui GLFW backends"
  "report|engine calibration vision referee recording pipeline report|imgui GLFW backends"
  "setup|engine calibration print vision referee setup|imgui GLFW backends"
  "ui|engine calibration print vision photo simulator referee net recording pipeline setup ui|"
  "cli|engine calibration print vision photo simulator referee net recording pipeline report setup ui cli|"
  "fuzz|engine calibration print vision photo simulator referee recording setup ui fuzz|imgui GLFW backends"
  "bench|engine calibration print vision photo simulator referee net recording pipeline bench|imgui GLFW backends")
set(project_rooms engine calibration print vision photo simulator referee net recording pipeline report setup ui cli bench tests fuzz)

set(problems "")
set(seen_rooms "")
foreach(entry IN LISTS rooms)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 room)
  list(GET parts 1 allowed)
  list(GET parts 2 forbidden)
  string(REPLACE " " ";" allowed "${allowed}")
  string(REPLACE " " ";" forbidden "${forbidden}")
  list(APPEND seen_rooms "${room}")
  file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/${room}/*.h" "${SOURCE_DIR}/${room}/*.cpp")
  foreach(file IN LISTS files)
    file(STRINGS "${SOURCE_DIR}/${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
    foreach(line IN LISTS includes)
      if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        set(target "${CMAKE_MATCH_1}")
        string(REGEX MATCH "^[^/]+" top "${target}")
        if(NOT top IN_LIST project_rooms)
          continue()  # a header beside the file, or a system header in quotes
        endif()
        set(ok FALSE)
        foreach(a IN LISTS allowed)
          string(LENGTH "${a}/" n)
          string(SUBSTRING "${target}" 0 ${n} head)
          if(head STREQUAL "${a}/")
            set(ok TRUE)
          endif()
        endforeach()
        if(NOT ok)
          string(APPEND problems "  ${file} includes \"${target}\": ${room} may include only ${allowed}\n")
        endif()
      elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
        set(target "${CMAKE_MATCH_1}")
        foreach(f IN LISTS forbidden)
          if(target MATCHES "^${f}([/.]|$)")
            string(APPEND problems "  ${file} includes <${target}>: ${room} must not depend on ${f}\n")
          endif()
        endforeach()
      endif()
    endforeach()
  endforeach()
endforeach()

# Every source file of a project room belongs to a room above.
file(GLOB_RECURSE all RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*.h" "${SOURCE_DIR}/*.cpp")
foreach(file IN LISTS all)
  string(REGEX MATCH "^[^/]+" top "${file}")
  if(NOT top IN_LIST project_rooms OR top STREQUAL "tests")
    continue()
  endif()
  set(placed FALSE)
  foreach(room IN LISTS seen_rooms)
    string(LENGTH "${room}/" n)
    string(SUBSTRING "${file}" 0 ${n} head)
    if(head STREQUAL "${room}/")
      set(placed TRUE)
    endif()
  endforeach()
  if(NOT placed)
    string(APPEND problems "  ${file} is in no room of cmake/check_layers.cmake: place its folder in the order\n")
  endif()
endforeach()

if(problems)
  message(FATAL_ERROR "the house's order is broken:\n${problems}")
endif()
list(LENGTH all count)
message(STATUS "the house's order holds (${count} files)")

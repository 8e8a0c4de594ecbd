# diskref_target_warnings(target): strict warnings on diskref's own code only.
# System headers (OpenCV, apriltag, imgui) come in through -isystem and are not affected.
function(diskref_target_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wnull-dereference -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough)
  if(DISKREF_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

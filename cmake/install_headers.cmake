# Installs the core's headers under AE_DEST (…/include/attention_core), run by `cmake --install`
# (CMakeLists.txt, install(CODE)). The sources include each other from src/ ("ops/attention.h");
# each such include is rewritten relative to the installed header ("../ops/attention.h"), so a
# consumer needs only …/include on its path and never gets the core's generic folder names
# (model/, util/, tensor.h) there. Inputs: AE_SRC (the source tree's src/), AE_DEST.
file(GLOB_RECURSE headers RELATIVE ${AE_SRC} ${AE_SRC}/*.h)
foreach(header IN LISTS headers)
  file(READ ${AE_SRC}/${header} text)
  get_filename_component(dir ${AE_SRC}/${header} DIRECTORY)
  string(REGEX MATCHALL "#include \"[^\"]+\"" includes "${text}")
  list(REMOVE_DUPLICATES includes)
  foreach(include IN LISTS includes)
    string(REGEX REPLACE "#include \"([^\"]+)\"" "\\1" path "${include}")
    if(EXISTS ${AE_SRC}/${path})
      file(RELATIVE_PATH relative ${dir} ${AE_SRC}/${path})
      string(REPLACE "${include}" "#include \"${relative}\"" text "${text}")
    endif()
  endforeach()
  set(out ${AE_DEST}/${header})
  message(STATUS "Installing: ${out}")
  file(WRITE ${out} "${text}")
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES ${out})
endforeach()

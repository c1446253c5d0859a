# ctest cmake_consumer: installs the core of AE_BUILD_DIR into a fresh prefix, configures and
# builds the consumer project (AE_CONSUMER_DIR) against it with find_package(AttentionCore),
# runs it and checks what it printed.
set(work ${AE_BUILD_DIR}/cmake-consumer)
file(REMOVE_RECURSE ${work})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${AE_BUILD_DIR} --prefix ${work}/prefix
  OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} -S ${AE_CONSUMER_DIR} -B ${work}/build -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_PREFIX_PATH=${work}/prefix OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --build ${work}/build OUTPUT_QUIET COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${work}/build/consumer OUTPUT_VARIABLE printed COMMAND_ERROR_IS_FATAL ANY)
set(expected "weights 1.0000 0.0000 | 0.2500 0.7500; output 0.0000 3.0000\n")
if(NOT printed STREQUAL expected)
  message(FATAL_ERROR "the consumer printed\n  ${printed}instead of\n  ${expected}")
endif()
message(STATUS "cmake_consumer: ${printed}")

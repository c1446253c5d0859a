# Included by CMakeLists.txt under em++ when clang++-19 exists: the relaxed-SIMD modules
# attention-relaxed and attention-full-relaxed (same bindings, same link options at -O1), the
# benchmarks' one, and the kernel tests.

# The kernel files: every file whose code the multiply-add form changes (ops/f32x4.h).
set(AE_KERNEL_SOURCES src/ops/gemm.cpp src/ops/gemm_simd128.cpp src/ops/attention_fused.cpp
  src/ops/activation.cpp src/ops/softmax.cpp)

# emcc's own target, sysroot and exception flags, so the objects match the rest of the module;
# -mcpu=mvp keeps clang-19 from enabling features (bulk memory, …) the rest does not use.
execute_process(COMMAND ${CMAKE_C_COMPILER} -fexceptions --cflags OUTPUT_VARIABLE AE_EMCC_CFLAGS
  OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(AE_EMCC_CFLAGS UNIX_COMMAND "${AE_EMCC_CFLAGS}")
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/relaxed)
set(AE_RELAXED_OBJECTS)
foreach(source ${AE_KERNEL_SOURCES})
  get_filename_component(name ${source} NAME_WE)
  set(object ${CMAKE_BINARY_DIR}/relaxed/${name}.o)
  add_custom_command(OUTPUT ${object}
    COMMAND ${AE_RELAXED_CXX} ${AE_EMCC_CFLAGS} -std=c++20 -O3 -DNDEBUG -mcpu=mvp -msimd128 -mrelaxed-simd
            -fexceptions -Wall -Wextra -I${CMAKE_SOURCE_DIR}/src -isystem ${EIGEN3_INCLUDE_DIR}
            -MD -MF ${object}.d -c ${CMAKE_SOURCE_DIR}/${source} -o ${object}
    DEPENDS ${CMAKE_SOURCE_DIR}/${source} DEPFILE ${object}.d
    COMMENT "clang-19, relaxed SIMD: ${source}" VERBATIM)
  list(APPEND AE_RELAXED_OBJECTS ${object})
endforeach()
# One target builds the objects (two targets listing them as sources could build them at once);
# the executables link them by path, in front of ae_core, and relink when they change.
add_custom_target(ae_relaxed_kernels DEPENDS ${AE_RELAXED_OBJECTS})
function(ae_link_relaxed_kernels target)
  add_dependencies(${target} ae_relaxed_kernels)
  target_link_libraries(${target} PRIVATE ${AE_RELAXED_OBJECTS} ae_core)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${AE_RELAXED_OBJECTS})
endfunction()

# The modules: the objects of `attention` (and of the full module's bindings) plus the relaxed
# kernels, the page module's link options with -O1 in place of -O3.
get_target_property(AE_MODULE_LINK_OPTIONS attention LINK_OPTIONS)
list(TRANSFORM AE_MODULE_LINK_OPTIONS REPLACE "^-O[0-9s]$" "-O1")
find_program(AE_WASM_STRIP wasm-strip REQUIRED)
function(ae_relaxed_module target output)
  add_executable(${target} ${ARGN})
  add_dependencies(${target} attention)  # its objects are attention's
  target_include_directories(${target} PRIVATE ${CMAKE_SOURCE_DIR}/bindings)
  ae_link_relaxed_kernels(${target})
  target_link_options(${target} PRIVATE ${AE_MODULE_LINK_OPTIONS})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ${output} SUFFIX ".mjs" LINKER_LANGUAGE CXX)
endfunction()
# What emcc's -O2+ would have done to the files: no name section (wasm-strip: −300 KB), minified glue.
function(ae_strip_and_minify target output)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${AE_WASM_STRIP} ${output}.wasm
    COMMAND node ${CMAKE_SOURCE_DIR}/cmake/minify_glue.mjs ${output}.mjs
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR} VERBATIM)
endfunction()

# The page's module (attention-relaxed) and the full one (attention-full-relaxed: the trainer
# and the GPT-2 loader too), as their SIMD128 twins in CMakeLists.txt.
ae_relaxed_module(attention_relaxed attention-relaxed $<TARGET_OBJECTS:attention>)
ae_strip_and_minify(attention_relaxed attention-relaxed)
# The page's module then gets the binaryen -O3 that its -O1 link left out, from npm's binaryen
# (132 reads relaxed SIMD; Debian's 108 cannot): −16 KB gzipped of the first view's bytes
# (docs/benchmarks.md), and the same results (tests/wasm run on it). The full and benchmark
# modules keep their -O1 link: ~50 s of wasm-opt each on the 2-core machine, not in the first view.
set(AE_NPM_WASM_OPT ${CMAKE_SOURCE_DIR}/node_modules/.bin/wasm-opt)
if(EXISTS ${AE_NPM_WASM_OPT})
  add_custom_command(TARGET attention_relaxed POST_BUILD
    COMMAND ${AE_NPM_WASM_OPT} -O3 --enable-simd --enable-relaxed-simd --enable-mutable-globals
            attention-relaxed.wasm -o attention-relaxed.wasm
    WORKING_DIRECTORY ${CMAKE_BINARY_DIR} VERBATIM)
else()
  message(WARNING "node_modules/.bin/wasm-opt not found (npm ci installs it): attention-relaxed.wasm unoptimised")
endif()
ae_relaxed_module(attention_full_relaxed attention-full-relaxed ${AE_FULL_OBJECTS})
ae_strip_and_minify(attention_full_relaxed attention-full-relaxed)

# The benchmarks' module on the relaxed kernels (attention_bench + fused multiply-add), for
# tools/bench's lesson forward with FMA; built by npm run bench only, not by every build.
ae_relaxed_module(attention_bench_relaxed attention_bench-relaxed ${AE_FULL_OBJECTS}
  ${CMAKE_SOURCE_DIR}/bindings/bench.cpp)
set_target_properties(attention_bench_relaxed PROPERTIES EXCLUDE_FROM_ALL ON)

# The kernel tests of kernel_tests_wasm, on the relaxed kernels; Node 20 runs relaxed SIMD only
# with --experimental-wasm-relaxed-simd.
add_executable(kernel_tests_wasm_relaxed tests/native/main.cpp tests/native/test_gemm.cpp
  tests/native/test_attention_fused.cpp tests/native/test_matmul.cpp)
target_compile_definitions(kernel_tests_wasm_relaxed PRIVATE AE_RELAXED_SIMD=1)
ae_link_relaxed_kernels(kernel_tests_wasm_relaxed)
target_link_options(kernel_tests_wasm_relaxed PRIVATE -O1 -sWASM_BIGINT=1 -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
  -sEXIT_RUNTIME=1)
set_target_properties(kernel_tests_wasm_relaxed PROPERTIES SUFFIX ".cjs")
add_test(NAME kernel_tests_wasm_relaxed
  COMMAND /usr/bin/node --experimental-wasm-relaxed-simd --no-experimental-fetch
          $<TARGET_FILE:kernel_tests_wasm_relaxed>)

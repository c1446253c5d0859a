// The threaded wasm module's malloc (util/wasm_malloc.cpp): a cache of freed blocks per thread in front of
// emmalloc.
#pragma once

#include <cstddef>

extern "C" {
// Only in builds with the cache (AE_WASM_MALLOC_CACHE):
// The bytes of freed blocks the calling thread's cache holds for reuse: emmalloc counts them as in
// use (mallinfo), the program does not.
size_t ae_malloc_cached_bytes();
// Gives the calling thread's cached blocks back to emmalloc (before a measurement of what the
// program holds: emmalloc then joins them with their free neighbours, as without the cache).
void ae_malloc_release_cached();
}

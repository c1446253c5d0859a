// The threaded wasm module's malloc (src/util/wasm_malloc.cpp: a cache of freed blocks per thread in front
// of emmalloc). Runs in malloc_tests_wasm only (natively the C library's allocator is in use): a
// pthread build with the cache, as the threaded training module (CMakeLists.txt).
#if defined(__EMSCRIPTEN__) && AE_WASM_MALLOC_CACHE
#include <doctest/doctest.h>

#include "util/wasm_malloc.h"

#include <emscripten/emmalloc.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

TEST_CASE("wasm malloc: this build's malloc rounds to its size classes and caches what is freed") {
  // 16-byte classes up to 1 KiB, then eight per doubling: 100 → 112, 1025 → 1152, 3000 → 3072
  // (emmalloc alone rounds to 8 bytes). A block from the cache may be larger than its class.
  for (const auto& case_ : std::vector<std::pair<size_t, size_t>>{
           {1, 16}, {100, 112}, {1024, 1024}, {1025, 1152}, {2048, 2048}, {3000, 3072}, {(1 << 20), (1 << 20)}}) {
    const size_t asked = case_.first, held = case_.second;
    CAPTURE(asked);
    void* p = std::malloc(asked);
    REQUIRE(p != nullptr);
    const size_t usable = malloc_usable_size(p);
    CHECK(usable >= held);
    CHECK(usable == emmalloc_usable_size(p));  // the size read from emmalloc's header is emmalloc's
    CHECK(reinterpret_cast<uintptr_t>(p) % 8 == 0);
    const size_t cached = ae_malloc_cached_bytes();
    std::free(p);
    CHECK(ae_malloc_cached_bytes() == cached + usable);  // kept for the next malloc of its class
    void* again = std::malloc(asked);
    CHECK(again == p);
    CHECK(ae_malloc_cached_bytes() == cached);
    emscripten_builtin_free(again);  // emmalloc takes back what malloc gave (Emscripten's own code does)
  }
  const size_t cached = ae_malloc_cached_bytes();
  void* big = std::malloc((1 << 20) + 1);  // past the classes: emmalloc's, never cached
  REQUIRE(big != nullptr);
  CHECK(malloc_usable_size(big) >= (1 << 20) + 1);
  std::free(big);
  CHECK(ae_malloc_cached_bytes() == cached);
}

TEST_CASE("wasm malloc: a freed block comes back for the next malloc of its class, and holds what is written") {
  void* a = std::malloc(200);
  std::free(a);
  void* b = std::malloc(195);  // the same class (193-208 bytes)
  CHECK(b == a);
  std::vector<unsigned char*> blocks;
  for (int i = 0; i < 500; ++i) {  // more than a thread keeps: the rest go back to emmalloc
    const size_t n = 1 + static_cast<size_t>(i * 37 % 5000);
    auto* p = static_cast<unsigned char*>(std::malloc(n));
    REQUIRE(p != nullptr);
    std::memset(p, i & 0xFF, n);
    blocks.push_back(p);
  }
  for (size_t i = 0; i < blocks.size(); ++i) {
    const size_t n = 1 + i * 37 % 5000;
    CHECK(blocks[i][0] == (i & 0xFF));
    CHECK(blocks[i][n - 1] == (i & 0xFF));  // no block overlaps another
  }
  for (auto* p : blocks) std::free(p);
  std::free(b);
}

TEST_CASE("wasm malloc: calloc zeroes, realloc keeps the contents, aligned allocations are aligned") {
  auto* z = static_cast<unsigned char*>(std::malloc(64));
  std::memset(z, 0xAB, 64);
  std::free(z);
  auto* c = static_cast<unsigned char*>(std::calloc(16, 4));  // may be the block just dirtied
  for (int i = 0; i < 64; ++i) CHECK(c[i] == 0);
  std::free(c);
  CHECK(std::calloc(SIZE_MAX / 2, 4) == nullptr);  // the product overflows

  auto* r = static_cast<int*>(std::malloc(10 * sizeof(int)));
  for (int i = 0; i < 10; ++i) r[i] = i;
  r = static_cast<int*>(std::realloc(r, 5000 * sizeof(int)));
  REQUIRE(r != nullptr);
  for (int i = 0; i < 10; ++i) CHECK(r[i] == i);
  std::free(r);

  for (size_t alignment : {16u, 64u, 4096u}) {
    CAPTURE(alignment);
    void* p = nullptr;
    REQUIRE(posix_memalign(&p, alignment, 100) == 0);
    CHECK(reinterpret_cast<uintptr_t>(p) % alignment == 0);
    CHECK(malloc_usable_size(p) >= 100);
    std::free(p);
    void* q = std::aligned_alloc(alignment, alignment * 2);
    CHECK(reinterpret_cast<uintptr_t>(q) % alignment == 0);
    std::free(q);
  }
  void* bad = nullptr;
  CHECK(posix_memalign(&bad, 24, 100) != 0);  // not a power of two
}
TEST_CASE("wasm malloc: a thread that exits gives its cached blocks back to emmalloc") {
  ae_malloc_release_cached();
  const size_t before = mallinfo().uordblks;
  std::thread worker([] {
    std::vector<void*> blocks;
    for (int i = 0; i < 100; ++i) blocks.push_back(std::malloc(1000));
    for (void* p : blocks) std::free(p);
    CHECK(ae_malloc_cached_bytes() >= 64 * 1000);  // this thread's cache holds the class's 64
  });
  worker.join();
  ae_malloc_release_cached();
  const size_t after = mallinfo().uordblks;
  CAPTURE(before);
  CAPTURE(after);
  CHECK(after < before + 8 * 1024);  // not the 64 KB the thread had cached
}
#endif

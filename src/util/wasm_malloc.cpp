// malloc for the threaded wasm module: a cache of freed blocks per thread in front of emmalloc
// (CMakeLists.txt links this file only into ae_core_mt, with AE_WASM_MALLOC=emmalloc; the
// single-thread modules use emmalloc alone, natively the C library's allocator is used). A training step makes and
// frees thousands of small matrices, and emmalloc serves every call under one global spinlock, searching its free
// lists: a profile of the threaded trainer put a fifth of a step in emmalloc with two threads (an eighth with one).
// Here a block freed by a thread goes on that thread's list for its size class and the thread's
// next malloc of that class takes it back without a lock; only misses, blocks over 1 MiB and
// aligned allocations reach emmalloc. The bits a model computes do not depend on where its
// matrices live (Eigen aligns its own storage; the kernels load unaligned).
//
// Every pointer handed out is emmalloc's own block, so emmalloc may free what malloc gave and the
// other way round (Emscripten's pthread code frees with emscripten_builtin_free what it took with
// malloc). free() finds a block's class from its size, which emmalloc keeps in the 4 bytes before
// the block (Emscripten 3.1.6's Region; tests/native/test_wasm_malloc.cpp checks it against
// emmalloc_usable_size). emmalloc defines malloc and the others as weak symbols, so these take
// their place. A thread's cached blocks go back to emmalloc when the thread exits.
#include "util/wasm_malloc.h"

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" {
void* emmalloc_malloc(size_t size);
void* emmalloc_memalign(size_t alignment, size_t size);
void emmalloc_free(void* ptr);
}

namespace {

// Size classes: 16 B steps up to 1 KiB, then eight per doubling up to 1 MiB.
constexpr int kSmallClasses = 64;
constexpr int kClasses = kSmallClasses + 10 * 8;
constexpr size_t kLargestClass = size_t{1} << 20;

constexpr size_t class_size(int c) {
  if (c < kSmallClasses) return static_cast<size_t>(c + 1) * 16;
  const int above = c - kSmallClasses, doubling = above / 8, step = above % 8 + 1;
  const size_t base = size_t{1024} << doubling;
  return base + static_cast<size_t>(step) * (base / 8);
}
static_assert(class_size(kSmallClasses - 1) == 1024 && class_size(kSmallClasses) == 1152);
static_assert(class_size(kClasses - 1) == kLargestClass);

// The smallest class that holds n bytes (n ≤ kLargestClass).
int class_of(size_t n) {
  if (n <= 1024) return n == 0 ? 0 : static_cast<int>((n + 15) / 16) - 1;
  int doubling = 0;
  while ((size_t{2048} << doubling) < n) ++doubling;  // 1024·2^d < n ≤ 2048·2^d
  const size_t base = size_t{1024} << doubling, step = base / 8;
  return kSmallClasses + doubling * 8 + static_cast<int>((n - base + step - 1) / step) - 1;
}

// The largest class a block of `usable` bytes serves (16 ≤ usable ≤ kLargestClass).
int class_served_by(size_t usable) {
  const int c = class_of(usable);
  return class_size(c) > usable ? c - 1 : c;
}

// The bytes emmalloc's block at p holds: its Region's size, less the Region's two 4-byte sizes.
size_t usable_size(void* p) { return static_cast<const uint32_t*>(p)[-1] - 8; }

// How many freed blocks of class c a thread keeps: up to 256 KiB of them, at most 64, at least 2.
int kept_blocks(int c) {
  const size_t n = (size_t{256} << 10) / class_size(c);
  return n < 2 ? 2 : n > 64 ? 64 : static_cast<int>(n);
}

// Zero-initialised, no constructor: usable from the first malloc on any thread.
struct ThreadCache {
  void* head[kClasses];  // a freed block's first bytes point to the next one
  int count[kClasses];
  size_t bytes;
  bool exit_hook_set;  // the thread-exit hook is set
};
thread_local ThreadCache cache;

// A pthread key whose destructor gives a thread's cache back to emmalloc when the thread exits
// (Emscripten runs key destructors before it frees the thread's TLS, where the cache lives).
pthread_key_t exit_key;
pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

void flush(void*) {
  for (int c = 0; c < kClasses; ++c)
    while (void* p = cache.head[c]) {
      cache.head[c] = *static_cast<void**>(p);
      emmalloc_free(p);
    }
  std::memset(&cache, 0, sizeof cache);
}

void make_exit_key() { pthread_key_create(&exit_key, flush); }

void set_exit_hook() {
  cache.exit_hook_set = true;
  pthread_once(&exit_key_once, make_exit_key);
  pthread_setspecific(exit_key, &cache);  // non-null: the destructor runs
}

}  // namespace

extern "C" {

void* malloc(size_t size) {
  if (size > kLargestClass) return emmalloc_malloc(size);
  const int c = class_of(size);
  if (void* p = cache.head[c]) {
    cache.head[c] = *static_cast<void**>(p);
    --cache.count[c];
    cache.bytes -= usable_size(p);
    return p;
  }
  return emmalloc_malloc(class_size(c));
}

void free(void* p) {
  if (!p) return;
  const size_t usable = usable_size(p);
  if (usable < 16 || usable > kLargestClass) return emmalloc_free(p);
  const int c = class_served_by(usable);
  if (cache.count[c] >= kept_blocks(c)) return emmalloc_free(p);
  if (!cache.exit_hook_set) set_exit_hook();
  *static_cast<void**>(p) = cache.head[c];
  cache.head[c] = p;
  ++cache.count[c];
  cache.bytes += usable;
}

void* calloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  void* p = malloc(count * size);
  if (p) std::memset(p, 0, count * size);
  return p;
}

void* realloc(void* p, size_t size) {
  if (!p) return malloc(size);
  const size_t had = usable_size(p);
  if (size <= had) return p;
  void* q = malloc(size);
  if (!q) return nullptr;  // p stays valid, as realloc promises
  std::memcpy(q, p, had);
  free(p);
  return q;
}

void* memalign(size_t alignment, size_t size) {
  return alignment <= 8 ? malloc(size) : emmalloc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return 22;  // EINVAL
  void* p = memalign(alignment, size);
  if (!p) return 12;  // ENOMEM
  *out = p;
  return 0;
}

size_t malloc_usable_size(void* p) { return p ? usable_size(p) : 0; }

size_t ae_malloc_cached_bytes() { return cache.bytes; }

void ae_malloc_release_cached() {
  const bool hook_set = cache.exit_hook_set;
  flush(nullptr);
  cache.exit_hook_set = hook_set;
}

}  // extern "C"

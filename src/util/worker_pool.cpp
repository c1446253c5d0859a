#include "util/worker_pool.h"

#include <algorithm>

namespace ae {

int hardware_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

int usable_threads(int wanted) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  (void)wanted;
  return 1;  // no std::thread in a module without SharedArrayBuffer
#else
  return std::max(1, wanted);
#endif
}

namespace {

#ifdef AE_WASM_THREAD_POOL
// The module's pthread workers, made at load (CMakeLists.txt), that no live pool holds. A thread
// beyond them would start only after the caller returned to its event loop, and run() would wait
// for it forever; so a pool takes at most what is free (pools alive at the same time, two training
// sessions, share them) and runs its tasks on fewer threads: the same bits.
std::atomic<int> free_workers{AE_WASM_THREAD_POOL};
int take_workers(int wanted) {
  int free = free_workers.load();
  int taken = 0;
  do taken = std::min(wanted, free);
  while (!free_workers.compare_exchange_weak(free, free - taken));
  return taken;
}
void give_back_workers(int count) { free_workers += count; }
#else
int take_workers(int wanted) { return wanted; }
void give_back_workers(int) {}
#endif

}  // namespace

WorkerPool::WorkerPool(int threads) {
  const int extra = take_workers(usable_threads(threads) - 1);
  workers_.reserve(static_cast<size_t>(extra));
  for (int i = 0; i < extra; ++i) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : workers_) t.join();
  give_back_workers(static_cast<int>(workers_.size()));
}

void WorkerPool::drain() {
  for (int i; (i = next_task_.fetch_add(1, std::memory_order_relaxed)) < tasks_;) {
    try {
      call_(context_, i);
    } catch (...) {
      const std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void WorkerPool::work() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain();
    {
      const std::lock_guard lock(mutex_);
      if (--running_ == 0) done_.notify_one();
    }
  }
}

void WorkerPool::run_erased(int tasks, void* context, void (*call)(void*, int)) {
  {
    const std::lock_guard lock(mutex_);
    context_ = context;
    call_ = call;
    tasks_ = tasks;
    next_task_.store(0, std::memory_order_relaxed);
    running_ = static_cast<int>(workers_.size());
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  drain();
  std::exception_ptr error;
  {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return running_ == 0; });
    std::swap(error, error_);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace ae

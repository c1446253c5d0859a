// A fixed set of threads, started once (a training session's), that run the tasks 0 … n − 1 of
// a job together with the calling thread: each task once, handed out in increasing order, so a
// task's turn never waits for a task that no thread has taken (util/turns.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace ae {

// How many threads a job may use in this build: `wanted` (at least 1), or 1 in a wasm module
// built without pthreads. hardware_threads(): std::thread::hardware_concurrency(), at least 1.
int usable_threads(int wanted);
int hardware_threads();

class WorkerPool {
 public:
  // threads ≥ 1 counts the caller: threads − 1 are started here and stopped by the destructor.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls task(i) for i = 0 … tasks − 1 across the threads and returns when all are done; the
  // first exception a task throws is rethrown here (the other tasks still run). Nothing is
  // allocated per call.
  template <class Task>
  void run(int tasks, Task&& task) {
    run_erased(tasks, &task, [](void* t, int i) { (*static_cast<std::remove_reference_t<Task>*>(t))(i); });
  }

 private:
  void run_erased(int tasks, void* context, void (*call)(void*, int));
  void drain();
  void work();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  uint64_t generation_ = 0;
  int running_ = 0;
  bool stop_ = false;
  void* context_ = nullptr;
  void (*call_)(void*, int) = nullptr;
  int tasks_ = 0;
  std::atomic<int> next_task_{0};
  std::exception_ptr error_;
};

}  // namespace ae

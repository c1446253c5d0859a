// Several threads adding into one gradient buffer in a fixed order (Trainer's data-parallel
// step, train/trainer.cpp). Each group of parameters that one call adds into (a Linear's weight
// and bias, a LayerNorm's gamma and beta, the embeddings with the output head) has a TurnGate in
// the gradient buffer, and example e's additions into the group wait until example e − 1's are
// done. So every parameter's sum is taken in example order — the per-example loop's, bit for bit
// — whichever thread ran which example: the weights do not depend on how many threads there were.
#pragma once

#include <atomic>
#include <climits>
#include <stdexcept>

namespace ae {

class TurnGate {
 public:
  // Before a step: example 0 goes first.
  void reset() { next_.store(0, std::memory_order_relaxed); }
  // Every waiting and later wait() gives up (an example failed: its turn would never come).
  void abort() {
    next_.store(kAborted, std::memory_order_seq_cst);
    next_.notify_all();
  }
  // Blocks until it is `ticket`'s turn; false if the gate was aborted. A turn usually comes within
  // microseconds (the other threads run the neighbouring examples at the same pace), so it spins
  // first and sleeps (a futex) only after kSpins looks: a step passes each gate once per example,
  // thousands of times, and in Chromium a futex wait and wake per pass cost more than the second
  // thread gained (half the processor time in the kernel).
  bool wait(int ticket) const {
    for (int looks = 0;; ++looks) {
      const int next = next_.load(std::memory_order_acquire);
      if (next == ticket) return true;
      if (next == kAborted) return false;
      if (looks < kSpins) continue;
      // Counted before the last look, which pass() orders against its count: seq_cst both sides,
      // so either that look sees the new turn or pass() sees this waiter and wakes it.
      waiters_.fetch_add(1, std::memory_order_seq_cst);
      if (next_.load(std::memory_order_seq_cst) == next) next_.wait(next, std::memory_order_acquire);
      waiters_.fetch_sub(1, std::memory_order_seq_cst);
    }
  }
  // `ticket` is done with the group: the next example's turn (unless the gate was aborted); wakes
  // the sleepers, if any (a wake costs a system call even when nobody sleeps).
  void pass(int ticket) {
    int expected = ticket;
    if (next_.compare_exchange_strong(expected, ticket + 1, std::memory_order_seq_cst) &&
        waiters_.load(std::memory_order_seq_cst) > 0)
      next_.notify_all();
  }

 private:
  static constexpr int kAborted = INT_MAX;
  static constexpr int kSpins = 1 << 14;  // ~10–30 µs of looks
  std::atomic<int> next_{0};
  mutable std::atomic<int> waiters_{0};
};

// The example whose additions the calling thread is making; −1 (the default): none is ordered,
// gates are not waited for (every single-threaded caller).
inline int& current_turn_ticket() {
  thread_local int ticket = -1;
  return ticket;
}

// Sets the calling thread's ticket for a scope (one example of a threaded step).
class TurnTicket {
 public:
  explicit TurnTicket(int ticket) : saved_(current_turn_ticket()) { current_turn_ticket() = ticket; }
  ~TurnTicket() { current_turn_ticket() = saved_; }
  TurnTicket(const TurnTicket&) = delete;
  TurnTicket& operator=(const TurnTicket&) = delete;

 private:
  int saved_;
};

// The scope of one group's additions: waits for the thread's ticket's turn at `gate` (nullptr or
// no ticket: no waiting) and passes it on at the end. Throws std::runtime_error if the gate is
// aborted while waiting.
class InTurn {
 public:
  explicit InTurn(TurnGate* gate) : ticket_(current_turn_ticket()), gate_(ticket_ >= 0 ? gate : nullptr) {
    if (gate_ && !gate_->wait(ticket_)) throw std::runtime_error("training step aborted: another example failed");
  }
  ~InTurn() {
    if (gate_) gate_->pass(ticket_);
  }
  InTurn(const InTurn&) = delete;
  InTurn& operator=(const InTurn&) = delete;

 private:
  int ticket_;
  TurnGate* gate_;
};

}  // namespace ae

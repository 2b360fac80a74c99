#pragma once
// Parallel memcpy on threads of its own, for the host side of staged GPU
// uploads (staging.cu). Why not TBB: during a pipeline run every TBB worker
// is inside a long synthesis task, so a parallel_for from the uploading
// thread ran nearly alone. Measured on the H200 host (16 cores, 32 GiB
// PoRep, steps in turn): the 12 GiB of a, b, c went up at ~14 GB/s while
// synthesis ran, against ~40 GB/s with TBB idle (2^24 bench) and ~55 GB/s
// of DMA from pinned memory. Threads of their own get time slices from the
// OS however busy TBB is. Plain C++ (no CUDA).
#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace cuzk::gpu {

class copy_pool {
 public:
  static constexpr size_t piece_bytes = size_t(2) << 20;  // one thread's share at a time

  // threads helpers besides each caller (0: the caller copies alone).
  explicit copy_pool(unsigned threads) {
    for (unsigned i = 0; i < threads; ++i) {
      helpers_.emplace_back([this](std::stop_token st) { serve(st); });
    }
  }
  ~copy_pool() {
    {
      std::lock_guard lk(mu_);  // a helper between its check and its wait would miss the notify
      for (auto& t : helpers_) t.request_stop();
    }
    cv_.notify_all();
  }
  copy_pool(const copy_pool&) = delete;
  copy_pool& operator=(const copy_pool&) = delete;

  // memcpy(dst, src, bytes) by the caller and the helpers, in pieces; returns
  // when every piece is copied. Callers on several threads share the helpers.
  void copy(void* dst, const void* src, size_t bytes) {
    if (bytes == 0) return;
    job_t job{static_cast<char*>(dst), static_cast<const char*>(src), bytes, (bytes + piece_bytes - 1) / piece_bytes};
    {
      std::lock_guard lk(mu_);
      queue_.push_back(&job);
    }
    cv_.notify_all();
    // The caller copies its own job's pieces too; then waits for pieces a
    // helper took.
    while (run_piece_of(&job)) {
    }
    std::unique_lock lk(mu_);
    done_cv_.wait(lk, [&] { return job.finished == job.pieces; });
  }

  unsigned helpers() const { return unsigned(helpers_.size()); }

 private:
  struct job_t {
    char* dst;
    const char* src;
    size_t bytes, pieces;
    size_t next = 0, finished = 0;  // under mu_
  };

  // Takes the next piece of `job` (or of the oldest job when null), copies
  // it and counts it; false when there was none.
  bool run_piece_of(job_t* only) {
    job_t* job = nullptr;
    size_t piece = 0;
    {
      std::lock_guard lk(mu_);
      if (only) {
        if (only->next == only->pieces) return false;
        job = only;
      } else {
        if (queue_.empty()) return false;
        job = queue_.front();
      }
      piece = job->next++;
      if (job->next == job->pieces) queue_.erase(std::find(queue_.begin(), queue_.end(), job));
    }
    const size_t off = piece * piece_bytes;
    std::memcpy(job->dst + off, job->src + off, std::min(piece_bytes, job->bytes - off));
    bool last = false;
    {
      std::lock_guard lk(mu_);
      last = ++job->finished == job->pieces;
    }
    if (last) done_cv_.notify_all();
    return true;
  }

  void serve(std::stop_token st) {
    while (!st.stop_requested()) {
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return st.stop_requested() || !queue_.empty(); });
        if (st.stop_requested()) return;
      }
      while (run_piece_of(nullptr)) {
      }
    }
  }

  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::deque<job_t*> queue_;
  std::vector<std::jthread> helpers_;  // last: stopped and joined before the rest goes
};

}  // namespace cuzk::gpu

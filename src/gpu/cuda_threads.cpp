#include "gpu/cuda_threads.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace cuzk::gpu {

namespace {

class thread_pool {
 public:
  void submit(std::function<void()> task) {
    std::lock_guard lk(mu_);
    tasks_.push_back(std::move(task));
    if (idle_ > tasks_.size() - 1) {
      cv_.notify_one();
      return;
    }
    std::thread([this] { serve(); }).detach();
  }

 private:
  void serve() {
    std::unique_lock lk(mu_);
    for (;;) {
      while (tasks_.empty()) {
        ++idle_;
        cv_.wait(lk);
        --idle_;
      }
      auto task = std::move(tasks_.front());
      tasks_.pop_front();
      lk.unlock();
      task();  // a packaged_task: exceptions land in its future
      lk.lock();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  size_t idle_ = 0;  // threads waiting for a task
};

thread_pool& pool() {
  static thread_pool* p = new thread_pool;  // never destroyed: its threads never exit
  return *p;
}

}  // namespace

void run_on_cuda_thread(std::function<void()> task) { pool().submit(std::move(task)); }

}  // namespace cuzk::gpu

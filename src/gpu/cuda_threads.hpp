#pragma once
// Short tasks that call CUDA, run on threads that never exit.
//
// Why not std::async: a thread that has used CUDA runs the driver's cleanup
// when it exits, and on the H200 machine (driver 580.159.04) that cleanup
// deadlocked against cudaFreeAsync on other threads: 2 of 26 runs of
// engine_gpu.hash_chain_jobs_verify_on_the_gpu hung with the exiting
// std::async threads of prove_start spinning in libcuda's thread-specific
// data destructor and every other CUDA thread blocked on a driver mutex in
// cuMemFreeAsync (stacks taken with a SIGQUIT handler, BENCHMARKS.md). A
// thread that never exits never runs that cleanup.
//
// A task is handed to an idle thread, or to a new one when all are busy, so
// a task never waits behind another: tasks may block on each other's
// results. Threads park when idle; their number is the peak of concurrent
// tasks (prove_start: four per proof in flight).
#include <functional>
#include <future>
#include <memory>
#include <type_traits>
#include <utility>

namespace cuzk::gpu {

void run_on_cuda_thread(std::function<void()> task);

template <class F>
std::future<std::invoke_result_t<F>> cuda_async(F&& f) {
  auto task = std::make_shared<std::packaged_task<std::invoke_result_t<F>()>>(std::forward<F>(f));
  auto result = task->get_future();
  run_on_cuda_thread([task] { (*task)(); });
  return result;
}

}  // namespace cuzk::gpu

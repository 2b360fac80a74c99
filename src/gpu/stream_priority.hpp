#pragma once
// Which CUDA stream priority the calling thread's new streams get (stream_t).
// Plain C++, no CUDA types, so engine code sets it in every build: a thread
// that proves only critical work (the engine's critical prove workers) asks
// for the device's greatest priority, and the block scheduler then starts
// the blocks of its kernels ahead of those of default-priority streams as
// SMs free up (nothing running is preempted). Header-only: the flag is one
// inline thread_local, shared by the nvcc- and the g++-compiled objects.
namespace cuzk::gpu {

namespace stream_priority_detail {
inline thread_local bool high = false;
}  // namespace stream_priority_detail

// Streams this thread creates from now on: greatest priority (high) or the default.
inline void set_thread_stream_priority(bool high) { stream_priority_detail::high = high; }
inline bool thread_stream_priority_high() { return stream_priority_detail::high; }

// Sets the calling thread's flag for a scope (at least `high`: a thread that
// already asks for the greatest priority keeps it), then restores it.
class scoped_stream_priority {
 public:
  explicit scoped_stream_priority(bool high) : before_(thread_stream_priority_high()) {
    set_thread_stream_priority(before_ || high);
  }
  ~scoped_stream_priority() { set_thread_stream_priority(before_); }
  scoped_stream_priority(const scoped_stream_priority&) = delete;
  scoped_stream_priority& operator=(const scoped_stream_priority&) = delete;

 private:
  bool before_;
};

}  // namespace cuzk::gpu

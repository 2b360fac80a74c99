#pragma once
// Owns one file descriptor; closes it on destruction. release() gives it
// away (to gRPC, which closes it with its connection).
#include <unistd.h>

#include <utility>

namespace cuzk::service {

class unique_fd_t {
 public:
  unique_fd_t() = default;
  explicit unique_fd_t(int fd) : fd_(fd) {}
  unique_fd_t(unique_fd_t&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  unique_fd_t& operator=(unique_fd_t&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  ~unique_fd_t() { reset(); }

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

}  // namespace cuzk::service

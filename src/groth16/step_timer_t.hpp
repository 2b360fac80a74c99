#pragma once
// Wall time of each step of prove_start (host work, uploads and kernels
// together), appended to pending_proof_t::stage_ms for the engine's timeline:
// where prove_start goes is what to optimize next.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::groth16 {

class step_timer_t {
 public:
  explicit step_timer_t(std::vector<std::pair<std::string, double>>& out) : out_(out) {}
  // Ends the current step under `name` and starts the next.
  void lap(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    out_.emplace_back(name, std::chrono::duration<double, std::milli>(now - t_).count());
    t_ = now;
  }

 private:
  std::vector<std::pair<std::string, double>>& out_;
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};

}  // namespace cuzk::groth16

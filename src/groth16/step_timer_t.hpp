#pragma once
// Wall time of each step of prove_start (host work, uploads and kernels
// together), appended to pending_proof_t::stage_ms for the engine's timeline:
// where prove_start goes is what to optimize next.
#include <algorithm>
#include <chrono>
#include <initializer_list>
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
  // Ends the current step as consecutive parts: each named part takes its
  // given ms (clamped to what is left of the step, never negative), `last`
  // takes the remainder, so the parts still add up to the step's wall time.
  void lap_parts(std::initializer_list<std::pair<const char*, double>> parts, const char* last) {
    const auto now = std::chrono::steady_clock::now();
    double left = std::chrono::duration<double, std::milli>(now - t_).count();
    for (const auto& [name, ms] : parts) {
      const double take = std::clamp(ms, 0.0, left);
      out_.emplace_back(name, take);
      left -= take;
    }
    out_.emplace_back(last, left);
    t_ = now;
  }

 private:
  std::vector<std::pair<std::string, double>>& out_;
  std::chrono::steady_clock::time_point t_ = std::chrono::steady_clock::now();
};

}  // namespace cuzk::groth16

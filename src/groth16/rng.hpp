#pragma once
// Randomness for toxic waste and for the prover's r, s. os_rng reads the
// kernel CSPRNG (getrandom); seeded_rng is a reproducible stream for
// development parameters and tests only (--seed), never for production keys.
#include <sys/random.h>

#include <cstdint>
#include <random>
#include <stdexcept>

namespace cuzk::groth16 {

class os_rng {
 public:
  using result_type = uint64_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return UINT64_MAX; }
  result_type operator()() {
    if (pos_ == std::size(buf_)) refill();
    return buf_[pos_++];
  }

 private:
  void refill() {
    auto* p = reinterpret_cast<uint8_t*>(buf_);
    size_t need = sizeof(buf_);
    while (need) {
      ssize_t got = ::getrandom(p, need, 0);
      if (got < 0) throw std::runtime_error("getrandom failed");
      p += got;
      need -= size_t(got);
    }
    pos_ = 0;
  }
  uint64_t buf_[32];
  size_t pos_ = std::size(buf_);
};

using seeded_rng = std::mt19937_64;

}  // namespace cuzk::groth16

#pragma once
// groth16::prove_start / finalize on the host. Stateless, so any number of
// workers may share one instance.
#include "engine/prove_backend_t.hpp"

namespace cuzk::engine {

class cpu_backend_t final : public prove_backend_t {
 public:
  explicit cpu_backend_t(uint32_t devices = 1) : devices_(devices ? devices : 1) {}

  std::string name() const override { return "cpu"; }
  uint32_t device_count() const override { return devices_; }
  // groth16::prove_start forms a compact witness's rows (the "rows" step)
  // right where it would read them: a, b, c are not held between synthesis
  // and proving.
  bool compact_witness() const override { return true; }
  groth16::pending_proof_t prove_start(uint32_t, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override {
    return groth16::prove_start(params, std::move(witness));
  }
  groth16::proof_t finalize(uint32_t, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override {
    return groth16::finalize(params, std::move(pending), r, s);
  }

 private:
  uint32_t devices_;
};

}  // namespace cuzk::engine

#pragma once
// Groth16 setup with the batched fixed-base multiplications (H, IC, L, A,
// B_g1: G1; B_g2: G2) on the GPU (gpu/fixed_base.hpp) and everything else as
// in setup.cpp, so for the same toxic waste the parameters are identical to
// the CPU setup's, byte for byte. For large random development circuits;
// throws std::runtime_error where there is no GPU.
#include "groth16/setup.hpp"

namespace cuzk::groth16 {

// The GPU's multiplications, for generate_parameters(circuit, tw, muls).
setup_muls_t gpu_setup_muls();

parameters_t generate_parameters_gpu(const circuits::any_circuit& circuit, const toxic_waste_t& tw,
                                     std::vector<std::pair<std::string, double>>* stage_ms = nullptr);

}  // namespace cuzk::groth16

#pragma once
// Knobs for tests and benchmarks; the defaults are what production should use.
namespace cuzk::msm {

// Whether scalars 0 and 1 are taken out of Pippenger: 0 is dropped, 1 goes to
// a plain sum of bases (affine batch addition), the rest to Pippenger.
enum class bit_split { automatic, always, never };

struct msm_options {
  unsigned window_bits = 0;  // 0: chosen from the number of points and threads
  bit_split split = bit_split::automatic;
};

}  // namespace cuzk::msm

#pragma once
// Knobs of the GPU MSM for tests and benchmarks; zeros pick the defaults
// (msm_plan::make), which are what production should use.
#include <cstddef>
#include <cstdint>

namespace cuzk::gpu {

// Where one MSM's time went, from CUDA events between the stages (filled
// when msm_config::stages is set; the events cost a few microseconds).
struct msm_stage_ms {
  double prepare = 0;     // scalars to canonical form, census, compaction of the others, sum of the ones
  // digits and radix sorts, all batches (overlapped: the second stream's
  // time in them, spent beside the accumulation)
  double sort = 0;
  double accumulate = 0;  // bucket sums and fix-up, all batches (overlapped: the windows' whole phase)
  double reduce = 0;      // bucket reduction and window sums, copy to the host
  uint32_t c = 0, windows = 0, batches = 0;
  size_t others = 0;  // scalars other than 0 and 1 (through Pippenger)
};

// How bucket sums are formed: XYZZ accumulators per chunk of sorted entries
// (msm_algo.cuh); affine additions in rounds sharing batched inversions
// (msm_affine.cuh); or affine sums of `lanes` chunks per thread in lock step,
// one binary-GCD inversion per step (msm_lanes.cuh). affine and lanes are G1
// only; G2 always uses XYZZ.
enum class msm_sums : uint8_t { automatic, xyzz, affine, lanes };

// When the windows' digits and radix sorts run (XYZZ sums only; affine and
// lanes always sort in turn): on a second stream, each window's sort beside
// the accumulation of the window before it (overlapped: the sorts are
// memory-bound and the accumulation is bound by integer products), or each
// batch's windows sorted, then summed, on one stream (in_turn). automatic:
// overlapped for G1 where the windows take more than one batch (2^26 and
// 2^27 points: -3 % on an H100), in turn otherwise (G1 2^24 the same either
// way; G2 2^22 +15 % and 2^24 +1 % overlapped, where each window's own
// launch costs more than the sorts it hides; BENCHMARKS.md, session 32).
// overlapped runs the sorts at the accumulation's stream priority;
// overlapped_above one priority step above it, which gives back nothing (G1
// 2^27 on an H100: 866 ms against 836 overlapped and 865 in turn; session 33).
enum class msm_sort : uint8_t { automatic, overlapped, in_turn, overlapped_above };

// The G1 MSM's Fp forms (msm_timer::msm_ms_fp and the probes compare them on
// one GPU): values below p (fp_d); below 2p, products without their final
// subtraction (fp_lazy_unfused_d); and the same with each formula's
// a·b - c·d in one Montgomery reduction (fp_lazy_d, the MSM's).
enum class fp_form : uint8_t { below_p, below_2p, below_2p_fused };

// The G2 MSM's Fp2 products: three Montgomery reductions (fp2_d), two
// (fp2_lazy_d, the MSM's), or two with each formula's a·b - c·d in two
// reductions instead of four (fp2_lazy_fused_d; values below p only).
enum class fp2_product : uint8_t { three_reductions, two_reductions, two_reductions_fused };

struct msm_config {
  uint32_t window_bits = 0;  // 0: cost model over the count of scalars other than 0 and 1
  size_t chunk = 0;          // sorted entries per accumulation thread; 0: spread over `threads`
  size_t threads = 0;        // accumulation threads to aim for per batch; 0: 2^17
  size_t batch_entries = 0;  // digit entries per batch of windows (16 bytes of scratch each); 0: 2^28
  double bucket_weight = 0;  // cost of a bucket in mixed additions for the window choice; 0: default
  msm_stage_ms* stages = nullptr;
  msm_sums sums = msm_sums::automatic;
  msm_sort sort = msm_sort::automatic;
  size_t affine_slice = 0;  // sorted entries per affine pass (scratch ~100 bytes each); 0: 2^25
  // Chunks per thread for msm_sums::lanes: 8, 16 or 32 (0: 16); `threads`
  // then counts threads of that many lanes (0: 2^16). Measured slower than
  // XYZZ (BENCHMARKS.md, "Affine lanes"), so no prover selects it, and
  // msm_plan::scratch_bytes does not count its K times as many chunk parts.
  uint32_t lanes = 0;
  // Blocks of 128 threads per SM the G1 XYZZ accumulation is compiled for:
  // 1 (unbounded: 172 registers, 2 blocks fit), 3 (<= 168), 4 (<= 128, a few
  // spills); 0: 4, the fastest on an H200 (G1 2^27 942 ms against 968 and
  // 973, 2^26 484 against 492 and 489). G2 is always unbounded.
  uint32_t accumulate_blocks = 0;
  // Free the base set's scratch when the run ends (stream-ordered) instead
  // of keeping it for the next: for a caller that runs its base sets one
  // after another and cannot hold every set's scratch at once (gpu_prover_t
  // in its lean placement).
  bool release_scratch = false;
};

}  // namespace cuzk::gpu

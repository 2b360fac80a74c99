#pragma once
// prove_start on the GPU, behind the same pending_proof_t / finalize API as
// the CPU prover (prover.hpp), so its proofs verify with our verifier and,
// for the same r and s, are byte-identical to the CPU's.
//
// The H, L, A, B_g1 and B_g2 bases are placed when the prover is built, each
// in a residency tier (gpu/residency.hpp) planned from the device's free
// memory less the proofs' working memory: on the device (uploaded once, with
// the NTT domain's tables), or left in host memory, pinned or pageable, and
// streamed by each MSM. Per proof: H = (AB - C)/Z by
// gpu::compute_h_resident (a, b, c up through pinned staging, H left on the
// device for its MSM); the L, A, B_g1 and B_g2 MSMs run meanwhile on their
// own threads and streams (the A and B queries' scalars compacted to their
// density on the device). Every result is in before prove_start returns.
// Throws like prove_start; std::runtime_error where there is no GPU.
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <utility>

#include "gpu/compiled_rows.hpp"
#include "gpu/msm_bases.hpp"
#include "gpu/ntt.hpp"
#include "gpu/residency.hpp"
#include "groth16/param_io.hpp"
#include "groth16/parameters_t.hpp"
#include "groth16/prover.hpp"
#include "groth16/step_timer_t.hpp"
#include "poly/domain.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::groth16 {

struct gpu_prover_options_t {
  // false runs every step in turn on the calling thread, so stage_ms holds
  // each step's own time (the per-stage breakdown of
  // bench/groth16/bench_gpu_prove_start.cpp and `cuzk bench --gpu-in-turn`).
  bool overlap = true;
  gpu::residency_policy_t residency;  // auto: device first, the rest pinned
  uint32_t proofs_in_flight = 2;      // concurrent prove_start calls the reserve is planned for
  // Streamed tiers' window; 0 = msm_bases' default, halved (down to 2^20)
  // until the plan fits the device; a value given here is kept as is.
  size_t window_points = 0;
  // true: the engine page-locks each witness's a, b, c and aux assignment in
  // place after synthesis (pin_witness), so prove_start uploads them by DMA,
  // and keeps the locked buffers for later partitions instead of freeing
  // them (engine: r1cs::buffer_pool_t, paid from the memory budget), so only
  // the first partitions of a shape pay for locking. Measured on the H200,
  // 32 GiB PoRep: 31.7 -> 24.7 s/proof pipelined, prove_start in turn
  // 2.82 -> 1.76 s. Locked per partition without the pool it was slower
  // than staging (locking ~0.86 s, unlocking ~1 s per partition)
  // (BENCHMARKS.md, "GPU: witness buffers page-locked in place").
  bool pin_witness = true;
  // The MSM scratch (msm_plan::scratch_bytes per query, ~12 GiB for 2^27
  // points): kept per query between proofs, the five MSMs of a proof
  // running at once (per_query), or released after each MSM, the MSMs of a
  // proof one after another (one_at_a_time: the reserve holds one MSM's
  // scratch per proof in flight instead of five). auto: one_at_a_time where
  // its smaller reserve lets every query live on the device (32 GiB
  // WindowPoSt: 57 GiB of points, BENCHMARKS.md) or streams fewer bytes per
  // proof (32 GiB PoRep on an 80 GB H100, one proof in flight: most of the
  // points on the device instead of none); per_query otherwise.
  enum class msm_scratch_t : uint8_t { automatic, per_query, one_at_a_time };
  msm_scratch_t msm_scratch = msm_scratch_t::automatic;
  // Accumulation threads each MSM aims for (gpu::msm_config::threads); 0 =
  // the default 2^17. More threads sum shorter chunks, so each block of the
  // long PoRep accumulations ends sooner and a WinningPoSt's kernels on
  // high-priority streams wait less for SMs (blocks are never preempted);
  // what it costs the MSM itself: BM_gpu_msm_g1 threads_log rows. A power of
  // two in [2^12, 2^22] (check_msm_threads).
  size_t msm_threads = 0;
  // Window width of the H MSM (gpu::msm_config::window_bits). 22 bits sum
  // 12 windows instead of 13 (G1 2^27 on an H200: 903 ms against 932) for
  // 3.28 GiB more bucket scratch per proof, which the plan charges
  // (working_bytes). 0 = automatic: wide_h_window_bits where H has at least
  // wide_h_min_points points and the wider scratch leaves the placement as
  // it is (the same queries on the device, the same windows, the MSMs run
  // the same way), else the cost model's (20 bits at 2^27). In [2, 22]
  // (check_h_window_bits).
  uint32_t h_window_bits = 0;
  static constexpr uint32_t wide_h_window_bits = 22;
  static constexpr uint64_t wide_h_min_points = uint64_t(1) << 26;
  // Device working memory the plan keeps at least, beside rows_bytes: the
  // largest reserve of the provers of other parameter sets already built on
  // the same device (gpu_backend_t). Their proofs and this set's share the
  // device's prove workers, so the device must hold every set's bases plus
  // the largest set's working memory, which its free memory does not show
  // while their scratch is not allocated. Not added to a given
  // device_reserve. 0: none.
  uint64_t reserve_floor = 0;
  // Device bytes of the compiled rows this parameter set's compact witnesses
  // bring (gpu::device_rows_t, uploaded on the first one and kept with the
  // prover: 327 MiB at 32 GiB PoRep), planned into the reserve beside the
  // proofs' working memory (not added to a given device_reserve). 0: none.
  uint64_t rows_bytes = 0;
};

// Throws std::invalid_argument naming the value unless it is 0 or a power of
// two in [2^12, 2^22].
void check_msm_threads(uint64_t threads);
// Throws std::invalid_argument naming the value unless it is 0 or in [2, 22].
void check_h_window_bits(uint64_t bits);

// "auto", "per-query", "one-at-a-time"; std::invalid_argument otherwise.
gpu_prover_options_t::msm_scratch_t parse_msm_scratch(std::string_view s);

class gpu_prover_t {
 public:
  // The query names, in the order of residency().tiers.
  static constexpr std::string_view query_names[5] = {"h", "l", "a", "b_g1", "b_g2"};

  // The points of params' streamed queries must outlive the prover (they are
  // read per proof); those of its device queries only the constructor reads.
  // Throws std::runtime_error when the plan does not fit the
  // device's free memory (gpu::plan_residency).
  explicit gpu_prover_t(const parameters_t& params, gpu_prover_options_t options = {});

  // A deferred witness whose evaluator has a device form
  // (row_evaluator_t::view) has its rows formed and checked on the GPU
  // (gpu::form_rows, the matrices uploaded on first use and kept with the
  // prover); another deferred witness is materialized on the host first.
  pending_proof_t prove_start(r1cs::witness_cs&& witness) const;
  // Device bytes of the compiled rows held (0 before a compact witness came).
  std::size_t device_rows_bytes() const;

  // Page-locks a, b, c (their whole capacity: the padding to the domain
  // stays in place) and the aux assignment, those of >= 2 MiB (smaller ones
  // are not worth a registration), until they are freed
  // (gpu::pin_until_freed), so prove_start's uploads become DMA at ~55 GB/s.
  // The locking is the caller's time: ~0.35 s for a 32 GiB PoRep partition's
  // 16 GiB on an idle H200 host, ~0.86 s while synthesis runs. Throws
  // std::runtime_error when the driver refuses; what was pinned before stays
  // pinned until freed.
  static void pin_witness(const r1cs::witness_cs& witness);

  const gpu::residency_plan_t& residency() const { return plan_; }
  // The queries this prover holds on the device (bit q for query_names[q]):
  // it never reads their host points again, so their owner may free them
  // (gpu_backend_t::release_host_copy). prove_start checks witnesses
  // against the sizes recorded when the prover was built.
  uint32_t device_queries() const;
  // Points per upload window of the streamed queries.
  size_t window_points() const { return window_; }

  // Estimated device working memory of the proofs over params, worst case:
  // per proof in flight, the NTT vectors a, b, c and the aux scalars with
  // their A and B compactions; per query, the MSM scratch of a run in which
  // no scalar is 0 or 1 (scratch is kept between proofs); the NTT tables.
  // For 32 GiB PoRep (domain 2^27) on a 141 GB H200 it leaves room for H,
  // B_g1 and B_g2 with 2 proofs in flight (auto streams L and A, 23 GiB per
  // proof) and for windows only with 3 (BENCHMARKS.md).
  // one_at_a_time: the same per proof, plus per proof one MSM's scratch
  // (the largest query's) in place of every query's.
  // msm_threads, h_window_bits: gpu_prover_options_t's (0 = the defaults).
  static uint64_t working_bytes(const query_sizes_t& sizes, uint32_t proofs_in_flight, bool one_at_a_time = false,
                                size_t msm_threads = 0, uint32_t h_window_bits = 0);

  // true when the MSMs run one after another, each releasing its scratch
  // (gpu_prover_options_t::msm_scratch, as planned).
  bool one_msm_at_a_time() const { return one_at_a_time_; }
  // The H MSM's window width as planned (0: the cost model's).
  uint32_t h_window_bits() const { return h_window_bits_; }
  // The device working memory its plan reserved for its proofs (plan_t::working).
  uint64_t working_reserve() const { return working_; }

  struct plan_t {
    gpu::residency_plan_t residency;
    size_t window = 0;
    bool one_at_a_time = false;
    uint32_t h_window_bits = 0;  // the H MSM's width, resolved (0: the cost model's)
    uint64_t working = 0;        // the working memory reserved, rows_bytes not included
  };
  // The placement of queries of these sizes in `device_free` bytes (what
  // the constructor does with the device's free memory): the residency
  // tiers, the streamed window, whether the MSMs run one at a time, and the
  // H MSM's window width.
  static plan_t plan(const query_sizes_t& sizes, const gpu_prover_options_t& options, uint64_t device_free);
  // Fewer prove workers per device that would stream fewer bytes per proof
  // (each proof in flight reserves working memory the queries could use): the
  // count that streams the fewest, and its plan; nullopt where none does, or
  // where the operator fixed the reserve or the tier. A hint for operators
  // (the engine logs it; `cuzk circuit-info --gpu-memory` prints it), not a
  // choice made for them: the workers serve every parameter set of a device.
  // 32 GiB PoRep on an 80 GB H100: 1 worker streams 5.92 GiB per partition
  // instead of 44.12, 20.0 against 28.9 s/proof (BENCHMARKS.md).
  struct fewer_workers_t {
    uint32_t workers;
    plan_t plan;
    uint64_t streamed_now = 0;  // bytes streamed per proof with the options' workers
  };
  static std::optional<fewer_workers_t> fewer_workers(const query_sizes_t& sizes, const gpu_prover_options_t& options,
                                                      uint64_t device_free);
  // Placed in `device_free` bytes instead of the device's free memory (the
  // backend's joint plan leaves room for parameter sets of higher priority).
  gpu_prover_t(const parameters_t& params, gpu_prover_options_t options, uint64_t device_free);
  // Parameters read query by query (issue 18): the queries in `unread` (bit
  // q of query_names) are empty in params and are read from `file` straight
  // onto the device, load_chunk_points at a time through one host buffer,
  // with `chk`'s subgroup checks; the others come from params as above, and
  // the sizes from the file. Throws std::runtime_error when the plan for
  // `device_free` bytes does not put every unread query on the device, and
  // format_error on a bad point.
  gpu_prover_t(const parameters_t& params, const parameter_file_t& file, uint32_t unread, ec::subgroup_check chk,
               gpu_prover_options_t options, uint64_t device_free);
  // Points per piece of an unread query's load: 2^22 (384 MiB of G1, 768
  // MiB of G2 points in host memory at a time).
  static constexpr size_t load_chunk_points = size_t(1) << 22;
  // The queries these options would put on the device for query sizes
  // `sizes` in `device_free` bytes (bit q of query_names).
  static uint32_t device_queries(const query_sizes_t& sizes, const gpu_prover_options_t& options, uint64_t device_free);

 private:
  gpu_prover_t(const parameters_t& params, const parameter_file_t* file, uint32_t unread, ec::subgroup_check chk,
               gpu_prover_options_t options, plan_t plan);

  // The L, A, B MSMs from the aux scalars on the device, and H from h_of.
  pending_proof_t msms_and_h(const r1cs::witness_cs& w, gpu::device_scalars&& aux, const poly::domain_t& d,
                             step_timer_t& steps, pending_proof_t&& out,
                             const std::function<gpu::device_scalars(gpu::compute_h_times*)>& h_of) const;
  const gpu::device_rows_t& device_rows(const r1cs::compiled_rows_view_t& view) const;

  mutable std::mutex rows_mutex_;
  mutable std::unique_ptr<gpu::device_rows_t> rows_;
  mutable const void* rows_coeffs_ = nullptr;
  query_sizes_t sizes_;
  bool overlap_;
  bool one_at_a_time_;
  size_t msm_threads_;
  uint32_t h_window_bits_;
  uint64_t working_;
  gpu::residency_plan_t plan_;
  size_t window_;
  gpu::msm_bases<ec::g1_curve> h_, l_, a_, b_g1_;
  gpu::msm_bases<ec::g2_curve> b_g2_;
};

}  // namespace cuzk::groth16

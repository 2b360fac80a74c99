#pragma once
// prove_backend_t on CUDA GPUs: prove_start through groth16::gpu_prover_t
// (compute_h and every MSM on the device), finalize on the host as on the CPU
// backend. Backend device i is GPU ordinal devices[i].
//
// One gpu_prover_t (its H/L/A/B_g1/B_g2 bases placed by its residency plan:
// on the GPU where they fit, else streamed from host memory) per
// (parameters, device), built by prepare or else by the first prove_start that needs it, and kept
// for every later proof: building uploads the bases, which for a 2^27-domain
// circuit is tens of GiB and seconds of PCIe time. Workers sharing a device
// share its prover; gpu::msm_bases serializes the MSMs of one base set, so
// the only lock here is around finding / building a prover.
//
// A cached prover is keyed by the parameters' address and checked against
// their base vectors' storage, so parameters freed and reloaded at the same
// address get a fresh prover, never a stale one. `forget` drops the provers
// of one parameter set (the engine calls it when it frees parameters); a
// proof in flight keeps its prover alive until it returns.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/prove_backend_t.hpp"
#include "groth16/gpu_prover.hpp"

namespace cuzk::engine {

class gpu_backend_t final : public prove_backend_t {
 public:
  // GPU ordinals; [] = every usable GPU. Throws std::runtime_error when there
  // is none (or the build has no CUDA) and std::invalid_argument for an
  // ordinal that does not exist.
  // options: how every prover is built (residency policy, proofs in flight per
  // device for its memory reserve, in-turn steps for breakdowns).
  explicit gpu_backend_t(std::vector<uint32_t> devices = {}, groth16::gpu_prover_options_t options = {});

  std::string name() const override { return "cuda"; }
  uint32_t device_count() const override { return uint32_t(devices_.size()); }
  groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                       r1cs::witness_cs&& witness) override;
  // Builds the prover of `params` on every device now (uploads the bases).
  void prepare(const groth16::parameters_t& params) override;
  // Records the claim; a prover built later for a claimed set plans its
  // queries in the device's free memory less what it leaves for the unbuilt
  // sets of higher rank (gpu::held_for_higher_ranks). Provers already built
  // keep their placement.
  void claim_residency(const std::string& circuit_id, uint32_t rank, uint64_t bytes,
                       const groth16::parameters_t* params) override;
  // Page-locks a, b, c and the aux assignment (gpu_prover_t::pin_witness);
  // where the driver refuses, warns once and leaves them to the staged path.
  void prepare_witness(r1cs::witness_cs& witness) noexcept override;
  // With pin_witness: locked buffers are kept for the next partitions.
  bool pools_witness() const override { return options_.pin_witness; }
  // The prover forms a compact witness's rows on the device (gpu::form_rows).
  bool compact_witness() const override { return true; }
  partition_footprint_t footprint(const r1cs::shape_counts_t& s, const witness_form_t& form) const override {
    return form.compact ? gpu_compact_partition_footprint(s, form.wide_bound) : gpu_partition_footprint(s);
  }
  // A compact witness with a device form: its own bytes (the packed aux and
  // the inputs) and the density bitmaps prove_start adds; a, b, c never
  // exist on the host. nullopt for any other witness.
  std::optional<uint64_t> witness_held_bytes(const r1cs::witness_cs& w) const override {
    return compact_witness_held_bytes(w);
  }
  // The GPU's name and its memory, total and free now.
  gpu::device_info_t describe(uint32_t device) const override;
  groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params, groth16::pending_proof_t&& pending,
                            const ff::fr_t& r, const ff::fr_t& s) override;

  // Builds params' prover on every device, then frees the host vectors of
  // the queries every device's plan put on the device (at 32 GiB PoRep on an
  // H200: H, B_g1 and B_g2), updating the provers' identity so they stay in use.
  uint64_t release_host_copy(groth16::parameters_t& params) override;
  // Records them with the circuit's claim; its provers built from then on
  // plan them into their reserve (gpu_prover_options_t::rows_bytes).
  void claim_rows(const std::string& circuit_id, uint64_t bytes) override;
  // The queries every device's plan would hold now for a set of these
  // sizes, beside the claims (its own among them, made before).
  uint32_t device_queries_for(const std::string& circuit_id, const groth16::query_sizes_t& sizes) override;
  // Builds params' prover on every device, the `unread` queries read from
  // the file straight onto it (gpu_prover_t's file constructor). Throws when
  // a device's plan no longer holds one of them.
  void prepare_from_file(const groth16::parameters_t& params, uint32_t unread, const groth16::parameter_file_t& file,
                         ec::subgroup_check chk) override;
  // Frees the resident bases of `params` on every device.
  void forget(const groth16::parameters_t& params) override;
  // Provers built so far (tests: one per parameter set and device).
  size_t provers_built() const;
  // The residency plan of params' prover on backend device `device`;
  // nullopt when none is built.
  std::optional<gpu::residency_plan_t> placement(uint32_t device, const groth16::parameters_t& params) const;
  // The working memory params' prover on `device` reserved for its proofs
  // (gpu_prover_t::working_reserve: at least the other sets' there when it
  // was built); nullopt when none is built.
  std::optional<uint64_t> working_reserve(uint32_t device, const groth16::parameters_t& params) const;

 private:
  // What a cached prover was built from; a mismatch means other parameters
  // now live at that address.
  struct identity_t {
    const void* h = nullptr;
    const void* l = nullptr;
    const void* a = nullptr;
    const void* b_g1 = nullptr;
    size_t sizes = 0;
    bool operator==(const identity_t&) const = default;
  };
  struct claim_t {
    uint32_t rank = 0;
    uint64_t bytes = 0;
    const groth16::parameters_t* params = nullptr;  // the loaded set, if any
    uint64_t built_on = 0;                          // bit d: its prover exists on device d
    uint64_t rows_bytes = 0;                        // claim_rows
    // Its parameters are freed: the claim stays, unbuilt, for a reload.
    void drop_params() { params = nullptr, built_on = 0; }
  };
  struct slot_t {
    std::mutex mu;  // held while the prover is built (uploading the bases)
    identity_t identity;
    std::shared_ptr<const groth16::gpu_prover_t> prover;
    // Its prover's working reserve (gpu_prover_t::working_reserve; 0: none
    // built), read under mu_ without mu for the other sets' reserve floor.
    std::atomic<uint64_t> working{0};
    void drop() { prover.reset(), working = 0; }  // its lock held
  };
  static identity_t identity_of(const groth16::parameters_t& p);
  // The GPU ordinal of backend device `device`; std::invalid_argument when out of range.
  int ordinal(uint32_t device) const;
  // Makes the device current on the calling thread, then finds or builds its prover.
  std::shared_ptr<const groth16::gpu_prover_t> prover_for(uint32_t device, const groth16::parameters_t& params);
  // Of `free` bytes on `device`, those params' prover leaves for unbuilt
  // claims of higher rank, and the first such claim's id (for the log).
  std::pair<uint64_t, std::string> held_for_others(uint32_t device, const groth16::parameters_t& params,
                                                   uint64_t free) const;
  // The same for the claim of circuit `self` (empty: none).
  std::pair<uint64_t, std::string> held_for_claim(uint32_t device, const std::string& self, uint64_t free) const;
  // options_ for a prover on `device`: the rows of params' claim (of
  // circuit `id` when given), and as reserve floor the largest working
  // reserve of the provers of other sets built on that device (their proofs
  // share its workers with this set's: the device holds every set's bases
  // and the largest set's working memory, gpu_prover_options_t::reserve_floor).
  groth16::gpu_prover_options_t options_for(uint32_t device, const groth16::parameters_t* params,
                                            const std::string& id = {}) const;
  // The slot of (params, device), made if new.
  std::shared_ptr<slot_t> slot_of(const groth16::parameters_t& params, uint32_t device);
  // Records the prover just built in `slot` (its working reserve), logs and
  // counts it; the slot's lock held.
  void built(uint32_t device, const groth16::parameters_t& params, slot_t& slot);
  // Warns where fewer prove workers per device would stream fewer bytes per
  // proof of this set (gpu_prover_t::fewer_workers).
  void hint_fewer_workers(uint32_t device, const groth16::query_sizes_t& sizes, const groth16::gpu_prover_options_t& o,
                          uint64_t free) const;
  // Marks params' claim built on `device` (forget clears it).
  void mark_built(uint32_t device, const groth16::parameters_t& params);

  std::vector<uint32_t> devices_;
  groth16::gpu_prover_options_t options_;
  std::atomic<bool> pin_warned_{false};
  mutable std::mutex mu_;
  std::map<std::pair<const groth16::parameters_t*, uint32_t>, std::shared_ptr<slot_t>> slots_;
  std::map<std::string, claim_t> claims_;  // by circuit id
  // Parameter sets built by prepare_from_file: their unread queries are empty,
  // so no prover may be built from their host vectors.
  std::set<const groth16::parameters_t*> from_file_;
  size_t built_ = 0;
};

// True when this build has CUDA and a GPU of compute capability >= 9.0 exists.
bool gpu_available();

// A gpu_backend_t on `devices` ([] = every usable GPU); throws like its
// constructor, with a message saying why there is no GPU backend.
std::shared_ptr<prove_backend_t> make_gpu_backend(std::vector<uint32_t> devices = {},
                                                  groth16::gpu_prover_options_t options = {});

// "cpu", "cuda", or "auto" (cuda when gpu_available(), else cpu), as the
// daemon's gpus.backend and `cuzk bench --backend` spell them. Throws
// std::invalid_argument for another name, and like make_gpu_backend for
// "cuda" without a GPU.
// gpu_options apply to a CUDA backend only.
std::shared_ptr<prove_backend_t> make_backend(std::string_view kind, groth16::gpu_prover_options_t gpu_options = {});

}  // namespace cuzk::engine

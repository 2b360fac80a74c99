#pragma once
// The seam between the pipeline and whatever runs prove_start / finalize
// (groth16/prover.hpp): the CPU prover now, the CUDA prover later. Coarse on
// purpose: one virtual call per partition stage. "device" is the backend's own
// index (a GPU ordinal; the CPU backend ignores it beyond bookkeeping).
// Implementations must be callable from several threads at once.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/partition_footprint_t.hpp"
#include "gpu/device.hpp"
#include "groth16/param_io.hpp"
#include "groth16/prover.hpp"

namespace cuzk::engine {

class prove_backend_t {
 public:
  virtual ~prove_backend_t() = default;

  virtual std::string name() const = 0;
  virtual uint32_t device_count() const = 0;

  // Consumes the witness; a, b, c must be freed before it returns.
  virtual groth16::pending_proof_t prove_start(uint32_t device, const groth16::parameters_t& params,
                                               r1cs::witness_cs&& witness) = 0;
  // Readies `params` on every device before the first proof needs them (the
  // GPU backend uploads its resident bases: seconds for 32 GiB PoRep);
  // called when parameters are registered or preloaded. Default: nothing.
  virtual void prepare(const groth16::parameters_t&) {}
  // The engine's claim for circuit `circuit_id` on the devices (its priority
  // rank and bytes: gpu::residency_claim_t): with `params`, those are its
  // loaded parameters and their prover is placed beside the other claims
  // (it leaves room for higher ranks not loaded yet); null announces a set
  // to come (a preload). Called before prepare. Default: nothing.
  virtual void claim_residency(const std::string& circuit_id, uint32_t rank, uint64_t bytes,
                               const groth16::parameters_t* params) {
    (void)circuit_id, (void)rank, (void)bytes, (void)params;
  }
  // Prepares params on every device, then frees the host points of the
  // queries that every device now holds itself (the GPU's resident bases),
  // so they leave host memory; returns the bytes freed. This backend's
  // prove_start / finalize keep working on params; other backends (the CPU
  // fallback) need a complete copy. The caller guarantees that nothing else
  // reads params' vectors meanwhile. Default: frees nothing.
  virtual uint64_t release_host_copy(groth16::parameters_t&) { return 0; }
  // Device bytes of the compiled rows the compact witnesses of circuit
  // `circuit_id` bring (a backend that forms their rows on the device keeps
  // them beside its parameters): the GPU backend plans them into the memory
  // its provers of that circuit reserve. Called before its parameters are
  // prepared. Default: nothing.
  virtual void claim_rows(const std::string& circuit_id, uint64_t bytes) { (void)circuit_id, (void)bytes; }
  // Parameters read query by query (issue 18: they never sit whole in host
  // memory). The queries (bit q: h, l, a, b_g1, b_g2) this backend would hold
  // itself on every device for a set of these sizes, planned now beside the
  // claims made so far (claim_residency). The engine then leaves them out of
  // host memory and calls prepare_from_file. Default 0: it holds none, and
  // the engine reads whole files.
  virtual uint32_t device_queries_for(const std::string& circuit_id, const groth16::query_sizes_t& sizes) {
    (void)circuit_id, (void)sizes;
    return 0;
  }
  // prepare, for params whose queries in `unread` were never read (empty
  // vectors): the backend reads them from `file` itself, in pieces, with
  // `chk`'s subgroup checks. prove_start / finalize then work on params as
  // after release_host_copy. Throws when that fails (a device that can no
  // longer hold them, a bad point); the engine then reads the whole file.
  // Default: throws.
  virtual void prepare_from_file(const groth16::parameters_t& params, uint32_t unread,
                                 const groth16::parameter_file_t& file, ec::subgroup_check chk) {
    (void)params, (void)unread, (void)chk;
    throw std::logic_error("backend " + name() + " cannot load parameters from " + file.path() + " query by query");
  }
  // Drops whatever the backend keeps for params (the GPU's resident bases);
  // called before params are freed. Default: nothing.
  virtual void forget(const groth16::parameters_t&) {}
  // Readies a freshly synthesized witness for prove_start, on the synthesis
  // worker that made it, off the path that feeds the device: the GPU backend
  // page-locks its large buffers in place so that prove_start uploads them
  // by DMA instead of copying them through staging buffers. Must not throw.
  // Default: nothing.
  virtual void prepare_witness(r1cs::witness_cs&) noexcept {}
  // Whether the engine should keep witness buffers for later partitions
  // (r1cs::buffer_pool_t): the GPU backend's locked buffers, when prove_start
  // frees them inside a buffer_pool_t::keep_scope. Default: no.
  virtual bool pools_witness() const { return false; }
  // Whether this backend takes witnesses compact (r1cs::witness_cs::deferred)
  // by default: its prove_start forms their rows. Default: no.
  virtual bool compact_witness() const { return false; }
  // Host bytes one partition of this shape holds here (what the engine
  // reserves before synthesis); `form`: whether its witness comes compact
  // (r1cs::witness_cs::deferred) and how many of its values are at most
  // other than 0 and 1. Default: the CPU prover's, which forms a compact
  // witness's rows on the host, so the same either way.
  virtual partition_footprint_t footprint(const r1cs::shape_counts_t& shape, const witness_form_t& form) const {
    (void)form;
    return partition_footprint(shape);
  }
  // Host bytes a synthesized witness needs from here until prove_start
  // ends, when that is less than the footprint's working bytes: then the
  // engine returns the rest of the reservation right after synthesis.
  // nullopt: the footprint's working bytes stay reserved (default).
  virtual std::optional<uint64_t> witness_held_bytes(const r1cs::witness_cs&) const { return std::nullopt; }
  // What status reports show of backend device `device`: a name and memory
  // (0 = not known). Default: the backend's name. May throw.
  virtual gpu::device_info_t describe(uint32_t) const { return {name(), 0, 0}; }
  virtual groth16::proof_t finalize(uint32_t device, const groth16::parameters_t& params,
                                    groth16::pending_proof_t&& pending, const ff::fr_t& r, const ff::fr_t& s) = 0;
};

// groth16::prove_start / finalize on the host; `devices` lets tests and the
// bench pretend to have several devices (each is just a worker group).
std::shared_ptr<prove_backend_t> make_cpu_backend(uint32_t devices = 1);

}  // namespace cuzk::engine

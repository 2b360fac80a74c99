#pragma once
// What PoRep proving reuses per sector size: the partition circuit's shape,
// its layout (row and variable offsets of every step) and the compiled
// matrices. Built once (about a second at 32 GiB), then each partition's
// witness is the compiled path: values from the vanilla proof, a, b, c from
// the matrices, handed to the prover as an r1cs::witness_cs without copies.
#include <memory>

#include "circuits/porep_circuit.hpp"
#include "circuits/porep_compiled_t.hpp"
#include "circuits/porep_layout_t.hpp"
#include "porep/sector_params_t.hpp"
#include "porep/vanilla_proof_t.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::circuits {

class porep_synthesizer_t {
 public:
  explicit porep_synthesizer_t(const porep::sector_params_t& params);

  // One per sector size for the whole process, built on first use; safe to
  // call from several threads.
  static std::shared_ptr<const porep_synthesizer_t> for_sector(const porep::sector_params_t& params);

  const porep_circuit_shape_t& shape() const { return shape_; }
  const porep_layout_t& layout() const { return compiled_->layout(); }
  const porep_compiled_t& compiled() const { return *compiled_; }

  // The circuit of one partition (for its public inputs and description).
  // Throws std::invalid_argument when the proof's sector size is not this
  // synthesizer's or `partition` is out of range.
  porep_circuit circuit(const porep::vanilla_proof_t& proof, unsigned partition) const;

  // The witness of one partition, input rows included, ready for prove_start.
  // Runs in parallel on the calling thread's TBB arena.
  r1cs::witness_cs synthesize(const porep::vanilla_proof_t& proof, unsigned partition) const;
  r1cs::witness_cs synthesize(const porep_circuit& circuit) const;
  // The same witness compact (r1cs::witness_cs::deferred): the assignment
  // packed, the rows formed by the compiled matrices when the prover asks.
  r1cs::witness_cs synthesize_compact(const porep_circuit& circuit) const;

 private:
  std::uint64_t sector_bytes_;
  porep_circuit_shape_t shape_;
  std::shared_ptr<const porep_compiled_t> compiled_;
};

}  // namespace cuzk::circuits

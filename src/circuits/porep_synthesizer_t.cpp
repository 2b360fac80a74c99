#include "circuits/porep_synthesizer_t.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "circuits/porep_synthesis.hpp"
#include "circuits/porep_vanilla_witness.hpp"

namespace cuzk::circuits {

porep_synthesizer_t::porep_synthesizer_t(const porep::sector_params_t& params)
    : sector_bytes_(params.sector_bytes), shape_(porep_circuit_shape_t::for_sector(params)), compiled_([&] {
        const porep_circuit shape_only(shape_);
        return std::make_shared<const porep_compiled_t>(
            porep_compiled_t::compile(shape_only, porep_layout_t::measure(shape_only)));
      }()) {}

std::shared_ptr<const porep_synthesizer_t> porep_synthesizer_t::for_sector(const porep::sector_params_t& params) {
  static std::mutex m;
  static std::map<std::uint64_t, std::shared_ptr<const porep_synthesizer_t>> cache;
  std::lock_guard lock(m);
  auto& slot = cache[params.sector_bytes];
  if (!slot) slot = std::make_shared<const porep_synthesizer_t>(params);
  return slot;
}

porep_circuit porep_synthesizer_t::circuit(const porep::vanilla_proof_t& proof, unsigned partition) const {
  if (proof.params.sector_bytes != sector_bytes_) {
    throw std::invalid_argument("porep: the vanilla proof is for a sector of " + std::to_string(proof.params.sector_bytes) +
                                " bytes, this circuit for " + std::to_string(sector_bytes_));
  }
  return porep_circuit(shape_, porep_witness_from_vanilla(proof, partition));
}

r1cs::witness_cs porep_synthesizer_t::synthesize(const porep_circuit& circuit) const {
  return synthesize_porep_compiled(circuit, *compiled_).into_witness_cs();
}

r1cs::witness_cs porep_synthesizer_t::synthesize_compact(const porep_circuit& circuit) const {
  return into_deferred_witness(assign_porep_compiled(circuit, *compiled_, true), compiled_);
}

r1cs::witness_cs porep_synthesizer_t::synthesize(const porep::vanilla_proof_t& proof, unsigned partition) const {
  return synthesize(circuit(proof, partition));
}

}  // namespace cuzk::circuits

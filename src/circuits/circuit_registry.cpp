#include "circuits/circuit_registry.hpp"

#include <stdexcept>

#include "circuits/circuit_model.hpp"
#include "circuits/hash_chain_circuit.hpp"
#include "circuits/porep_partition_circuit_t.hpp"
#include "circuits/tiny_circuit.hpp"

namespace cuzk::circuits {

std::vector<std::string> circuit_names() { return {"tiny", "hash-chain"}; }

std::unique_ptr<any_circuit> make_circuit(std::string_view name, size_t size) {
  if (name == "tiny") return std::make_unique<circuit_model<tiny_circuit>>("tiny", tiny_circuit());
  if (name == "hash-chain") {
    auto c = hash_chain_circuit::from_constraints(size ? size : default_hash_chain_size);
    return std::make_unique<circuit_model<hash_chain_circuit>>("hash-chain", std::move(c));
  }
  if (name == "porep") {
    // size = sector bytes; without a witness (setup, shape). Not in circuit_names(): it has no
    // default witness; proofs come from `prove --kind porep --vanilla`.
    // The compiled circuit (shared per sector size) gives the setup its columns without a
    // key-generation pass.
    const auto params = porep::sector_params_for(size ? size : default_porep_sector_bytes);
    return std::make_unique<porep_partition_circuit_t>(porep_synthesizer_t::for_sector(params));
  }
  std::string known = "porep";
  for (const auto& n : circuit_names()) known += ", " + n;
  throw std::invalid_argument("unknown circuit '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace cuzk::circuits

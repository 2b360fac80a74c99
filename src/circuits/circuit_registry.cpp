#include "circuits/circuit_registry.hpp"

#include <stdexcept>

#include "circuits/circuit_model.hpp"
#include "circuits/hash_chain_circuit.hpp"
#include "circuits/porep_partition_circuit_t.hpp"
#include "circuits/post_partition_circuit_t.hpp"
#include "circuits/snap_circuit.hpp"
#include "circuits/snap_partition_circuit_t.hpp"
#include "porep/post_shape.hpp"
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
  if (name == "window-post" || name == "winning-post") {
    // size = sector bytes, as for "porep"; one partition without a witness
    // (setup, shape). Not in circuit_names() either.
    const auto kind = name == "window-post" ? porep::post_kind_t::window : porep::post_kind_t::winning;
    return std::make_unique<post_partition_circuit_t>(
        post_circuit(porep::post_shape_for(kind, size ? size : default_porep_sector_bytes)));
  }
  if (name == "snap") {
    // size = sector bytes (any size upstream allows); one partition without a
    // witness (setup, shape), compiled (setup reads the matrices).
    return std::make_unique<snap_partition_circuit_t>(
        snap_circuit(porep::snap_shape_for(size ? size : default_porep_sector_bytes)));
  }
  std::string known = "porep, window-post, winning-post, snap";
  for (const auto& n : circuit_names()) known += ", " + n;
  throw std::invalid_argument("unknown circuit '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace cuzk::circuits

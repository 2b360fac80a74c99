#pragma once
// One fallback PoSt partition as an any_circuit (the registry's
// "window-post" / "winning-post", and what a PoSt kind would hand the
// engine). prove_shape comes from one block's shape pass (post_circuit::
// counts) instead of a pass over all 2349 blocks; setup and proving use the
// generic synthesize. The key-generation default of qap_columns holds every
// term (about 3 x 10^8 at 32 GiB Window): fine for the test sizes, a
// compiled form like PoRep's is the way for the big ones.
#include <memory>
#include <string>
#include <vector>

#include "circuits/any_circuit.hpp"
#include "circuits/post_circuit.hpp"

namespace cuzk::circuits {

class post_partition_circuit_t final : public any_circuit {
 public:
  explicit post_partition_circuit_t(post_circuit circuit) : circuit_(std::move(circuit)) {}

  std::string name() const override { return post_kind_name(circuit_.shape().kind); }
  std::string description() const override { return circuit_.description(); }
  std::vector<ff::fr_t> public_inputs() const override { return circuit_.public_inputs(); }

  void synthesize(r1cs::witness_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::keygen_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::shape_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::test_cs& cs) const override { circuit_.synthesize(cs); }

  // Input rows (x * 0 = 0, one per input) included, as the prover counts.
  r1cs::shape_counts_t prove_shape() const override {
    r1cs::shape_counts_t c = circuit_.counts();
    c.num_constraints += c.num_inputs;
    return c;
  }

  const post_circuit& circuit() const { return circuit_; }

 private:
  post_circuit circuit_;
};

}  // namespace cuzk::circuits

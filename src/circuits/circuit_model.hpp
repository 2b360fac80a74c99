#pragma once
// Wraps any concrete circuit C as an any_circuit.
#include <string>
#include <utility>

#include "circuits/any_circuit.hpp"
#include "r1cs/circuit.hpp"

namespace cuzk::circuits {

template <r1cs::circuit C>
class circuit_model final : public any_circuit {
 public:
  circuit_model(std::string name, C circuit) : name_(std::move(name)), circuit_(std::move(circuit)) {}

  std::string name() const override { return name_; }
  std::string description() const override { return circuit_.description(); }
  std::vector<ff::fr_t> public_inputs() const override { return circuit_.public_inputs(); }

  void synthesize(r1cs::witness_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::keygen_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::shape_cs& cs) const override { circuit_.synthesize(cs); }
  void synthesize(r1cs::test_cs& cs) const override { circuit_.synthesize(cs); }

  const C& circuit() const { return circuit_; }

 private:
  std::string name_;
  C circuit_;
};

}  // namespace cuzk::circuits

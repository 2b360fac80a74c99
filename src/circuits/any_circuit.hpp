#pragma once
// A circuit chosen at run time (by name, from the CLI or a request): the one
// coarse seam where circuits are polymorphic. Each virtual forwards to the
// circuit's templated synthesize, so the arithmetic stays monomorphic.
#include <string>
#include <vector>

#include "r1cs/keygen_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::circuits {

class any_circuit {
 public:
  virtual ~any_circuit() = default;

  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Public inputs in allocation order, ONE excluded.
  virtual std::vector<ff::fr_t> public_inputs() const = 0;

  virtual void synthesize(r1cs::witness_cs& cs) const = 0;
  virtual void synthesize(r1cs::keygen_cs& cs) const = 0;
  virtual void synthesize(r1cs::shape_cs& cs) const = 0;
  virtual void synthesize(r1cs::test_cs& cs) const = 0;
};

}  // namespace cuzk::circuits

#pragma once
// What makes a type a circuit: one synthesize that runs in every mode.
#include "r1cs/keygen_cs.hpp"
#include "r1cs/shape_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

template <class C>
concept circuit = requires(const C& c, witness_cs& w, keygen_cs& k, shape_cs& s, test_cs& t) {
  c.synthesize(w);
  c.synthesize(k);
  c.synthesize(s);
  c.synthesize(t);
};

}  // namespace cuzk::r1cs

#include "circuits/hash_chain_native.hpp"

namespace cuzk::circuits {

using ff::fr_t;

fr_t hash_chain_round_constant(size_t i) {
  if (i < (size_t(1) << 21)) return fr_t::from_u64(uint64_t(i) * i * i + 42);
  fr_t x = fr_t::from_u64(i);
  return x.sqr() * x + fr_t::from_u64(42);
}

fr_t hash_chain_native(const fr_t& x0, size_t rounds) {
  fr_t x = x0;
  for (size_t i = 0; i < rounds; ++i) {
    fr_t t = x + hash_chain_round_constant(i);
    fr_t t2 = t.sqr();
    x = t2.sqr() * t;
  }
  return x;
}

}  // namespace cuzk::circuits

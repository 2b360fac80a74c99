#include "circuits/hash_chain_circuit.hpp"

#include <stdexcept>

namespace cuzk::circuits {

using ff::fr_t;

hash_chain_circuit::hash_chain_circuit(size_t rounds, std::optional<fr_t> x0) : rounds_(rounds), x0_(x0) {
  if (rounds_ == 0) throw std::invalid_argument("hash_chain_circuit: rounds must be at least 1");
}

hash_chain_circuit hash_chain_circuit::from_constraints(size_t target, std::optional<fr_t> x0) {
  if (target < constraints_per_round + num_inputs) {
    throw std::invalid_argument("hash_chain_circuit: target below one round (" + std::to_string(target) + ")");
  }
  return hash_chain_circuit((target - num_inputs) / constraints_per_round, x0);
}

hash_chain_circuit hash_chain_circuit::with_claimed_output(const fr_t& out) const {
  hash_chain_circuit c = *this;
  c.claimed_output_ = out;
  return c;
}

std::vector<fr_t> hash_chain_circuit::public_inputs() const {
  if (!x0_) throw std::logic_error("hash_chain_circuit: no witness");
  return {*x0_, claimed_output_ ? *claimed_output_ : hash_chain_native(*x0_, rounds_)};
}

std::string hash_chain_circuit::description() const {
  return "hash-chain: " + std::to_string(rounds_) + " rounds of x <- (x + k_i)^5; " +
         std::to_string(num_constraints()) + " constraints, 2 public inputs";
}

}  // namespace cuzk::circuits

#include "filecoin/seal_public_inputs.hpp"

#include <stdexcept>
#include <string>

#include "porep/challenges.hpp"
#include "porep/labeling.hpp"
#include "porep/stacked_graph_t.hpp"

namespace cuzk::filecoin {

namespace {

using ff::fr_t;

constexpr std::size_t inputs_per_challenge = 1 + porep::total_parents + 3;  // 18

void check_commitments(const fr_t& comm_r, const fr_t& comm_d) {
  if (comm_d == fr_t::zero()) throw std::invalid_argument("seal public inputs: all-zero comm_d");
  if (comm_r == fr_t::zero()) throw std::invalid_argument("seal public inputs: all-zero comm_r");
}

porep::stacked_graph_t graph_of(const porep_config_t& c) {
  return porep::stacked_graph_t(c.nodes(), c.porep_id, c.api_version);
}

std::vector<fr_t> partition_inputs(const porep_config_t& c, const porep::stacked_graph_t& g, const fr_t& comm_r,
                                   const fr_t& comm_d, const fr_t& replica_id, const porep::bytes32_t& seed,
                                   unsigned k) {
  const auto challenges = porep::partition_challenges(c.challenge_shape(), replica_id, comm_r, seed, k);
  std::vector<fr_t> in;
  in.reserve(3 + inputs_per_challenge * challenges.size());
  in.push_back(replica_id);
  in.push_back(comm_d);
  in.push_back(comm_r);
  for (const std::uint64_t ch : challenges) {
    const fr_t node = fr_t::from_u64(ch);
    in.push_back(node);  // Tree D inclusion of the data leaf
    for (const auto p : g.drg_parents(ch)) in.push_back(fr_t::from_u64(p));  // Tree C, DRG parent columns
    for (const auto p : g.exp_parents(ch)) in.push_back(fr_t::from_u64(p));  // Tree C, expander parent columns
    in.push_back(node);  // the challenge as UInt64 bits
    in.push_back(node);  // Tree R inclusion of the replica node
    in.push_back(node);  // Tree C inclusion of the challenged column
  }
  return in;
}

}  // namespace

fr_t seal_replica_id(const porep_config_t& config, const porep::bytes32_t& prover_id, std::uint64_t sector_id,
                     const porep::bytes32_t& ticket, const fr_t& comm_d) {
  return porep::compute_replica_id(prover_id, sector_id, ticket, comm_d, config.porep_id);
}

fr_t commitment_from_bytes(const porep::bytes32_t& bytes, const char* what) {
  auto v = fr_t::from_bytes_le(bytes);
  if (!v) throw std::invalid_argument(std::string(what) + " is not a canonical field element (>= r)");
  if (*v == fr_t::zero()) throw std::invalid_argument(std::string("all-zero ") + what);
  return *v;
}

std::size_t seal_public_input_count(const porep_config_t& config) {
  return 3 + inputs_per_challenge * config.challenges_per_partition();
}

std::vector<std::uint64_t> seal_partition_challenges(const porep_config_t& config, const fr_t& replica_id,
                                                     const fr_t& comm_r, const porep::bytes32_t& seed,
                                                     unsigned k) {
  return porep::partition_challenges(config.challenge_shape(), replica_id, comm_r, seed, k);
}

std::vector<fr_t> seal_public_inputs(const porep_config_t& config, const fr_t& comm_r, const fr_t& comm_d,
                                     const fr_t& replica_id, const porep::bytes32_t& seed, unsigned k) {
  check_commitments(comm_r, comm_d);
  return partition_inputs(config, graph_of(config), comm_r, comm_d, replica_id, seed, k);
}

std::vector<std::vector<fr_t>> seal_public_inputs_all(const porep_config_t& config, const fr_t& comm_r,
                                                      const fr_t& comm_d, const fr_t& replica_id,
                                                      const porep::bytes32_t& seed) {
  check_commitments(comm_r, comm_d);
  const auto g = graph_of(config);
  std::vector<std::vector<fr_t>> out;
  out.reserve(config.partitions);
  for (unsigned k = 0; k < config.partitions; ++k)
    out.push_back(partition_inputs(config, g, comm_r, comm_d, replica_id, seed, k));
  return out;
}

}  // namespace cuzk::filecoin

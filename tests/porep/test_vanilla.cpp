// gen -> check for every sector size and model, the JSON round trip, and
// corruptions that must be rejected with the corrupted element named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "porep/vanilla_checker.hpp"
#include "porep/vanilla_generator.hpp"
#include "porep/vanilla_json.hpp"

namespace cuzk::porep {
namespace {

constexpr std::uint64_t kib = 1024, mib = kib * 1024, gib = mib * 1024;

const vanilla_proof_t& proof_2k() {
  static const vanilla_proof_t p = generate_replicated(sector_params_for(2 * kib), 7);
  return p;
}

void expect_valid(const vanilla_proof_t& p) {
  auto f = check_vanilla(p);
  EXPECT_FALSE(f.has_value()) << f->element << ": " << f->reason;
}

void expect_failure_at(const vanilla_proof_t& p, const std::string& element) {
  auto f = check_vanilla(p);
  ASSERT_TRUE(f.has_value()) << "corruption of " << element << " was accepted";
  EXPECT_EQ(f->element, element) << f->reason;
}

TEST(PorepVanilla, Replicated2KiBChecksAndRoundTrips) {
  const auto& p = proof_2k();
  EXPECT_EQ(p.model, "replicated");
  ASSERT_EQ(p.partitions.size(), 1u);
  ASSERT_EQ(p.partitions[0].challenges.size(), 2u);
  expect_valid(p);
  auto j = vanilla_to_json(p);
  auto back = vanilla_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(vanilla_to_json(back), j);
  expect_valid(back);
  // Same seed, same sector; another seed, another one.
  EXPECT_EQ(generate_replicated(sector_params_for(2 * kib), 7).comm_r, p.comm_r);
  EXPECT_NE(generate_replicated(sector_params_for(2 * kib), 8).comm_r, p.comm_r);
}

TEST(PorepVanilla, Replicated8MiB) {
  auto p = generate_vanilla(sector_params_for(8 * mib), 3);
  EXPECT_EQ(p.model, "replicated");
  expect_valid(p);
}

TEST(PorepVanilla, Sparse2KiBWithOverlappingParents) {
  // 64 nodes: challenges and parents collide often, which exercises the
  // recursive labels of the sparse model.
  for (std::uint64_t seed = 0; seed < 4; ++seed) expect_valid(generate_sparse(sector_params_for(2 * kib), seed));
}

TEST(PorepVanilla, Sparse512MiB) {
  auto p = generate_vanilla(sector_params_for(512 * mib), 5);
  EXPECT_EQ(p.model, "sparse");
  expect_valid(p);
}

TEST(PorepVanilla, Sparse32GiBAnd64GiB) {
  auto p = generate_vanilla(sector_params_for(32 * gib), 11);
  EXPECT_EQ(p.partitions.size(), 10u);
  EXPECT_EQ(p.partitions[9].challenges.size(), 18u);
  EXPECT_EQ(p.partitions[0].challenges[0].tree_r.siblings.size(), 10u);
  expect_valid(p);
  auto q = generate_vanilla(sector_params_for(64 * gib), 12);
  EXPECT_EQ(q.partitions[0].challenges[0].tree_r.siblings.back().size(), 1u);  // the binary top
  EXPECT_EQ(q.partitions[0].challenges[0].tree_d.siblings.size(), 31u);
  expect_valid(q);
}

TEST(PorepVanilla, CorruptionsNameTheElement) {
  const std::string c0 = "partitions[0].challenges[0]", c1 = "partitions[0].challenges[1]";
  {  // one byte of a label of the challenged column
    auto p = proof_2k();
    auto b = p.partitions[0].challenges[1].column.rows[1];
    std::array<std::uint8_t, 32> bytes;
    b.to_bytes_le(bytes);
    bytes[5] ^= 0x10;
    p.partitions[0].challenges[1].column.rows[1] = *ff::fr_t::from_bytes_le(bytes);
    expect_failure_at(p, c1 + ".column.column[1]");
  }
  {  // one Tree R path element
    auto p = proof_2k();
    p.partitions[0].challenges[0].tree_r.siblings[1][3] += ff::fr_t::one();
    expect_failure_at(p, c0 + ".comm_r_last_proof.path");
  }
  {  // one Tree D sibling
    auto p = proof_2k();
    p.partitions[0].challenges[1].tree_d.siblings[4][0] += ff::fr_t::one();
    expect_failure_at(p, c1 + ".comm_d_proof");
  }
  {  // one parent index
    auto p = proof_2k();
    p.partitions[0].challenges[0].drg_parents[2].node += 1;
    expect_failure_at(p, c0 + ".drg_parents[2].node");
  }
  {  // a parent's label (its column no longer hashes into comm_c)
    auto p = proof_2k();
    p.partitions[0].challenges[0].exp_parents[5].rows[0] += ff::fr_t::one();
    expect_failure_at(p, c0 + ".exp_parents[5]");
  }
  {  // the challenge index
    auto p = proof_2k();
    p.partitions[0].challenges[1].node ^= 1;
    expect_failure_at(p, c1 + ".node");
  }
  {  // the encoding
    auto p = proof_2k();
    p.partitions[0].challenges[0].replica_leaf += ff::fr_t::one();
    expect_failure_at(p, c0 + ".comm_r_last_proof.leaf");
  }
  {  // a commitment and the replica_id derivation
    auto p = proof_2k();
    p.comm_r += ff::fr_t::one();
    expect_failure_at(p, "comm_r");
    auto q = proof_2k();
    q.replica_id_inputs->sector_id += 1;
    expect_failure_at(q, "replica_id");
  }
  {  // a wrong count
    auto p = proof_2k();
    p.partitions[0].challenges[1].exp_parents[3].rows.pop_back();
    expect_failure_at(p, c1 + ".exp_parents[3].column");
    auto q = proof_2k();
    q.partitions[0].challenges.pop_back();
    expect_failure_at(q, "partitions[0].challenges");
  }
}

TEST(PorepVanilla, OfSeveralBadChallengesTheFirstInOrderIsNamed) {
  // The challenges are checked in parallel; the failure named is the one a
  // check in turn meets first (partition, then challenge), whichever thread
  // finds it first. 32 GiB: 10 partitions of 18 challenges (sparse model).
  const auto good = generate_vanilla(sector_params_for(32 * gib), 5);
  ASSERT_EQ(good.partitions.size(), 10u);
  const std::size_t last = good.partitions[1].challenges.size() - 1;
  for (int round = 0; round < 2; ++round) {
    auto p = good;
    p.partitions[1].challenges[last].replica_leaf += ff::fr_t::one();
    p.partitions[1].challenges[3].tree_r.siblings[0][0] += ff::fr_t::one();
    expect_failure_at(p, "partitions[1].challenges[3].comm_r_last_proof.path");
    p.partitions[0].challenges[17].node ^= 1;
    expect_failure_at(p, "partitions[0].challenges[17].node");
    p.partitions[0].challenges[0].drg_parents[1].node += 1;
    expect_failure_at(p, "partitions[0].challenges[0].drg_parents[1].node");
  }
}

std::string parse_error_element(const nlohmann::json& j) {
  try {
    vanilla_from_json(j);
  } catch (const vanilla_format_error& e) {
    return e.element();
  }
  return "(accepted)";
}

TEST(PorepVanilla, ParserNamesTheBadElement) {
  const auto good = vanilla_to_json(proof_2k());
  const std::string c1 = "partitions[0].challenges[1]";
  auto j = good;
  j["partitions"][0]["challenges"][1]["exp_parents"][3]["column"].erase(0);
  EXPECT_EQ(parse_error_element(j), c1 + ".exp_parents[3].column");
  j = good;
  j["partitions"][0]["challenges"][1]["drg_parents"][0]["path"][1][6] = "0xzz";
  EXPECT_EQ(parse_error_element(j), c1 + ".drg_parents[0].path[1][6]");
  j = good;  // r itself is not a field element
  j["partitions"][0]["challenges"][1]["comm_d_proof"]["leaf"] =
      "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
  EXPECT_EQ(parse_error_element(j), c1 + ".comm_d_proof.leaf");
  j = good;  // decimal strings are accepted
  j["comm_c"] = proof_2k().comm_c.to_decimal();
  EXPECT_EQ(parse_error_element(j), "(accepted)");
  j = good;
  j["partitions"][0]["challenges"][0].erase("column");
  EXPECT_EQ(parse_error_element(j), "partitions[0].challenges[0]");
  j = good;
  j["sector_size"] = 4096;
  EXPECT_EQ(parse_error_element(j), "sector_size/api_version");
  j = good;
  j["porep_id"] = "0x0000000000000000000000000000000000000000000000000000000000000000";
  EXPECT_EQ(parse_error_element(j), "porep_id");
}

}  // namespace
}  // namespace cuzk::porep

// A PoSt request's fields read into one checked, padded partition
// (filecoin/post_input.hpp): Curio's WinningPoSt (one sector, 66
// challenges) and WindowPoSt (API 1.0 and 1.2, full and short partitions)
// at 2 KiB, the public inputs the circuit's own, and every refusal naming
// the request field, and inside a blob the element and the sector.
#include <gtest/gtest.h>

#include <random>

#include "circuits/post_circuit.hpp"
#include "filecoin/post_bincode.hpp"
#include "filecoin/post_input.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "porep/post_vanilla.hpp"
#include "test_seed.hpp"

namespace cuzk::filecoin {
namespace {

using blobs_t = std::vector<std::vector<std::uint8_t>>;

porep::bytes32_t randomness_of(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  porep::bytes32_t r;
  for (auto& b : r) b = std::uint8_t(rng());
  r[31] &= 0x3f;
  return r;
}

std::vector<std::uint8_t> blob_of(const porep::post_sector_proof_t& s, const registered_post_proof_t& rp) {
  const auto text = write_post_sector_bincode(s, rp);
  return {text.begin(), text.end()};
}

// The request's sectors of partition k, as a provider generates them.
std::vector<porep::post_sector_proof_t> sectors_of(const registered_post_proof_t& rp, const porep::bytes32_t& rnd,
                                                   unsigned k, std::vector<std::uint64_t> ids, std::uint64_t seed) {
  return porep::generate_post_partition(rp.shape(), rp.api_version, rnd, k, ids, seed, porep::post_tree_model_t::full);
}

blobs_t blobs_of(const std::vector<porep::post_sector_proof_t>& s, const registered_post_proof_t& rp) {
  blobs_t out;
  for (const auto& x : s) out.push_back(blob_of(x, rp));
  return out;
}

post_request_t request(porep::post_kind_t kind, std::uint64_t id, const blobs_t& blobs, const porep::bytes32_t& rnd,
                       std::uint32_t partition = 0) {
  return {.kind = kind,
          .registered_proof = id,
          .vanilla_proofs = blobs,
          .randomness = rnd,
          .miner_id = 1000,
          .partition_index = partition};
}

void expect_refused(const post_request_t& r, const std::string& fragment) {
  try {
    read_post_request(r);
    ADD_FAILURE() << "accepted; wanted a refusal naming '" << fragment << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << "want '" << fragment << "' in: " << e.what();
  }
}

void expect_circuit_inputs(const post_input_t& in) {
  auto w = std::make_shared<const circuits::post_circuit::witness_t>(in.sectors);
  EXPECT_EQ(circuits::post_circuit(in.shape, w).public_inputs(), in.public_inputs);
}

TEST(PostInput, WinningRequestReadsOneSectorOf66Challenges) {
  const auto seed = test::seed("PostInput.Winning");
  const auto& rp = post_proof_by_id(0);
  const auto rnd = randomness_of(seed);
  const auto sectors = sectors_of(rp, rnd, 0, {42}, seed);
  const auto blobs = blobs_of(sectors, rp);
  const auto in = read_post_request(request(porep::post_kind_t::winning, 0, blobs, rnd));
  ASSERT_EQ(in.sectors.size(), 1u);
  EXPECT_EQ(in.real_sectors, 1u);
  EXPECT_EQ(in.sectors[0].sector_id, 42u);
  EXPECT_EQ(in.sectors[0].challenges.size(), 66u);
  EXPECT_EQ(in.public_inputs.size(), 132u);  // 66 blocks of (comm_r, leaf): the official vk's IC less ONE
  EXPECT_EQ(in.prover_id, prover_id_from_miner(1000));
  expect_circuit_inputs(in);
}

TEST(PostInput, WindowPartitionsFullAndShortUnderBothApiVersions) {
  const auto seed = test::seed("PostInput.Window");
  const auto rnd = randomness_of(seed);
  for (std::uint64_t id : {5u, 10u}) {
    SCOPED_TRACE(id);
    const auto& rp = post_proof_by_id(id);
    // Partition 1 of a request: under API 1.0 its sectors' challenges depend on their positions 2 and 3.
    const auto full = blobs_of(sectors_of(rp, rnd, 1, {7, 9}, seed), rp);
    const auto in = read_post_request(request(porep::post_kind_t::window, id, full, rnd, 1));
    EXPECT_EQ(in.sectors.size(), 2u);
    EXPECT_EQ(in.public_inputs.size(), 22u);
    expect_circuit_inputs(in);
    // One sector of two: the last repeated, as upstream pads.
    const auto one = blobs_of(sectors_of(rp, rnd, 0, {11}, seed), rp);
    const auto short_in = read_post_request(request(porep::post_kind_t::window, id, one, rnd));
    ASSERT_EQ(short_in.sectors.size(), 2u);
    EXPECT_EQ(short_in.real_sectors, 1u);
    EXPECT_EQ(short_in.sectors[1].sector_id, 11u);
    expect_circuit_inputs(short_in);
    // Partition 1's blobs claimed as partition 0: only API 1.2 draws the same challenges.
    if (id == 5) {
      expect_refused(request(porep::post_kind_t::window, id, full, rnd, 0), "vanilla_proofs[0]");
    } else {
      EXPECT_NO_THROW(read_post_request(request(porep::post_kind_t::window, id, full, rnd, 0)));
    }
  }
}

TEST(PostInput, RefusalsNameFieldElementAndSector) {
  const auto seed = test::seed("PostInput.Refusals");
  const auto rnd = randomness_of(seed);
  const auto& rp = post_proof_by_id(5);
  const auto sectors = sectors_of(rp, rnd, 0, {7, 9}, seed);
  const auto good = blobs_of(sectors, rp);
  using porep::post_kind_t;

  expect_refused(request(post_kind_t::window, 99, good, rnd), "registered_proof: 99 is not a PoSt proof (0–14");
  expect_refused(request(post_kind_t::window, 0, good, rnd), "registered_proof: 0 (StackedDrgWinning2KiBV1) is a "
                                                             "WinningPoSt proof");
  expect_refused(request(post_kind_t::winning, 5, good, rnd), "registered_proof: 5");
  {
    auto r = request(post_kind_t::window, 5, good, rnd);
    r.randomness = std::span(rnd).first(31);
    expect_refused(r, "randomness: 31 bytes, expected 32");
    porep::bytes32_t big = rnd;
    big[31] = 0xff;
    r.randomness = big;
    expect_refused(r, "randomness: not a canonical field element");
  }
  expect_refused(request(post_kind_t::window, 5, {}, rnd), "vanilla_proofs: empty");
  {
    auto three = good;
    three.push_back(good[0]);
    expect_refused(request(post_kind_t::window, 5, three, rnd), "vanilla_proofs: 3 sectors, but a "
                                                               "StackedDrgWindow2KiBV1 partition holds at most 2");
  }
  {
    auto cut = good;
    cut[1].resize(cut[1].size() / 2);
    expect_refused(request(post_kind_t::window, 5, cut, rnd), "vanilla_proofs[1]: ");
    expect_refused(request(post_kind_t::window, 5, cut, rnd), "(sector 9; a StackedDrgWindow2KiBV1 blob is 5680 bytes");
  }
  {
    // An 8 MiB sector's blob in a 2 KiB request.
    const auto& rp8 = post_proof_by_id(6);
    const auto big = porep::generate_post_partition(rp8.shape(), rp8.api_version, rnd, 0, std::vector<std::uint64_t>{9},
                                                    seed, porep::post_tree_model_t::sparse);
    const blobs_t mixed{good[0], blob_of(big[0], rp8)};
    expect_refused(request(post_kind_t::window, 5, mixed, rnd), "vanilla_proofs[1]: ");
  }
  {
    auto bad = sectors;
    bad[1].comm_r = bad[1].comm_r + ff::fr_t::one();
    expect_refused(request(post_kind_t::window, 5, blobs_of(bad, rp), rnd), "vanilla_proofs[1].comm_r");
    expect_refused(request(post_kind_t::window, 5, blobs_of(bad, rp), rnd), "(sector 9)");
  }
  {
    // A sibling of challenge 3's path: the opening no longer hashes to comm_r_last.
    auto bad = sectors;
    auto& sib = bad[0].challenges[3].path.siblings[0][1];
    sib = sib + ff::fr_t::one();
    const auto blobs = blobs_of(bad, rp);
    const auto r = request(post_kind_t::window, 5, blobs, rnd);  // spans: blobs outlives r
    expect_refused(r, "vanilla_proofs[0].inclusion_proofs[3]");
    expect_refused(r, "(sector 7)");
  }
  {
    // Other randomness: the leaves are not the challenged ones.
    auto other = rnd;
    other[0] ^= 1;
    expect_refused(request(post_kind_t::window, 5, good, other), "vanilla_proofs[0]");
  }
  {
    const auto& win = post_proof_by_id(0);
    const auto w = blobs_of(sectors_of(win, rnd, 0, {1}, seed), win);
    expect_refused(request(post_kind_t::winning, 0, w, rnd, 1), "partition_index: 1");
  }
}

}  // namespace
}  // namespace cuzk::filecoin

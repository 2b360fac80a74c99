// WinningPoSt and WindowPoSt through the daemon exactly as Curio's client
// asks for them (CUZK_API.md 2.5; FILECOIN_FORMATS.md §3): the unary Prove
// RPC, request_id "winpost-<miner>-<hex of randomness[:8]>" or
// "wdpost-<miner>-<partition>-<randomness[:8] as Go's %d of a byte slice>",
// proof_kind WINNING_POST / WINDOW_POST_PARTITION, priority CRITICAL / HIGH,
// registered_proof the FFI number (0 = StackedDrgWinning2KiBV1, 5 =
// StackedDrgWindow2KiBV1, 10 = StackedDrgWindow2KiBV1_1 = proofs-api V1_2),
// one bincode FallbackPoStSectorProof per sector in vanilla_proofs,
// randomness, miner_id, partition_index. Each proof is checked as a
// verifier on chain would check it: public inputs from the sectors' comm_r
// and the challenges the randomness draws (porep::post_sector_challenges,
// circuits::post_public_inputs), not from the engine's circuit; and it must
// not verify under other randomness.
//
// Parameters: the daemon is shown to look for them in its param_cache under
// Filecoin's official v28 name, then the real ones (a seeded setup on the
// circuit) are registered in memory. Setup is paid once per process and
// kind, when a TEST first needs it (2 KiB Winning ~25 s, Window ~8 s on two
// cores); ctest runs each TEST in its own process.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>

#include "circuits/circuit_registry.hpp"
#include "circuits/post_public_inputs.hpp"
#include "curio_test_support.hpp"
#include "engine/engine.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "filecoin/post_bincode.hpp"
#include "filecoin/registered_post_proof_t.hpp"
#include "groth16/groth16.hpp"
#include "porep/post_challenges.hpp"
#include "porep/post_vanilla.hpp"
#include "service/client_t.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using curio_test::bytes_of;
using porep::post_kind_t;
using porep::post_sector_proof_t;

constexpr uint64_t sector_bytes = 2048;
constexpr uint64_t miner_id = 1000;
// filecoin-ffi's RegisteredPoStProof numbers, which Curio sends as registered_proof.
constexpr uint64_t winning_2kib_v1 = 0;
constexpr uint64_t window_2kib_v1 = 5;
constexpr uint64_t window_2kib_v1_1 = 10;
constexpr uint64_t window_8mib_v1 = 6;

porep::bytes32_t randomness_of(uint64_t seed) {
  std::mt19937_64 rng(seed);
  porep::bytes32_t r;
  for (auto& b : r) b = uint8_t(rng());
  r[31] &= 0x3f;  // as Curio reduces it
  return r;
}

std::string blob_of(const post_sector_proof_t& s, uint64_t registered) {
  return filecoin::write_post_sector_bincode(s, filecoin::post_proof_by_id(registered));
}

// Partition k of a request: the given sectors, each opening the challenges drawn for its position.
std::vector<post_sector_proof_t> sectors_of(uint64_t registered, const porep::bytes32_t& rnd, unsigned k,
                                            std::vector<uint64_t> ids, uint64_t seed) {
  const auto& rp = filecoin::post_proof_by_id(registered);
  return porep::generate_post_partition(rp.shape(), rp.api_version, rnd, k, ids, seed,
                                        porep::post_tree_model_t::full);
}

// What a verifier derives from the chain: each sector's comm_r and the
// leaves the randomness challenges at its position (a short partition
// repeats its last sector), laid out as generate_public_inputs does.
std::vector<ff::fr_t> chain_inputs(uint64_t registered, const porep::bytes32_t& rnd, unsigned k,
                                   const std::vector<post_sector_proof_t>& sectors) {
  const auto& rp = filecoin::post_proof_by_id(registered);
  const auto shape = rp.shape();
  std::vector<circuits::post_public_sector_t> pub;
  for (size_t i = 0; i < shape.sectors_per_partition; ++i) {
    const size_t at = std::min(i, sectors.size() - 1);
    const uint64_t index = uint64_t(k) * shape.sectors_per_partition + at;
    pub.push_back({sectors[at].comm_r,
                   porep::post_sector_challenges(shape, rp.api_version, rnd, sectors[at].sector_id, index)});
  }
  return circuits::post_public_inputs(shape, pub);
}

struct post_fixture_t {
  uint64_t seed = test::seed("CurioPost");
  curio_test::curio_daemon_t server{"cuzk-curio-post", uint64_t(2) << 30};
  std::mutex mu;
  std::map<post_kind_t, std::shared_ptr<const groth16::parameters_t>> params;

  // The kind's development parameters, made and registered on first use.
  // Before that, the daemon's PreloadSRS of the circuit id names the
  // official file in param_cache (a 16-byte stand-in there, refused at once).
  const groth16::parameters_t& params_for(post_kind_t kind) {
    std::lock_guard lk(mu);
    if (auto it = params.find(kind); it != params.end()) return *it->second;
    const bool winning = kind == post_kind_t::winning;
    const auto pkind = winning ? filecoin::parameter_kind_t::winning_post : filecoin::parameter_kind_t::window_post;
    const std::string id = engine::engine_t::post_circuit_id(
        winning ? engine::proof_kind_t::winning_post : engine::proof_kind_t::window_post_partition, sector_bytes);
    EXPECT_EQ(id, winning ? "winning-2k" : "wpost-2k");
    server.expect_preload_reads(id, filecoin::parameter_files(pkind, sector_bytes).params);

    const auto t0 = std::chrono::steady_clock::now();
    groth16::seeded_rng rng(seed ^ (winning ? 1 : 2));
    auto p = std::make_shared<const groth16::parameters_t>(groth16::generate_parameters(
        *circuits::make_circuit(winning ? "winning-post" : "window-post", sector_bytes),
        groth16::toxic_waste_t::random(rng)));
    std::cout << "[curio post] " << id << " setup in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s" << std::endl;
    server.engine().register_parameters(id, p);
    params[kind] = p;
    return *p;
  }
};

class CurioPost : public curio_test::curio_suite_t<post_fixture_t> {
 protected:
  static std::string hex8(const porep::bytes32_t& r) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (int i = 0; i < 8; ++i) s += {digits[r[i] >> 4], digits[r[i] & 15]};
    return s;
  }
  static std::string go_bytes8(const porep::bytes32_t& r) {
    std::string s = "[";
    for (int i = 0; i < 8; ++i) s += (i ? " " : "") + std::to_string(r[i]);
    return s + "]";
  }

  // What Curio's WinningPoSt task sends.
  static v1::SubmitProofRequest winning_request(const std::vector<std::string>& blobs, const porep::bytes32_t& rnd) {
    v1::SubmitProofRequest r;
    r.set_request_id("winpost-" + std::to_string(miner_id) + "-" + hex8(rnd));
    r.set_proof_kind(v1::WINNING_POST);
    r.set_registered_proof(winning_2kib_v1);
    r.set_priority(v1::CRITICAL);
    for (const auto& b : blobs) r.add_vanilla_proofs(b);
    r.set_miner_id(miner_id);
    r.set_randomness(std::string(rnd.begin(), rnd.end()));
    return r;
  }

  // What Curio's WindowPoSt task sends for partition k.
  static v1::SubmitProofRequest window_request(uint64_t registered, const std::vector<std::string>& blobs,
                                               const porep::bytes32_t& rnd, unsigned k) {
    v1::SubmitProofRequest r;
    r.set_request_id("wdpost-" + std::to_string(miner_id) + "-" + std::to_string(k) + "-" + go_bytes8(rnd));
    r.set_proof_kind(v1::WINDOW_POST_PARTITION);
    r.set_registered_proof(registered);
    r.set_priority(v1::HIGH);
    for (const auto& b : blobs) r.add_vanilla_proofs(b);
    r.set_miner_id(miner_id);
    r.set_randomness(std::string(rnd.begin(), rnd.end()));
    r.set_partition_index(k);
    return r;
  }

  // Proves the request; the 192-byte proof must verify with the chain's
  // inputs and not with those of other randomness.
  static std::string expect_proven(const v1::SubmitProofRequest& r, uint64_t registered, const porep::bytes32_t& rnd,
                                   unsigned k, const std::vector<post_sector_proof_t>& sectors) {
    const auto kind = filecoin::post_proof_by_id(registered).kind;
    const auto& params = fixture_->params_for(kind);
    const auto t0 = std::chrono::steady_clock::now();
    v1::ProveResponse out;
    const auto st = prove(r, out);
    EXPECT_TRUE(st.ok()) << st.error_message();
    if (!st.ok()) return {};
    const auto& res = out.result();
    EXPECT_EQ(res.status(), v1::AwaitProofResponse::COMPLETED) << res.error_message();
    EXPECT_EQ(res.job_id(), r.request_id());
    EXPECT_EQ(res.proof().size(), groth16::proof_size);
    groth16::proof_t proof;
    if (!groth16::decode_proof(bytes_of(res.proof()), proof).ok()) {
      ADD_FAILURE() << "proof does not decode";
      return {};
    }
    EXPECT_TRUE(groth16::verify(params.vk, proof, chain_inputs(registered, rnd, k, sectors)));
    auto other = rnd;
    other[0] ^= 1;
    EXPECT_FALSE(groth16::verify(params.vk, proof, chain_inputs(registered, other, k, sectors)));
    std::cout << "[curio post] " << r.request_id() << " proven in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s" << std::endl;
    return res.proof();
  }
};

std::vector<std::string> blobs_of(const std::vector<post_sector_proof_t>& s, uint64_t registered) {
  std::vector<std::string> out;
  for (const auto& x : s) out.push_back(blob_of(x, registered));
  return out;
}

TEST_F(CurioPost, WinningPoStProvesAsCurioAsks) {
  const auto rnd = randomness_of(fixture_->seed);
  const auto sectors = sectors_of(winning_2kib_v1, rnd, 0, {17}, fixture_->seed);
  const auto r = winning_request(blobs_of(sectors, winning_2kib_v1), rnd);
  const auto proof = expect_proven(r, winning_2kib_v1, rnd, 0, sectors);
  // Curio's retry under the same request_id: the retained result.
  v1::ProveResponse again;
  ASSERT_TRUE(prove(r, again).ok());
  EXPECT_EQ(again.result().proof(), proof);
}

TEST_F(CurioPost, WindowPoStPartitionsProveUnderV1AndV1_1IncludingAShortOne) {
  const auto rnd = randomness_of(fixture_->seed + 1);
  // V1 (API 1.0): partition 1, whose challenges depend on the sectors' positions 2 and 3.
  {
    const auto sectors = sectors_of(window_2kib_v1, rnd, 1, {7, 9}, fixture_->seed);
    expect_proven(window_request(window_2kib_v1, blobs_of(sectors, window_2kib_v1), rnd, 1), window_2kib_v1, rnd, 1,
                  sectors);
  }
  // V1_1 (proofs-api V1_2): a full partition 0 and a partition 1 holding 1 sector of 2 (padded),
  // another deadline's randomness (Curio's request_id for partition 1 would otherwise repeat).
  const auto rnd2 = randomness_of(fixture_->seed + 3);
  {
    const auto sectors = sectors_of(window_2kib_v1_1, rnd2, 0, {3, 4}, fixture_->seed);
    expect_proven(window_request(window_2kib_v1_1, blobs_of(sectors, window_2kib_v1_1), rnd2, 0), window_2kib_v1_1,
                  rnd2, 0, sectors);
  }
  {
    const auto sectors = sectors_of(window_2kib_v1_1, rnd2, 1, {5}, fixture_->seed);
    expect_proven(window_request(window_2kib_v1_1, blobs_of(sectors, window_2kib_v1_1), rnd2, 1), window_2kib_v1_1,
                  rnd2, 1, sectors);
  }
}

TEST_F(CurioPost, BadRequestsAreRefusedNamingSectorAndFieldAndTheDaemonServesOn) {
  const auto rnd = randomness_of(fixture_->seed + 2);
  const auto sectors = sectors_of(window_2kib_v1, rnd, 0, {7, 9}, fixture_->seed);
  const auto good = blobs_of(sectors, window_2kib_v1);
  // A truncated blob.
  {
    auto b = good;
    b[1].resize(b[1].size() - 100);
    expect_refused(window_request(window_2kib_v1, b, rnd, 0), {"vanilla_proofs[1]", "sector 9", "truncated"});
  }
  // An 8 MiB sector's blob in a 2 KiB request.
  {
    const auto& rp8 = filecoin::post_proof_by_id(window_8mib_v1);
    const auto big = porep::generate_post_partition(rp8.shape(), rp8.api_version, rnd, 0, std::vector<uint64_t>{9},
                                                    fixture_->seed, porep::post_tree_model_t::sparse);
    auto b = good;
    b[1] = blob_of(big[0], window_8mib_v1);
    expect_refused(window_request(window_2kib_v1, b, rnd, 0), {"vanilla_proofs[1]", "sector 9"});
  }
  // A comm_r that is not Poseidon(comm_c, comm_r_last).
  {
    auto bad = sectors;
    bad[1].comm_r = bad[1].comm_r + ff::fr_t::one();
    expect_refused(window_request(window_2kib_v1, blobs_of(bad, window_2kib_v1), rnd, 0),
                   {"vanilla_proofs[1].comm_r", "(sector 9)"});
  }
  // A path that does not hash to comm_r_last: sector and challenge named.
  {
    auto bad = sectors;
    auto& sib = bad[0].challenges[4].path.siblings[0][2];
    sib = sib + ff::fr_t::one();
    expect_refused(window_request(window_2kib_v1, blobs_of(bad, window_2kib_v1), rnd, 0),
                   {"vanilla_proofs[0].inclusion_proofs[4]", "(sector 7)"});
  }
  // Randomness of 31 bytes.
  {
    auto r = window_request(window_2kib_v1, good, rnd, 0);
    r.set_randomness(std::string(rnd.begin(), rnd.begin() + 31));
    expect_refused(r, {"randomness: 31 bytes, expected 32"});
  }
  // Unknown registered proofs, and a Winning one for a Window request.
  expect_refused(window_request(99, good, rnd, 0), {"registered_proof: 99 is not a PoSt proof"});
  expect_refused(window_request(winning_2kib_v1, good, rnd, 0), {"registered_proof: 0", "WinningPoSt"});
  // Three sectors for a partition of two.
  {
    auto b = good;
    b.push_back(good[0]);
    expect_refused(window_request(window_2kib_v1, b, rnd, 0), {"vanilla_proofs: 3 sectors"});
  }
  // A Winning request with no sector.
  expect_refused(winning_request({}, rnd), {"vanilla_proofs: empty"});
  const auto s = client_t(fixture_->server.address()).status();
  EXPECT_EQ(s.total_proofs_failed(), 0u);  // refusals are not failed proofs

  // The same daemon proves the good request afterwards.
  expect_proven(window_request(window_2kib_v1, good, rnd, 0), window_2kib_v1, rnd, 0, sectors);
}

}  // namespace
}  // namespace cuzk::service

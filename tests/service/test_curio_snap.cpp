// SnapDeals updates through the daemon exactly as Curio's client asks for
// them (CUZK_API.md 2.5; FILECOIN_FORMATS.md §4): the unary Prove RPC,
// request_id "snap-<miner>-<sector>" (proof share: "ps-snap-…", sector_size
// unset), proof_kind SNAP_DEALS_UPDATE, priority NORMAL, registered_proof the
// FFI RegisteredUpdateProof number (0 = StackedDrg2KiBV1), one bincode
// PartitionProof per partition in vanilla_proofs, comm_r_old / comm_r_new /
// comm_d_new as raw 32 bytes. Each proof is checked as a verifier on chain
// checks it: public inputs written here from upstream's rules
// (PublicInputs::new: k | h_select << partition_bits with h_select = 2^i for
// h = hs[i] = h_default, then comm_r_old, comm_d_new, comm_r_new), not from
// the engine's circuit; and it must not verify under another comm_r_new.
//
// Parameters: the daemon first looks for the official v28 file in its
// param_cache; then a seeded setup on the 2 KiB circuit (1.7 M rows, the
// smallest production shape) is registered in memory, once per process.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "circuits/circuit_registry.hpp"
#include "curio_test_support.hpp"
#include "engine/engine.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "filecoin/registered_update_proof_t.hpp"
#include "filecoin/snap_bincode.hpp"
#include "groth16/groth16.hpp"
#include "porep/domain.hpp"
#include "porep/snap_vanilla.hpp"
#include "service/client_t.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using curio_test::bytes_of;

constexpr uint64_t sector_bytes = 2048;
constexpr uint64_t miner_id = 1000;
constexpr uint64_t update_2kib = 0;  // RegisteredUpdateProof::StackedDrg2KiBV1

struct snap_fixture_t {
  uint64_t seed = test::seed("CurioSnap");
  curio_test::curio_daemon_t server{"cuzk-curio-snap", uint64_t(4) << 30};
  std::mutex mu;
  std::shared_ptr<const groth16::parameters_t> params;

  const groth16::parameters_t& params_2kib() {
    std::lock_guard lk(mu);
    if (params) return *params;
    const std::string id = filecoin::snap_circuit_id(sector_bytes);
    EXPECT_EQ(id, "snap-2k");
    server.expect_preload_reads(id, filecoin::parameter_files(filecoin::parameter_kind_t::snap_deals, sector_bytes).params);
    const auto t0 = std::chrono::steady_clock::now();
    groth16::seeded_rng rng(seed ^ 3);
    params = std::make_shared<const groth16::parameters_t>(
        groth16::generate_parameters(*circuits::make_circuit("snap", sector_bytes), groth16::toxic_waste_t::random(rng)));
    std::cout << "[curio snap] " << id << " setup in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s" << std::endl;
    server.engine().register_parameters(id, params);
    return *params;
  }
};

std::string raw(const ff::fr_t& x) {
  const auto b = porep::to_le_bytes(x);
  return std::string(b.begin(), b.end());
}

// PublicInputs::new for partition k of a 2 KiB update: 1 partition (no
// partition bits), hs = [1; 6], h_default = hs[3] = 1, whose first index is
// 0, so h_select = 1.
std::vector<ff::fr_t> chain_inputs(unsigned k, const porep::snap_public_t& p) {
  const std::uint64_t h_select = 1;
  return {ff::fr_t::from_u64(k | h_select), p.comm_r_old, p.comm_d_new, p.comm_r_new};
}

class CurioSnap : public curio_test::curio_suite_t<snap_fixture_t> {
 protected:
  struct update_t {
    porep::snap_public_t pub;
    std::vector<std::string> blobs;
  };

  static update_t update_of(uint64_t seed, uint64_t bytes = sector_bytes) {
    const auto shape = porep::snap_shape_for(bytes);
    const porep::snap_sector_t sector(shape, seed);
    update_t u{sector.public_inputs(0), {}};
    for (unsigned k = 0; k < shape.partitions; ++k)
      u.blobs.push_back(filecoin::write_snap_partition_bincode(sector.partition_proof(k), shape));
    return u;
  }

  // What Curio's snap task sends (the proof-share path leaves sector_size unset).
  static v1::SubmitProofRequest request(const update_t& u, uint64_t sector, bool proof_share = false) {
    v1::SubmitProofRequest r;
    r.set_request_id((proof_share ? "ps-snap-" : "snap-") + std::to_string(miner_id) + "-" + std::to_string(sector));
    r.set_proof_kind(v1::SNAP_DEALS_UPDATE);
    r.set_registered_proof(update_2kib);
    r.set_priority(v1::NORMAL);
    if (!proof_share) r.set_sector_size(sector_bytes);
    for (const auto& b : u.blobs) r.add_vanilla_proofs(b);
    r.set_sector_number(sector);
    r.set_miner_id(miner_id);
    r.set_comm_r_old(raw(u.pub.comm_r_old));
    r.set_comm_r_new(raw(u.pub.comm_r_new));
    r.set_comm_d_new(raw(u.pub.comm_d_new));
    return r;
  }

  static void expect_proven(const v1::SubmitProofRequest& r, const update_t& u) {
    const auto& params = fixture_->params_2kib();
    const auto t0 = std::chrono::steady_clock::now();
    v1::ProveResponse out;
    const auto st = prove(r, out);
    ASSERT_TRUE(st.ok()) << st.error_message();
    const auto& res = out.result();
    ASSERT_EQ(res.status(), v1::AwaitProofResponse::COMPLETED) << res.error_message();
    EXPECT_EQ(res.job_id(), r.request_id());
    ASSERT_EQ(res.proof().size(), groth16::proof_size * u.blobs.size());  // partitions' proofs concatenated
    groth16::proof_t proof;
    ASSERT_TRUE(groth16::decode_proof(bytes_of(res.proof()), proof).ok());
    EXPECT_TRUE(groth16::verify(params.vk, proof, chain_inputs(0, u.pub)));
    auto other = u.pub;
    other.comm_r_new += ff::fr_t::one();
    EXPECT_FALSE(groth16::verify(params.vk, proof, chain_inputs(0, other)));
    std::cout << "[curio snap] " << r.request_id() << " proven in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s" << std::endl;
  }
};

// One TEST, so the 2 KiB setup (about two minutes on two cores) is paid once.
TEST_F(CurioSnap, UpdatesProveAsCurioAsksAndBadRequestsAreRefusedNamingPartitionAndField) {
  const auto good = update_of(fixture_->seed);
  expect_proven(request(good, 9), good);
  expect_proven(request(good, 9, /*proof_share=*/true), good);

  const auto u = update_of(fixture_->seed + 1);
  {
    auto b = u;
    b.blobs[0].resize(b.blobs[0].size() - 100);
    expect_refused(request(b, 10), {"vanilla_proofs[0]", "partition 0"});
  }
  {
    // An 8 MiB update's first partition in a 2 KiB request.
    auto b = u;
    b.blobs[0] = update_of(fixture_->seed, 8 << 20).blobs[0];
    expect_refused(request(b, 10), {"vanilla_proofs[0]", "partition 0"});
  }
  {
    // Another comm_r_new draws other challenges.
    auto b = u;
    b.pub.comm_r_new += ff::fr_t::one();
    expect_refused(request(b, 10), {"vanilla_proofs[0]", "challenge_proofs[0]", "(partition 0)"});
  }
  {
    auto r = request(u, 10);
    r.set_comm_d_new(r.comm_d_new().substr(0, 31));
    expect_refused(r, {"comm_d_new: 31 bytes"});
  }
  {
    auto b = u;
    b.blobs.push_back(u.blobs[0]);
    expect_refused(request(b, 10), {"vanilla_proofs: 2 partition proofs", "takes 1"});
  }
  {
    auto r = request(u, 10);
    r.set_registered_proof(7);
    expect_refused(r, {"registered_proof: 7 is not a SnapDeals update proof"});
  }
  {
    auto r = request(u, 10);
    r.set_sector_size(uint64_t(32) << 30);
    expect_refused(r, {"sector_size"});
  }
  EXPECT_EQ(client_t(fixture_->server.address()).status().total_proofs_failed(), 0u);
  expect_proven(request(u, 10), u);
}

}  // namespace
}  // namespace cuzk::service

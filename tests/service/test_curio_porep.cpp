// A 2 KiB PoRep C2 through the daemon exactly as Curio's client asks for it
// (curio lib/ffi/cuzk_funcs.go PoRepSnarkCuzk, lib/cuzk/client.go Prove): the
// envelope {"SectorNum", "Phase1Out", "SectorSize"} in vanilla_proof, the
// unary Prove RPC under a client deadline, request_id "porep-<miner>-<sector>",
// registered_proof the Go abi number of the sector's proof type (5 =
// StackedDrg2KiBV1_1), sector_size, sector_number, miner_id, priority NORMAL.
// The proof is checked as Curio's VerifySeal would check it: public inputs
// from the C1's comm_r, comm_d, seed and ticket and the request's miner and
// sector (filecoin::seal_public_inputs, not the engine's circuit), our
// groth16 verifier, the setup's key. Bad requests are refused at submit
// naming the JSON path or the request field, and the same daemon answers the
// good request afterwards.
//
// Parameters: the daemon is shown to look for them in its param_cache under
// Filecoin's official v28 name (a stand-in file there is what it tries to
// read), but the real ones are handed to the engine in memory. Loading our
// development parameters from the file would subgroup-check all 1.1 GB of
// points (their digest is not parameters.json's): measured at 11 minutes on
// two shared cores, three times the setup itself.
//
// Setup of the 2 KiB circuit takes about two minutes on two cores, so the
// parameters, the C1 and the daemon are made once per process and shared by
// the tests here (ctest runs each TEST in its own process and pays it per TEST).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "circuits/circuit_registry.hpp"
#include "curio_test_support.hpp"
#include "engine/engine.hpp"
#include "filecoin/c1_json.hpp"
#include "filecoin/curio_envelope.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "filecoin/porep_config_t.hpp"
#include "filecoin/registered_seal_proof_t.hpp"
#include "filecoin/seal_public_inputs.hpp"
#include "groth16/groth16.hpp"
#include "porep/vanilla_generator.hpp"
#include "service/client_t.hpp"
#include "test_seed.hpp"

namespace cuzk::service {
namespace {

namespace v1 = cuzk::v1;
using curio_test::bytes_of;
using ojson = nlohmann::ordered_json;

constexpr uint64_t sector_bytes = 2048;
constexpr uint64_t miner_id = 1000;
constexpr uint64_t sector_number = 7;
// Go's abi.RegisteredSealProof numbers, which Curio sends as registered_proof.
constexpr uint64_t stacked_drg_2kib_v1_1 = 5;
constexpr uint64_t stacked_drg_32gib_v1_1 = 8;

porep::bytes32_t bytes32_at(const ojson& j, const char* key) {
  porep::bytes32_t out{};
  const auto& a = j.at(key);
  if (a.size() != out.size()) throw std::invalid_argument(std::string(key) + ": not 32 bytes");
  for (size_t i = 0; i < out.size(); ++i) out[i] = a[i].get<uint8_t>();
  return out;
}

// Everything the tests share: development parameters, the C1 of a
// replicated 2 KiB sector of miner 1000, sector 7, and a daemon proving on the CPU.
struct curio_fixture_t {
  // A 6 GiB budget: the 2 KiB parameters alone are about 1.1 GB.
  curio_test::curio_daemon_t server{"cuzk-curio", uint64_t(6) << 30};
  std::shared_ptr<const groth16::parameters_t> params;
  std::string c1_json, envelope;

  curio_fixture_t() {
    const uint64_t seed = test::seed("CurioPorep");
    // The replica_id derives from the prover and sector the request names, as a real seal's does.
    const auto& rp = filecoin::seal_proof_by_id(stacked_drg_2kib_v1_1);
    auto vanilla = porep::generate_replicated(
        rp.sector_params(), seed, {filecoin::prover_id_from_miner(miner_id), sector_number});
    c1_json = filecoin::write_c1_json(filecoin::make_c1_output(rp, std::move(vanilla)));
    envelope = filecoin::write_curio_envelope(sector_number, sector_bytes, bytes_of(c1_json));

    // Seeded toxic waste: development parameters (as `cuzk setup --seed` makes them).
    groth16::seeded_rng rng(seed);
    params = std::make_shared<const groth16::parameters_t>(groth16::generate_parameters(
        *circuits::make_circuit("porep", sector_bytes), groth16::toxic_waste_t::random(rng)));

    // The file the daemon reads for porep-2k is the official one in
    // param_cache. Then the real parameters, in memory.
    const std::string id = engine::engine_t::porep_circuit_id(sector_bytes);
    server.expect_preload_reads(id, filecoin::porep_parameter_file(sector_bytes));
    server.engine().register_parameters(id, params);
  }
};

class CurioPorep : public curio_test::curio_suite_t<curio_fixture_t> {
 protected:
  // What PoRepSnarkCuzk sends for sector (miner_id, sector_number).
  static v1::SubmitProofRequest curio_request(const std::string& vanilla_proof, uint64_t miner = miner_id) {
    v1::SubmitProofRequest r;
    r.set_request_id("porep-" + std::to_string(miner) + "-" + std::to_string(sector_number));
    r.set_proof_kind(v1::POREP_SEAL_COMMIT);
    r.set_sector_size(sector_bytes);
    r.set_registered_proof(stacked_drg_2kib_v1_1);
    r.set_priority(v1::NORMAL);
    r.set_vanilla_proof(vanilla_proof);
    r.set_sector_number(sector_number);
    r.set_miner_id(miner);
    return r;
  }

  // The public inputs VerifySeal derives for (miner, sector): from the C1's
  // commitments, seed and ticket alone, not from the engine's circuit.
  static std::vector<ff::fr_t> seal_inputs(uint64_t miner, uint64_t sector) {
    const ojson c1 = ojson::parse(fixture_->c1_json);
    const auto config = filecoin::porep_config_t::of(filecoin::seal_proof_by_id(stacked_drg_2kib_v1_1));
    const auto comm_r = filecoin::commitment_from_bytes(bytes32_at(c1, "comm_r"), "comm_r");
    const auto comm_d = filecoin::commitment_from_bytes(bytes32_at(c1, "comm_d"), "comm_d");
    const auto replica_id = filecoin::seal_replica_id(config, filecoin::prover_id_from_miner(miner), sector,
                                                      bytes32_at(c1, "ticket"), comm_d);
    return filecoin::seal_public_inputs(config, comm_r, comm_d, replica_id, bytes32_at(c1, "seed"), 0);
  }

  // COMPLETED, one 192-byte partition proof, valid for miner 1000's sector 7
  // under the setup's key and for no other sector.
  static void expect_verified(const v1::AwaitProofResponse& r) {
    ASSERT_EQ(r.status(), v1::AwaitProofResponse::COMPLETED) << r.error_message();
    ASSERT_EQ(r.proof().size(), groth16::proof_size);  // 2 KiB: one partition
    groth16::proof_t proof;
    ASSERT_TRUE(groth16::decode_proof(bytes_of(r.proof()), proof).ok());
    EXPECT_TRUE(groth16::verify(fixture_->params->vk, proof, seal_inputs(miner_id, sector_number)));
    EXPECT_FALSE(groth16::verify(fixture_->params->vk, proof, seal_inputs(miner_id, sector_number + 1)));
    EXPECT_FALSE(groth16::verify(fixture_->params->vk, proof, seal_inputs(miner_id + 1, sector_number)));
  }
};

TEST_F(CurioPorep, CurioRequestProvesAndBadInputIsRefusedNamingTheJsonPath) {
  const auto t0 = std::chrono::steady_clock::now();
  v1::ProveResponse out;
  const auto st = prove(curio_request(fixture_->envelope), out);
  ASSERT_TRUE(st.ok()) << st.error_message();
  expect_verified(out.result());
  EXPECT_EQ(out.result().job_id(), "porep-1000-7");
  EXPECT_GT(out.result().total_ms(), 0u);
  std::cout << "[curio porep] Prove answered in "
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s (total_ms "
            << out.result().total_ms() << ")" << std::endl;

  // Bad requests, each under Curio's request_id for this sector, as its
  // retry would: a refusal must come from the checks, not from the id. (One
  // TEST with the good request: ctest runs each TEST in its own process,
  // which would pay the two-minute setup again.)
  // One bit of a c_x row, inside Phase1Out: the C1 is re-encoded, so the
  // envelope itself is well formed and only the checks inside can catch it.
  {
    ojson c1 = ojson::parse(fixture_->c1_json);
    auto& row = c1["vanilla_proofs"]["StackedDrg2KiBV1"][0][0]["replica_column_proofs"]["c_x"]["column"]["rows"][0];
    row[0] = row[0].get<uint8_t>() ^ 1;  // the low byte (LE): stays below r
    const std::string bad = c1.dump();
    expect_refused(curio_request(filecoin::write_curio_envelope(sector_number, sector_bytes, bytes_of(bad))),
                   {"Phase1Out: vanilla_proofs.StackedDrg2KiBV1[0][0].replica_column_proofs.c_x.column.rows[0]"});
  }
  // A character outside the base64 alphabet in Phase1Out.
  {
    std::string bad = fixture_->envelope;
    const auto at = bad.find("\"Phase1Out\":\"") + 13 + 100;
    ASSERT_LT(at, bad.size());
    bad[at] = '*';
    expect_refused(curio_request(bad), {"Phase1Out"});
  }
  // The envelope cut in half (a client that lost the tail of a ~50 MB body).
  // The cut falls inside Phase1Out's string, which the JSON parser's error
  // quotes whole ("last read: '...'"): ~66 KB here, ~25 MB for a 32 GiB C1.
  expect_refused(curio_request(fixture_->envelope.substr(0, fixture_->envelope.size() / 2)),
                 {"vanilla_proof: Curio envelope"});
  // Another miner's request for this C1: its replica_id is not the one miner 1001 derives.
  expect_refused(curio_request(fixture_->envelope, miner_id + 1), {"replica_id"});
  // The request's sector_size or registered_proof contradicting the 2 KiB C1.
  {
    auto r = curio_request(fixture_->envelope);
    r.set_sector_size(uint64_t(8) << 20);
    expect_refused(r, {"sector_size"});
  }
  {
    auto r = curio_request(fixture_->envelope);
    r.set_registered_proof(stacked_drg_32gib_v1_1);
    r.set_sector_size(uint64_t(32) << 30);  // as Curio would send for a 32 GiB sector
    expect_refused(r, {"sector_size"});
    r.set_sector_size(sector_bytes);  // only the proof type wrong
    expect_refused(r, {"registered_proof"});
  }
  const auto s = client_t(fixture_->server.address()).status();
  EXPECT_EQ(s.total_proofs_failed(), 0u);  // refusals are not failed proofs

  // The good request on the same daemon is still answered with a proof that
  // verifies: the retained result of its job (Curio's retry under the same
  // request_id), which the refused requests above did not displace.
  v1::ProveResponse again;
  const auto st2 = prove(curio_request(fixture_->envelope), again);
  ASSERT_TRUE(st2.ok()) << st2.error_message();
  expect_verified(again.result());
  EXPECT_EQ(again.result().proof(), out.result().proof());
  EXPECT_EQ(client_t(fixture_->server.address()).status().total_proofs_completed(), 1u);
}

}  // namespace
}  // namespace cuzk::service

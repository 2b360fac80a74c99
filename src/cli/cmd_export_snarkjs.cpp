// cuzk export-snarkjs --vk FILE --proof FILE --public FILE --out-dir DIR
//
// snarkjs (0.7, ffjavascript's bls12381) reads affine points as decimal
// strings with a projective Z: G1 [x, y, "1"], G2 [[x.c0, x.c1], [y.c0, y.c1],
// ["1", "0"]], infinity with Z = 0 as its toObject writes it. Its groth16
// verifier checks e(-A, B) e(IC(x), gamma) e(C, delta) e(alpha, beta) = 1 with
// IC[0] for the constant ONE, which is bellman's layout, so points carry over
// unchanged. vk_alphabeta_12 is unused by that verifier but is part of every
// verification_key.json snarkjs writes (its Solidity export reads it): Fp12
// as c0, c1 of Fp6, each three Fp2 [c0, c1]. ffjavascript's pairing returns
// the cube of the exact pairing (as blst and zkcrypto do), so that is what we
// write; tests/js/snarkjs_verify.mjs checks it against snarkjs' own value.
// Keys are in snarkjs' order (ordered_json) so the files diff cleanly.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/command.hpp"
#include "cli/file_io.hpp"
#include "cli/proof_file.hpp"
#include "groth16/groth16.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::cli {
namespace {

using json = nlohmann::ordered_json;

json to_json(const ff::fp2_t& v) { return json::array({v.c0.to_decimal(), v.c1.to_decimal()}); }

json to_json(const ec::g1_affine_t& p) {
  if (p.is_inf()) return json::array({"0", "1", "0"});
  return json::array({p.x.to_decimal(), p.y.to_decimal(), "1"});
}

json to_json(const ec::g2_affine_t& p) {
  if (p.is_inf()) return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({to_json(p.x), to_json(p.y), json::array({"1", "0"})});
}

json to_json(const ff::fp6_t& v) { return json::array({to_json(v.c0), to_json(v.c1), to_json(v.c2)}); }
json to_json(const ff::fp12_t& v) { return json::array({to_json(v.c0), to_json(v.c1)}); }

json verification_key_json(const groth16::verifying_key_t& vk) {
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(to_json(p));
  return {
      {"protocol", "groth16"},
      {"curve", "bls12381"},
      {"nPublic", vk.num_public_inputs()},
      {"vk_alpha_1", to_json(vk.alpha_g1)},
      {"vk_beta_2", to_json(vk.beta_g2)},
      {"vk_gamma_2", to_json(vk.gamma_g2)},
      {"vk_delta_2", to_json(vk.delta_g2)},
      {"vk_alphabeta_12",
       to_json(pairing::final_exponentiation_cube(pairing::miller_loop(vk.alpha_g1, vk.beta_g2)))},
      {"IC", std::move(ic)},
  };
}

json proof_json(const groth16::proof_t& proof) {
  return {
      {"pi_a", to_json(proof.a)}, {"pi_b", to_json(proof.b)},  {"pi_c", to_json(proof.c)},
      {"protocol", "groth16"},    {"curve", "bls12381"},
  };
}

struct export_options {
  proof_input_paths_t inputs;
  std::string out_dir;
};

int run_export(const export_options& o) {
  auto [vk, proof, inputs] = read_proof_inputs(o.inputs);
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  if (ec) throw groth16::format_error(o.out_dir, "cannot create directory: " + ec.message());
  const std::filesystem::path dir(o.out_dir);
  // snarkjs writes its JSON with JSON.stringify(x, null, 1); so do we.
  write_text_file((dir / "verification_key.json").string(), verification_key_json(vk).dump(1) + "\n");
  write_text_file((dir / "proof.json").string(), proof_json(proof).dump(1) + "\n");
  groth16::write_public_inputs((dir / "public.json").string(), inputs);
  fmt::print("wrote verification_key.json, proof.json, public.json to {}\n", o.out_dir);
  fmt::print("check with: snarkjs groth16 verify {0}/verification_key.json {0}/public.json {0}/proof.json\n",
             o.out_dir);
  return exit_ok;
}

}  // namespace

command_t add_export_snarkjs_command(CLI::App& root) {
  auto o = std::make_shared<export_options>();
  auto* app = root.add_subcommand(
      "export-snarkjs", "Write verification_key.json, proof.json and public.json for snarkjs (curve bls12381)");
  add_proof_input_options(app, o->inputs);
  app->add_option("--out-dir", o->out_dir, "Output directory (created if missing)")->required();
  return {app, [o] { return run_export(*o); }};
}

}  // namespace cuzk::cli

// Verifies a proof exported by `cuzk export-snarkjs DIR` with snarkjs itself,
// an implementation independent of ours (ffjavascript's BLS12-381 in wasm).
//   node tests/js/snarkjs_verify.mjs DIR
// Exit 0 when snarkjs.groth16.verify returns true, 1 when it returns false,
// 2 when the files cannot be read or the export is malformed. When the key
// carries vk_alphabeta_12 it must equal snarkjs' own e(alpha, beta).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as snarkjs from "snarkjs";
import { buildBls12381, utils } from "ffjavascript";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node snarkjs_verify.mjs DIR (holding verification_key.json, public.json, proof.json)");
  process.exit(2);
}

function load(name) {
  return JSON.parse(readFileSync(join(dir, name), "utf8"));
}

async function alphabetaMatches(vk) {
  if (!("vk_alphabeta_12" in vk)) return true;
  const curve = await buildBls12381(true);
  try {
    const v = utils.unstringifyBigInts(vk);
    const expected = await curve.pairing(curve.G1.fromObject(v.vk_alpha_1), curve.G2.fromObject(v.vk_beta_2));
    return curve.Gt.eq(expected, curve.Gt.fromObject(v.vk_alphabeta_12));
  } finally {
    await curve.terminate();
  }
}

try {
  const vk = load("verification_key.json");
  const pub = load("public.json");
  const proof = load("proof.json");
  if (vk.curve !== "bls12381" || vk.protocol !== "groth16" || vk.nPublic !== pub.length ||
      vk.IC.length !== vk.nPublic + 1) {
    console.error("malformed export: curve, protocol, nPublic or IC length is wrong");
    process.exit(2);
  }
  if (!(await alphabetaMatches(vk))) {
    console.error("vk_alphabeta_12 differs from snarkjs' pairing(vk_alpha_1, vk_beta_2)");
    process.exit(2);
  }
  const ok = await snarkjs.groth16.verify(vk, pub, proof);
  console.log(ok ? "snarkjs: valid" : "snarkjs: invalid");
  // snarkjs leaves curve worker threads alive; exit explicitly.
  process.exit(ok ? 0 : 1);
} catch (e) {
  console.error("error:", e.message ?? e);
  process.exit(2);
}

#pragma once
// PoSt vanilla proofs on disk, for gen-vanilla, check-vanilla and prove
// (--kind window-post | winning-post): one bincode FallbackPoStSectorProof
// per file (DIR/sector-<id>.vproof, the bytes Curio puts in one
// vanilla_proofs entry) and DIR/inputs.json beside them:
//   {"kind": "window-post", "registered_proof": 10, "registered_name": "...",
//    "randomness": "<64 hex>", "miner_id": 1000, "sectors_per_partition": 2,
//    "sectors": [{"sector_id": 1, "comm_r": "<64 hex, LE>", "partition": 0,
//                 "file": "sector-1.vproof"}, ...]}
// The files of one request are read as filecoin::read_post_request reads a
// SubmitProofRequest's fields.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "filecoin/post_input.hpp"
#include "porep/post_proof_t.hpp"

namespace cuzk::cli {

struct gen_post_args_t {
  porep::post_kind_t kind = porep::post_kind_t::window;
  std::string sector_size;
  unsigned sectors = 1;
  std::uint64_t seed = 0;
  std::uint64_t miner_id = 1000;
  std::string registered;  // "" = V1 Winning / V1_1 Window of the size
  std::string out_dir;
};

struct post_files_request_t {
  porep::post_kind_t kind = porep::post_kind_t::window;
  std::string registered;  // required: a number 0..14 or a name
  std::string randomness;  // 64 hex digits
  std::uint64_t miner_id = 0;
  std::vector<std::string> files;
};

// "window-post" / "winning-post" (also "window", "wpost", "winning").
// Throws std::invalid_argument naming the text.
porep::post_kind_t parse_post_kind(const std::string& text);

int run_gen_post_vanilla(const gen_post_args_t& a);

// The files as partition `partition` of a request. Throws std::invalid_argument
// naming the option, or the file and the element inside it.
filecoin::post_input_t read_post_files(const post_files_request_t& r, unsigned partition);

}  // namespace cuzk::cli

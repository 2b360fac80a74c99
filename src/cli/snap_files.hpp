#pragma once
// SnapDeals vanilla proofs on disk, for gen-vanilla, check-vanilla and prove
// (--kind snap): one bincode PartitionProof per file (DIR/partition-<k>.vproof,
// the bytes Curio puts in vanilla_proofs[k]) and DIR/inputs.json beside them:
//   {"kind": "snap", "registered_proof": 0, "registered_name": "StackedDrg2KiBV1",
//    "comm_r_old": "<64 hex>", "comm_r_new": "<64 hex>", "comm_d_new": "<64 hex>",
//    "partitions": 1, "files": ["partition-0.vproof"]}
// The commitments are the raw 32 bytes Curio sends, in hex. The files of one
// update are read as filecoin::read_snap_request reads a SubmitProofRequest.
#include <cstdint>
#include <string>
#include <vector>

#include "filecoin/snap_input.hpp"

namespace cuzk::cli {

struct gen_snap_args_t {
  std::string sector_size;
  std::uint64_t seed = 0;
  std::string out_dir;
  // The repeated-block model (porep::snap_sector_model_t) at any size; it is
  // the default above 512 MiB, where the random model cannot go.
  bool repeated_blocks = false;
};

struct snap_files_request_t {
  std::string registered;  // required: a number 0..4 or a name
  std::string comm_r_old, comm_r_new, comm_d_new;  // 64 hex digits each
  std::vector<std::string> files;                  // partition 0, 1, ... in order
};

int run_gen_snap_vanilla(const gen_snap_args_t& a);

// Throws std::invalid_argument naming the option, or the file and the element inside it.
filecoin::snap_input_t read_snap_files(const snap_files_request_t& r);

}  // namespace cuzk::cli

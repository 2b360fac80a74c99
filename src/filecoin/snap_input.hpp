#pragma once
// A SnapDeals (EmptySectorUpdate) request (SubmitProofRequest with
// SNAP_DEALS_UPDATE: registered_proof 0–4, vanilla_proofs, comm_r_old,
// comm_r_new, comm_d_new, sector_size; CUZK_API.md 2.2, FILECOIN_FORMATS.md
// §4) read into the partitions the circuits prove: one bincode PartitionProof
// per partition (16 at 32 GiB), each read against the registered proof's
// shape (snap_bincode.hpp) and checked against the challenges comm_r_new
// draws for its partition (porep::check_snap_partition, h = the sector size's
// default, as filecoin-proofs' SectorUpdateConfig sets it).
//
// sector_size may be 0 (Curio's proof-share path leaves it unset): the
// registered proof gives it; a nonzero one must agree. The commitments are
// raw 32-byte values (Curio decodes the CIDs with commcid), each a canonical
// field element. Every error is std::invalid_argument naming the request
// field and, inside a blob, the partition and element
// ("vanilla_proofs[3]: challenge_proofs[5].proof_r_new: ... (partition 3)").
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "filecoin/registered_update_proof_t.hpp"
#include "porep/snap_proof_t.hpp"
#include "porep/snap_shape.hpp"

namespace cuzk::filecoin {

struct snap_request_t {
  std::uint64_t registered_proof = 0;  // FFI id 0..4
  std::uint64_t sector_size = 0;       // 0: take the registered proof's
  std::span<const std::vector<std::uint8_t>> vanilla_proofs;
  std::span<const std::uint8_t> comm_r_old, comm_r_new, comm_d_new;
};

struct snap_input_t {
  const registered_update_proof_t* proof = nullptr;
  porep::snap_shape_t shape;
  std::vector<porep::snap_partition_t> partitions;  // k = index
};

snap_input_t read_snap_request(const snap_request_t& r);

}  // namespace cuzk::filecoin

// read_snap_partition_bincode on arbitrary bytes, as a partition of each of the
// five registered update proofs' sizes and of the 1 KiB test size (whose Tree R
// is 8-4-0, so its proofs are Sub where 2 KiB's are Single; a blob of the wrong
// shape is refused at its first count, so trying them all costs little). The
// reader may reject only with std::invalid_argument (porep::vanilla_format_error
// is one). An accepted blob has exactly one encoding, so writing what was read
// must give back the input byte for byte. The checker must then run on it
// without throwing, against fixed public inputs (it stops at the roots) and
// against the ones the blob's own roots state (so a mutated valid seed reaches
// the challenge, encoding and apex checks).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "filecoin/registered_update_proof_t.hpp"
#include "filecoin/snap_bincode.hpp"
#include "fuzz_common.hpp"
#include "porep/merkle.hpp"
#include "porep/snap_vanilla.hpp"

using namespace cuzk;

namespace {

std::vector<porep::snap_shape_t> make_shapes() {
  std::vector<porep::snap_shape_t> out{porep::snap_shape_for(1024)};
  for (const auto& rp : filecoin::registered_update_proofs()) out.push_back(rp.shape());
  return out;
}

// Partition 0's public inputs as the proof states them: comm_r_old and
// comm_r_new = Poseidon_2(comm_c, root), comm_d_new its Tree D root.
porep::snap_public_t stated_public_inputs(const porep::snap_shape_t& shape, const porep::snap_partition_proof_t& p) {
  const auto& c = p.challenges[0];
  const ff::fr_t old_in[2] = {p.comm_c, c.r_old.root}, new_in[2] = {p.comm_c, c.r_new.root};
  return {0, porep::hash_children(porep::tree_hash_t::poseidon, old_in), c.d_new.root,
          porep::hash_children(porep::tree_hash_t::poseidon, new_in), shape.h_default()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<porep::snap_shape_t> shapes = make_shapes();
  const std::span<const std::uint8_t> in(data, size);
  for (const auto& shape : shapes) {
    porep::snap_partition_proof_t p;
    try {
      p = filecoin::read_snap_partition_bincode(in, shape);
    } catch (const std::invalid_argument&) {
      continue;
    }
    std::string back;
    try {
      back = filecoin::write_snap_partition_bincode(p, shape);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "writing an accepted blob failed: %s\n", e.what());
      fuzz::fuzz_require(false, "write_snap_partition_bincode takes what read_snap_partition_bincode accepts");
    }
    fuzz::fuzz_require(back.size() == size && std::equal(back.begin(), back.end(), reinterpret_cast<const char*>(data)),
                       "an accepted blob round-trips byte for byte");
    const porep::snap_public_t fixed{0, ff::fr_t::from_u64(1), ff::fr_t::from_u64(2), ff::fr_t::from_u64(3),
                                     shape.h_default()};
    (void)porep::check_snap_partition(shape, fixed, p);
    (void)porep::check_snap_partition(shape, stated_public_inputs(shape, p), p);
  }
  return 0;
}

#pragma once
// The compiled form of an official circuit (PoRep, WindowPoSt, WinningPoSt,
// SnapDeals) of a sector size: the same shared instance the engine's
// synthesis of that circuit uses, built on first use (seconds at 32 GiB:
// `cuzk circuit-info` times it). For `cuzk circuit-info` and for warming a
// size on preload, so the first job of that size does not pay for it on its
// submit.
#include <cstdint>
#include <memory>

#include "circuits/porep_compiled_t.hpp"
#include "filecoin/parameter_manifest_t.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::circuits {

// Throws std::invalid_argument for a size the kind does not have.
std::shared_ptr<const porep_compiled_t> compiled_for(filecoin::parameter_kind_t kind, std::uint64_t sector_bytes);

// The query counts a Groth16 setup of this circuit writes (the official
// file's layout): H one less than the domain, L every aux, A every input and
// the aux in A, B_g1 and B_g2 the inputs and aux in B (the compiled rows'
// density bitmaps), IC every input. Walks the densities once.
groth16::query_sizes_t parameter_query_sizes(const porep_compiled_t& compiled);

}  // namespace cuzk::circuits

#pragma once
// Reading and writing parameter and verifying-key files in bellperson's layout
// (big-endian u32 counts, uncompressed points):
//   vk:     alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 u32 n_ic ic[n_ic]
//   params: vk, then u32-counted h, l, a, b_g1 (G1) and b_g2 (G2).
// Files are read through mmap; every point is checked to be canonical, on the
// curve, in the subgroup and not infinity (bellman rejects infinity in both
// files), in parallel. Errors throw format_error naming the file, the section,
// the index and the reason.
//
// The subgroup check is nearly all of the reading time (~25 us per G1 point
// on one core: 128 doublings; a 32 GiB PoRep file holds ~500 M points). For
// files whose integrity is established otherwise (a digest, as Filecoin's
// parameters.json; our own setup's output), subgroup_check::skip keeps every
// other check (canonical, on the curve, not infinity) on the query points;
// the verifying key's points are always checked fully.
#include <functional>
#include <span>
#include <string>

#include "ec/encoding.hpp"
#include "groth16/format_error.hpp"
#include "groth16/parameters_t.hpp"

namespace cuzk::groth16 {

parameters_t read_parameters(const std::string& path, ec::subgroup_check chk = ec::subgroup_check::check);

// Reads the file once (mmap) for both: `trusted` runs on its own thread over
// the whole file's bytes (a digest against a manifest, say) while the points
// are parsed without the subgroup checks; when it returns false, the query
// points are subgroup-checked afterwards (all of them, in parallel, the first
// bad one reported as read_parameters does). Everything else is checked as
// read_parameters does. *trusted_out, when given, says which way it went.
parameters_t read_parameters_if_trusted(const std::string& path,
                                        const std::function<bool(std::span<const uint8_t>)>& trusted,
                                        bool* trusted_out = nullptr);
verifying_key_t read_verifying_key(const std::string& path);
void write_parameters(const std::string& path, const parameters_t& params);
void write_verifying_key(const std::string& path, const verifying_key_t& vk);

// The same parsers on bytes already in memory (fuzz targets use these).
parameters_t parse_parameters(std::span<const uint8_t> bytes, const std::string& name,
                              ec::subgroup_check chk = ec::subgroup_check::check);
verifying_key_t parse_verifying_key(std::span<const uint8_t> bytes, const std::string& name);

// What a file holds, for `cuzk info`.
struct file_summary {
  std::string kind;  // "parameters" or "verifying key"
  verifying_key_t vk;
  size_t h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  size_t file_bytes = 0;
};
file_summary summarize_file(const std::string& path);

}  // namespace cuzk::groth16

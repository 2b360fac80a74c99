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
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

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

// Where a parameter file's queries lie, read without their points (issue 18:
// parameters that never sit whole in host memory). Query q is 0 h, 1 l, 2 a,
// 3 b_g1, 4 b_g2 (gpu_prover_t::query_names' order). The verifying key is
// read and checked fully; the counts are checked against the file's length
// (every declared point present, no trailing bytes) and A against the inputs.
struct parameter_layout_t {
  static constexpr uint32_t queries = 5;
  verifying_key_t vk;
  query_sizes_t sizes;
  std::array<uint64_t, queries> offset{};  // byte offset of each query's first point
  uint64_t file_bytes = 0;

  uint64_t count(uint32_t q) const;
  // Bytes of query q's points (96 per G1 point, 192 per G2 point, as in
  // memory: parameters_t::bytes()).
  uint64_t query_bytes(uint32_t q) const;
  // What parameters_t::bytes() would count with only the queries of `held`
  // (bit q) in memory.
  uint64_t bytes_holding(uint32_t held) const;
  static constexpr const char* name(uint32_t q) {
    constexpr const char* names[queries] = {"h", "l", "a", "b_g1", "b_g2"};
    return names[q];
  }
};
parameter_layout_t parse_parameter_layout(std::span<const uint8_t> bytes, const std::string& name);
// The length of a parameter file holding queries of these sizes (the layout
// above: the vk with sizes.ic points in ic, five counts, the points).
uint64_t parameter_file_bytes(const query_sizes_t& sizes);

// A parameter file mapped once and read query by query, or a range of one
// query at a time, with read_parameters' checks: the reads name the file, the
// query and the point's index within it. Reads may run on several threads.
class parameter_file_t {
 public:
  // Throws format_error like read_parameters on a missing file or a bad layout.
  explicit parameter_file_t(const std::string& path);
  ~parameter_file_t();
  parameter_file_t(const parameter_file_t&) = delete;
  parameter_file_t& operator=(const parameter_file_t&) = delete;

  const std::string& path() const { return path_; }
  const parameter_layout_t& layout() const { return layout_; }
  std::span<const uint8_t> bytes() const;

  // Points [at, at + out.size()) of G1 query q (0..3) or of b_g2, decoded in
  // parallel; the first bad one is reported as "<query>[<index>]".
  void read(uint32_t q, size_t at, std::span<g1_affine_t> out, ec::subgroup_check chk) const;
  void read(size_t at, std::span<g2_affine_t> out, ec::subgroup_check chk) const;
  std::vector<g1_affine_t> g1_query(uint32_t q, ec::subgroup_check chk) const;
  std::vector<g2_affine_t> g2_query(ec::subgroup_check chk) const;
  // Decodes query q in pieces of `chunk` points with the subgroup checks,
  // keeping nothing: the checks a digest mismatch calls for, for queries
  // that were read without them. Throws on the first bad point.
  void check_subgroups(uint32_t q, size_t chunk = size_t(1) << 20) const;
  // The queries in `wanted` (bit q) read into a parameters_t with the
  // verifying key; the others stay empty.
  parameters_t read_queries(uint32_t wanted, ec::subgroup_check chk) const;

 private:
  struct mapping;
  std::string path_;
  std::unique_ptr<mapping> map_;
  parameter_layout_t layout_;
};

// What a file holds, for `cuzk info`.
struct file_summary {
  std::string kind;  // "parameters" or "verifying key"
  verifying_key_t vk;
  size_t h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  size_t file_bytes = 0;
};
// check_points false: the layout only (every count checked against the
// file's length, the vk's points checked, the queries' points not read):
// instant on a 44 GiB file, where checking every point takes core-hours.
file_summary summarize_file(const std::string& path, bool check_points = true);

}  // namespace cuzk::groth16

// Parameter files read query by query (groth16::parameter_file_t, issue 18):
// the layout against offsets computed here from bellperson's byte layout and
// against parse_parameters; range reads against the whole read; the errors of
// truncated, padded and corrupted files, naming the query and the point's
// index in it; the chunked subgroup checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "circuits/circuits.hpp"
#include "ec/off_subgroup_point.hpp"
#include "groth16/groth16.hpp"
#include "groth16/param_io.hpp"
#include "error_of.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

struct file_fixture_t {
  parameters_t params;
  std::filesystem::path dir;
  std::string path;

  explicit file_fixture_t(const char* name) {
    auto circuit = circuits::make_circuit("hash-chain", 32);
    seeded_rng rng(test::seed(name));
    params = generate_parameters(*circuit, toxic_waste_t::random(rng));
    dir = std::filesystem::temp_directory_path() / ("cuzk_param_file_" + std::to_string(::getpid()) + "_" + name);
    std::filesystem::create_directories(dir);
    path = (dir / "p.params").string();
    write_parameters(path, params);
  }
  ~file_fixture_t() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::vector<uint8_t> bytes() const {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  std::string write(const std::string& name, const std::vector<uint8_t>& b) const {
    const auto p = (dir / name).string();
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    return p;
  }
  // Byte offset of query q's first point, from bellperson's layout: the vk
  // (3 G1, 3 G2, a u32 count and the IC points), then per query a u32 count
  // and its points.
  uint64_t offset_of(uint32_t q) const {
    const uint64_t counts[5] = {params.h.size(), params.l.size(), params.a.size(), params.b_g1.size(),
                                params.b_g2.size()};
    uint64_t at = 96 * 3 + 192 * 3 + 4 + 96 * params.vk.ic.size();
    for (uint32_t i = 0; i < q; ++i) at += 4 + counts[i] * (i == 4 ? 192 : 96);
    return at + 4;
  }
};

}  // namespace

TEST(parameter_file, layout_matches_the_byte_layout_and_the_whole_read) {
  file_fixture_t f("param_file_layout");
  const parameter_file_t file(f.path);
  const auto& l = file.layout();
  EXPECT_EQ(l.vk, f.params.vk);
  EXPECT_EQ(l.sizes, query_sizes_t::of(f.params));
  EXPECT_EQ(l.file_bytes, std::filesystem::file_size(f.path));
  EXPECT_EQ(parameter_file_bytes(l.sizes), l.file_bytes);
  for (uint32_t q = 0; q < parameter_layout_t::queries; ++q) EXPECT_EQ(l.offset[q], f.offset_of(q)) << q;
  EXPECT_EQ(l.bytes_holding(0x1f), f.params.bytes());
  EXPECT_EQ(l.query_bytes(4), f.params.b_g2.size() * sizeof(g2_affine_t));
  // Every query read through the layout equals the whole read.
  EXPECT_EQ(file.read_queries(0x1f, ec::subgroup_check::check), read_parameters(f.path));
  // Only the queries asked for.
  const auto some = file.read_queries(0b01010, ec::subgroup_check::check);
  EXPECT_TRUE(some.h.empty());
  EXPECT_EQ(some.l, f.params.l);
  EXPECT_TRUE(some.a.empty());
  EXPECT_EQ(some.b_g1, f.params.b_g1);
  EXPECT_TRUE(some.b_g2.empty());
  EXPECT_EQ(some.vk, f.params.vk);
  EXPECT_EQ(some.bytes(), l.bytes_holding(0b01010));
  // A range, as a device load reads it.
  std::vector<g1_affine_t> mid(3);
  file.read(0, 2, mid, ec::subgroup_check::check);
  EXPECT_TRUE(std::equal(mid.begin(), mid.end(), f.params.h.begin() + 2));
  std::vector<g2_affine_t> tail(2);
  file.read(f.params.b_g2.size() - 2, tail, ec::subgroup_check::check);
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), f.params.b_g2.end() - 2));
  EXPECT_THROW(file.read(0, f.params.h.size() - 1, mid, ec::subgroup_check::check), std::out_of_range);
  EXPECT_THROW(file.read(4, 0, mid, ec::subgroup_check::check), std::out_of_range);  // b_g2 is G2
  file.check_subgroups(0, 3);  // every query in pieces of 3: nothing to report
  file.check_subgroups(4, 1);
}

TEST(parameter_file, bad_files_are_named_by_query_and_index) {
  file_fixture_t f("param_file_bad");
  const auto bytes = f.bytes();
  // Truncated anywhere, or with a byte more: the layout alone refuses it, as the whole parser does.
  for (size_t cut : {size_t(0), size_t(10), size_t(900), size_t(f.offset_of(2)) + 50, bytes.size() - 1}) {
    auto t = std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(cut));
    const auto p = f.write("cut.params", t);
    EXPECT_NE(test::error_of([&] { parameter_file_t x(p); }).find("truncated"), std::string::npos) << cut;
    EXPECT_THROW(read_parameters(p), format_error);
  }
  auto t = bytes;
  t.push_back(0);
  EXPECT_NE(test::error_of([&] { parameter_file_t x(f.write("pad.params", t)); }).find("trailing"), std::string::npos);
  // A count larger than the file: refused, nothing allocated.
  t = bytes;
  t[f.offset_of(1) - 4] = 0xff;
  EXPECT_NE(test::error_of([&] { parameter_file_t x(f.write("count.params", t)); }).find("truncated in l"),
            std::string::npos);

  // A point off the curve at h[5]: the layout does not read points, so it opens; a
  // read that covers it names it by its index in h, wherever the range starts.
  ASSERT_GE(f.params.h.size(), 8u);
  t = bytes;
  t[f.offset_of(0) + 5 * 96 + 95] ^= 1;
  const parameter_file_t file(f.write("point.params", t));
  std::vector<g1_affine_t> four(4);
  EXPECT_NO_THROW(file.read(0, 0, four, ec::subgroup_check::check));  // h[0..3]
  EXPECT_NE(test::error_of([&] { file.read(0, 3, four, ec::subgroup_check::check); }).find("h[5]: point not on the curve"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { file.g1_query(0, ec::subgroup_check::skip); }).find("h[5]"), std::string::npos);
  EXPECT_EQ(file.g1_query(1, ec::subgroup_check::check), f.params.l);  // other queries still read

  // On the curve, outside the subgroup, at b_g2[1]: read without the checks,
  // found by check_subgroups in pieces of one point.
  t = bytes;
  const auto outside = ec::serialize(ec::off_subgroup_point<ec::g2_curve>());
  std::copy(outside.begin(), outside.end(), t.begin() + std::ptrdiff_t(f.offset_of(4) + 192));
  const parameter_file_t sub(f.write("subgroup.params", t));
  EXPECT_EQ(sub.g2_query(ec::subgroup_check::skip)[1], ec::off_subgroup_point<ec::g2_curve>());
  EXPECT_NE(test::error_of([&] { sub.check_subgroups(4, 1); }).find("b_g2[1]: point not in the prime-order subgroup"),
            std::string::npos);
  EXPECT_NE(test::error_of([&] { sub.g2_query(ec::subgroup_check::check); }).find("b_g2[1]"), std::string::npos);
  EXPECT_NO_THROW(sub.check_subgroups(3, 2));
}

// Real Filecoin PoRep proofs from rust-fil-proofs' seal regression records
// (tests/fixtures/filecoin/, copied from filecoin-project/rust-fil-proofs): every
// plain Groth16 proof must decode (canonical, on curve, in subgroup) and
// re-encode to the same bytes; corruptions derived from them must be rejected
// with the right reason.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "ec/ec.hpp"
#include "ec/off_subgroup_point.hpp"
#include "groth16/proof_t.hpp"
#include "test_seed.hpp"

using namespace cuzk;
using namespace cuzk::ec;
using groth16::decode_proof;
using groth16::proof_size;
using groth16::proof_t;
using bytes_t = std::vector<uint8_t>;

namespace {

struct fixture_proof {
  std::string origin;  // file:line#partition, for failure messages
  bytes_t bytes;
};

struct fixture_set {
  std::vector<fixture_proof> proofs;
  std::set<uint64_t> sector_sizes;
  size_t records = 0;  // records with plain per-partition proofs
  size_t skipped = 0;  // other proof layouts (SnarkPack aggregates of NI-PoRep)
};

// The regression files are JSON lines; a record's "proof" holds `partitions`
// concatenated 192-byte proofs unless it is an aggregate.
const fixture_set& fixtures() {
  static const fixture_set set = [] {
    fixture_set s;
    for (const char* file : {"seal_regression_records-v16.json", "seal_regression_records-v18.json"}) {
      const std::string path = test::source_path(std::string("tests/fixtures/filecoin/") + file);
      std::ifstream in(path);
      EXPECT_TRUE(in) << "cannot open " << path;
      std::string line;
      for (size_t lineno = 1; std::getline(in, line); ++lineno) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto rec = nlohmann::json::parse(line);
        const auto& cfg = rec.at("porep_config");
        const size_t partitions = cfg.at("partitions").get<size_t>();
        const auto proof = rec.at("proof").get<bytes_t>();
        if (proof.size() != proof_size * partitions) {
          std::cout << "[note] " << file << ":" << lineno << " skipped: " << proof.size() << "-byte proof for "
                    << partitions << " partitions, features " << cfg.at("api_features").dump() << "\n";
          ++s.skipped;
          continue;
        }
        ++s.records;
        s.sector_sizes.insert(cfg.at("sector_size").get<uint64_t>());
        for (size_t k = 0; k < partitions; ++k) {
          s.proofs.push_back({std::string(file) + ":" + std::to_string(lineno) + "#" + std::to_string(k),
                              bytes_t(proof.begin() + k * proof_size, proof.begin() + (k + 1) * proof_size)});
        }
      }
    }
    return s;
  }();
  return set;
}

// Offsets of the three elements inside a proof.
constexpr size_t off_a = 0, off_b = 48, off_c = 144;

void put_fp(bytes_t& b, size_t off, const fp_t& v) {
  const uint8_t flags = b[off] & 0xe0;
  v.to_bytes_be(std::span<uint8_t>(b).subspan(off, 48));
  b[off] |= flags;
}
// p itself, big-endian: the smallest non-canonical coordinate.
std::array<uint8_t, 48> modulus_be() {
  std::array<uint8_t, 48> out{};
  for (size_t i = 0; i < 48; ++i) out[47 - i] = uint8_t(fp_t::modulus[i / 8] >> (8 * (i % 8)));
  return out;
}
void put_modulus(bytes_t& b, size_t off, bool keep_flags) {
  const uint8_t flags = keep_flags ? b[off] & 0xe0 : 0;
  auto m = modulus_be();
  std::copy(m.begin(), m.end(), b.begin() + long(off));
  b[off] |= flags;
}

// The first x above `start` whose x^3 + b has no square root (no y exists).
template <class F, class C>
F next_x_off_curve(F start) {
  for (F x = start + F::one();; x += F::one()) {
    if (!(x.sqr() * x + C::b()).sqrt()) return x;
  }
}

groth16::proof_decode_result decode(const bytes_t& b) {
  proof_t p;
  return decode_proof(b, p);
}

// Corruptions are applied to a spread of real proofs (every size, both files).
std::vector<bytes_t> sample_proofs(size_t n) {
  const auto& all = fixtures().proofs;
  std::vector<bytes_t> out;
  for (size_t i = 0; i < n && !all.empty(); ++i) out.push_back(all[i * all.size() / n].bytes);
  return out;
}

}  // namespace

TEST(filecoin_fixtures, every_plain_proof_decodes_and_round_trips) {
  const auto& fx = fixtures();
  for (const auto& fp : fx.proofs) {
    proof_t p;
    auto r = decode_proof(fp.bytes, p);
    ASSERT_TRUE(r.ok()) << fp.origin << ": " << r.message();
    auto enc = p.encode();
    ASSERT_TRUE(std::equal(enc.begin(), enc.end(), fp.bytes.begin(), fp.bytes.end())) << fp.origin;
    EXPECT_FALSE(p.a.is_inf() || p.b.is_inf() || p.c.is_inf()) << fp.origin;
  }
  std::cout << "[fixtures] " << fx.records << " records, " << fx.proofs.size() << " proofs, "
            << fx.sector_sizes.size() << " sector sizes checked; " << fx.skipped << " aggregate records skipped\n";
  // Counts observed in the v16 + v18 files: a silent parse failure must not pass.
  EXPECT_GE(fx.records, 537u);
  EXPECT_GE(fx.proofs.size(), 600u);
  EXPECT_GE(fx.sector_sizes.size(), 5u);  // 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB
  EXPECT_GE(fx.skipped, 24u);
}

TEST(filecoin_fixtures, fast_subgroup_check_agrees_with_order_check) {
  // Multiplication by r: about 1.5 ms per proof (three points) in Release, so
  // all 600 fixture proofs cost about a second.
  const auto& all = fixtures().proofs;
  size_t checked = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    proof_t p;
    ASSERT_TRUE(decode_proof(all[i].bytes, p).ok()) << all[i].origin;
    EXPECT_TRUE(in_subgroup(p.a) && in_subgroup_by_order(p.a)) << all[i].origin;
    EXPECT_TRUE(in_subgroup(p.b) && in_subgroup_by_order(p.b)) << all[i].origin;
    EXPECT_TRUE(in_subgroup(p.c) && in_subgroup_by_order(p.c)) << all[i].origin;
    ++checked;
  }
  EXPECT_GE(checked, 600u);
}

TEST(filecoin_fixtures, wrong_length_is_rejected) {
  auto b = sample_proofs(1).at(0);
  bytes_t shorter(b.begin(), b.end() - 1), longer = b;
  longer.push_back(0);
  EXPECT_EQ(decode(shorter).error, point_error::wrong_length);
  EXPECT_EQ(decode(longer).error, point_error::wrong_length);
}

TEST(filecoin_fixtures, flag_corruptions_are_rejected) {
  for (const auto& base : sample_proofs(12)) {
    for (auto [off, name] : {std::pair{off_a, "A"}, std::pair{off_b, "B"}, std::pair{off_c, "C"}}) {
      auto b = base;
      b[off] ^= 0x80;  // claims the uncompressed form at the compressed length
      auto r = decode(b);
      EXPECT_EQ(r.error, point_error::bad_flags);
      EXPECT_STREQ(r.element, name);

      b = base;
      b[off] = uint8_t((b[off] | 0x40) & ~0x20);  // infinity, but x stays non-zero
      r = decode(b);
      EXPECT_EQ(r.error, point_error::coordinate_not_canonical);
      EXPECT_STREQ(r.element, name);

      b = base;
      b[off] |= 0x60;  // infinity with the sign flag set
      EXPECT_EQ(decode(b).error, point_error::bad_flags);
    }
  }
}

TEST(filecoin_fixtures, non_canonical_coordinates_are_rejected) {
  for (const auto& base : sample_proofs(12)) {
    // G1: the five value bits under the flags all set make x > p (p starts 0x1a).
    for (auto [off, name] : {std::pair{off_a, "A"}, std::pair{off_c, "C"}}) {
      auto b = base;
      b[off] |= 0x1f;
      auto r = decode(b);
      EXPECT_EQ(r.error, point_error::coordinate_not_canonical);
      EXPECT_STREQ(r.element, name);
      b = base;
      put_modulus(b, off, true);  // x = p exactly
      EXPECT_EQ(decode(b).error, point_error::coordinate_not_canonical);
    }
    // G2: x = c1 || c0, each must be below p on its own.
    auto b = base;
    b[off_b] |= 0x1f;
    EXPECT_EQ(decode(b).error, point_error::coordinate_not_canonical);
    b = base;
    put_modulus(b, off_b, true);
    EXPECT_EQ(decode(b).error, point_error::coordinate_not_canonical);
    b = base;
    b[off_b + 48] = 0xff;  // c0 carries no flags: any top byte above 0x1a is > p
    auto r = decode(b);
    EXPECT_EQ(r.error, point_error::coordinate_not_canonical);
    EXPECT_STREQ(r.element, "B");
    b = base;
    put_modulus(b, off_b + 48, false);
    EXPECT_EQ(decode(b).error, point_error::coordinate_not_canonical);
  }
}

TEST(filecoin_fixtures, x_without_a_curve_point_is_rejected) {
  for (const auto& base : sample_proofs(6)) {
    proof_t p;
    ASSERT_TRUE(decode_proof(base, p).ok());
    auto b = base;
    put_fp(b, off_a, next_x_off_curve<fp_t, g1_curve>(p.a.x));
    auto r = decode(b);
    EXPECT_EQ(r.error, point_error::not_on_curve);
    EXPECT_STREQ(r.element, "A");

    b = base;
    put_fp(b, off_c, next_x_off_curve<fp_t, g1_curve>(p.c.x));
    EXPECT_EQ(decode(b).error, point_error::not_on_curve);

    b = base;
    fp2_t x2 = next_x_off_curve<fp2_t, g2_curve>(p.b.x);
    put_fp(b, off_b, x2.c1);
    put_fp(b, off_b + 48, x2.c0);
    r = decode(b);
    EXPECT_EQ(r.error, point_error::not_on_curve);
    EXPECT_STREQ(r.element, "B");
  }
}

TEST(filecoin_fixtures, curve_points_outside_the_subgroup_are_rejected) {
  const g1_affine_t p1 = ec::off_subgroup_point<g1_curve>();
  const g2_affine_t p2 = ec::off_subgroup_point<g2_curve>();
  // The fast endomorphism test must agree with the slow one on these too.
  EXPECT_FALSE(in_subgroup(p1));
  EXPECT_FALSE(in_subgroup(p2));
  for (const auto& p : {p1, -p1}) {
    auto c = compress(p);
    g1_affine_t q;
    EXPECT_EQ(ec::decode(c, q, subgroup_check::skip), point_error::none);
    EXPECT_EQ(q, p);
    for (const auto& base : sample_proofs(4)) {
      for (auto [off, name] : {std::pair{off_a, "A"}, std::pair{off_c, "C"}}) {
        auto b = base;
        std::copy(c.begin(), c.end(), b.begin() + long(off));
        auto r = decode(b);
        EXPECT_EQ(r.error, point_error::not_in_subgroup);
        EXPECT_STREQ(r.element, name);
      }
    }
  }
  for (const auto& p : {p2, -p2}) {
    auto c = compress(p);
    g2_affine_t q;
    EXPECT_EQ(ec::decode(c, q, subgroup_check::skip), point_error::none);
    EXPECT_EQ(q, p);
    for (const auto& base : sample_proofs(4)) {
      auto b = base;
      std::copy(c.begin(), c.end(), b.begin() + long(off_b));
      auto r = decode(b);
      EXPECT_EQ(r.error, point_error::not_in_subgroup);
      EXPECT_STREQ(r.element, "B");
    }
  }
}

#!/usr/bin/env node
// Known-answer test vector generator for the cuzk BLS12-381 engine.
//
// Reference implementation: @noble/curves (bls12-381), plus plain BigInt arithmetic
// written here for the cross-checks (own point encoder, generic exponentiations).
// Output: JSON files described in tests/kat/README.md.
//
// Usage (from the repository root):   node tests/js/gen_kat.mjs tests/kat
// or (from tests/js):                 npm run kat
//
// The output is a pure function of MASTER_SEED: re-running produces byte-identical files.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import { bytesToHex, hexToBytes } from '@noble/curves/utils.js';

const MASTER_SEED = 0x637a6b4b41543031n; // ASCII "czkKAT01"

const { Fp, Fr, Fp2, Fp6, Fp12 } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;
const P_MOD = Fp.ORDER;
const R_MOD = Fr.ORDER;
// BLS parameter x (negative for BLS12-381).
const BLS_X = -0xd201000000010000n;

// ---------------------------------------------------------------------------
// Deterministic PRNG: SplitMix64 over BigInt.
// ---------------------------------------------------------------------------
const M64 = (1n << 64n) - 1n;

class SplitMix64 {
  constructor(seed) {
    this.state = BigInt.asUintN(64, seed);
  }
  next64() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & M64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return z ^ (z >> 31n);
  }
  // uniform integer with exactly `n` random bits (top bits may be zero)
  bits(n) {
    let acc = 0n;
    for (let got = 0; got < n; got += 64) acc = (acc << 64n) | this.next64();
    return acc & ((1n << BigInt(n)) - 1n);
  }
  // uniform in [0, m)
  below(m) {
    const n = m.toString(2).length;
    for (;;) {
      const v = this.bits(n);
      if (v < m) return v;
    }
  }
  // small integer in [0, n)
  small(n) {
    return Number(this.next64() % BigInt(n));
  }
}

// FNV-1a 64 of a string, used to derive one independent stream per output file.
function fnv64(s) {
  let h = 0xcbf29ce484222325n;
  for (const ch of Buffer.from(s, 'utf8')) {
    h ^= BigInt(ch);
    h = (h * 0x100000001b3n) & M64;
  }
  return h;
}

function streamFor(name) {
  const seed = new SplitMix64(MASTER_SEED ^ fnv64(name)).next64();
  return { rng: new SplitMix64(seed), seedHex: seed.toString(16).padStart(16, '0') };
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------
function check(cond, msg) {
  if (!cond) throw new Error('self-check failed: ' + msg);
}

const modp = (a, m) => ((a % m) + m) % m;

function hexN(v, chars) {
  check(typeof v === 'bigint' && v >= 0n, 'hexN expects non-negative bigint');
  const s = v.toString(16);
  check(s.length <= chars, `value too wide for ${chars} hex chars`);
  return s.padStart(chars, '0');
}

const hFp = (v) => {
  check(v < P_MOD, 'Fp value not canonical');
  return hexN(v, 96);
};
const hFr = (v) => {
  check(v < R_MOD, 'Fr value not canonical');
  return hexN(v, 64);
};
const hFp2 = (a) => ({ c0: hFp(a.c0), c1: hFp(a.c1) });
const hFp6 = (a) => ({ c0: hFp2(a.c0), c1: hFp2(a.c1), c2: hFp2(a.c2) });
const hFp12 = (a) => ({ c0: hFp6(a.c0), c1: hFp6(a.c1) });

const mkFp2 = (c0, c1) => Fp2.create({ c0: modp(c0, P_MOD), c1: modp(c1, P_MOD) });

// generic square-and-multiply, independent of the field object's own pow()
function powGeneric(F, a, e) {
  let acc = F.ONE;
  const bits = e.toString(2);
  for (const b of bits) {
    acc = F.sqr(acc);
    if (b === '1') acc = F.mul(acc, a);
  }
  return e === 0n ? F.ONE : acc;
}

// ---------------------------------------------------------------------------
// Own Zcash/blst point encoder (cross-checked against noble for valid points,
// and used for the invalid / off-subgroup vectors that noble refuses to encode).
// ---------------------------------------------------------------------------
const HALF_P = (P_MOD - 1n) / 2n;
const fpBytesHex = (v) => hexN(v, 96); // 48 bytes, not range-checked (used for x >= p tests too)

function setFlags(hex, flags) {
  const first = parseInt(hex.slice(0, 2), 16);
  check((first & 0xe0) === 0, 'flag bits already occupied');
  return (first | flags).toString(16).padStart(2, '0') + hex.slice(2);
}

function encG1(x, y, inf, compressed) {
  if (inf) {
    const len = compressed ? 48 : 96;
    return setFlags('00'.repeat(len), compressed ? 0xc0 : 0x40);
  }
  if (compressed) return setFlags(fpBytesHex(x), 0x80 | (y > HALF_P ? 0x20 : 0));
  return fpBytesHex(x) + fpBytesHex(y);
}

function fp2Larger(y) {
  return y.c1 !== 0n ? y.c1 > HALF_P : y.c0 > HALF_P;
}

function encG2(x, y, inf, compressed) {
  if (inf) {
    const len = compressed ? 96 : 192;
    return setFlags('00'.repeat(len), compressed ? 0xc0 : 0x40);
  }
  const xs = fpBytesHex(x.c1) + fpBytesHex(x.c0);
  if (compressed) return setFlags(xs, 0x80 | (fp2Larger(y) ? 0x20 : 0));
  return xs + fpBytesHex(y.c1) + fpBytesHex(y.c0);
}

function g1Json(P) {
  const inf = P.is0();
  if (inf) P = G1.ZERO; // noble only encodes the canonical (0, 1, 0) identity
  const { x, y } = inf ? { x: 0n, y: 0n } : P.toAffine();
  const compressed = bytesToHex(P.toBytes(true));
  const uncompressed = bytesToHex(P.toBytes(false));
  check(compressed === encG1(x, y, inf, true), 'G1 compressed encoding mismatch vs own encoder');
  check(uncompressed === encG1(x, y, inf, false), 'G1 uncompressed encoding mismatch vs own encoder');
  return { x: hFp(x), y: hFp(y), inf, compressed, uncompressed };
}

function g2Json(P) {
  const inf = P.is0();
  if (inf) P = G2.ZERO; // noble only encodes the canonical (0, 1, 0) identity
  const { x, y } = inf ? { x: Fp2.ZERO, y: Fp2.ZERO } : P.toAffine();
  const compressed = bytesToHex(P.toBytes(true));
  const uncompressed = bytesToHex(P.toBytes(false));
  check(compressed === encG2(x, y, inf, true), 'G2 compressed encoding mismatch vs own encoder');
  check(uncompressed === encG2(x, y, inf, false), 'G2 uncompressed encoding mismatch vs own encoder');
  return { x: hFp2(x), y: hFp2(y), inf, compressed, uncompressed };
}

// plain double-and-add; valid for any curve point (no endomorphism tricks)
function mulPlain(P, k) {
  let acc = P.constructor.ZERO;
  for (const b of k.toString(2)) {
    acc = acc.double();
    if (b === '1') acc = acc.add(P);
  }
  return acc;
}

// ---------------------------------------------------------------------------
// Output formatting: top-level keys one per line, arrays one element per line.
// ---------------------------------------------------------------------------
function render(value, depth = 0) {
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (depth < 2 && Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return '[\n' + value.map((v) => pad + render(v, depth + 2)).join(',\n') + '\n' + end + ']';
  }
  if (depth < 1 && value && typeof value === 'object') {
    const keys = Object.keys(value);
    return (
      '{\n' +
      keys.map((k) => pad + JSON.stringify(k) + ': ' + render(value[k], depth + 1)).join(',\n') +
      '\n' +
      end +
      '}'
    );
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------
// Tower / convention self-checks
// ---------------------------------------------------------------------------
function checkTower() {
  const u = mkFp2(0n, 1n);
  check(Fp2.eql(Fp2.sqr(u), mkFp2(-1n, 0n)), 'u^2 = -1');
  const v = { c0: Fp2.ZERO, c1: Fp2.ONE, c2: Fp2.ZERO };
  check(Fp6.eql(Fp6.mul(Fp6.sqr(v), v), { c0: mkFp2(1n, 1n), c1: Fp2.ZERO, c2: Fp2.ZERO }), 'v^3 = u+1');
  const w = { c0: Fp6.ZERO, c1: Fp6.ONE };
  check(Fp12.eql(Fp12.sqr(w), { c0: v, c1: Fp6.ZERO }), 'w^2 = v');
  check(Fp2.eql(Fp2.NONRESIDUE, mkFp2(1n, 1n)), 'Fp2.NONRESIDUE = u+1');
}

// ---------------------------------------------------------------------------
// Prime fields (Fp, Fr)
// ---------------------------------------------------------------------------
function primeEdges(F, limbs) {
  const p = F.ORDER;
  const out = [0n, 1n, 2n, p - 1n, p - 2n, (p - 1n) / 2n, (p + 1n) / 2n];
  out.push((1n << 64n) - 1n, 1n << 64n, 1n << 128n, (1n << 192n) - 1n);
  for (let i = 0; i < limbs; i++) {
    const v = M64 << BigInt(64 * i); // limb i all ones, others zero
    if (v < p) out.push(v);
  }
  const R = (1n << BigInt(64 * limbs)) % p; // Montgomery R mod p (= Montgomery form of 1)
  out.push(R, (R * R) % p, p - (1n << 64n));
  const seen = new Set();
  return out.filter((v) => {
    const k = v.toString();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function primeFieldFile(F, name, limbs, hex) {
  const { rng, seedHex } = streamFor(name);
  const p = F.ORDER;
  const rand = () => rng.below(p);
  const E = primeEdges(F, limbs);
  const R = (1n << BigInt(64 * limbs)) % p;
  const cases = [];
  const N = 40;

  const binaryPairs = () => {
    const pairs = [
      [0n, 0n], [0n, 1n], [1n, p - 1n], [p - 1n, 1n], [p - 1n, p - 1n], [p - 2n, p - 1n],
      [(p - 1n) / 2n, (p - 1n) / 2n], [(p + 1n) / 2n, (p + 1n) / 2n], [(p - 1n) / 2n, (p + 1n) / 2n],
      [(1n << 64n) - 1n, (1n << 64n) - 1n], [1n << 64n, 1n << 64n], [1n << 128n, 1n << 128n],
      [(1n << 192n) - 1n, (1n << 192n) - 1n], [R, (R * R) % p],
    ];
    E.forEach((e, i) => pairs.push(i % 2 === 0 ? [e, rand()] : [rand(), e]));
    while (pairs.length < N) pairs.push([rand(), rand()]);
    return pairs;
  };
  const unaryInputs = (skipZero) => {
    const xs = E.filter((e) => !(skipZero && e === 0n));
    while (xs.length < N) xs.push(rand());
    return xs;
  };

  for (const [a, b] of binaryPairs()) {
    const out = F.add(a, b);
    check(out === (a + b) % p, 'add');
    cases.push({ op: 'add', a: hex(a), b: hex(b), out: hex(out) });
  }
  for (const [a, b] of binaryPairs()) {
    const out = F.sub(a, b);
    check(out === modp(a - b, p), 'sub');
    cases.push({ op: 'sub', a: hex(a), b: hex(b), out: hex(out) });
  }
  for (const [a, b] of binaryPairs()) {
    const out = F.mul(a, b);
    check(out === (a * b) % p, 'mul');
    cases.push({ op: 'mul', a: hex(a), b: hex(b), out: hex(out) });
  }
  for (const a of unaryInputs(false)) {
    const out = F.sqr(a);
    check(out === (a * a) % p, 'sqr');
    cases.push({ op: 'sqr', a: hex(a), out: hex(out) });
  }
  for (const a of unaryInputs(false)) {
    const out = F.neg(a);
    check(out === modp(-a, p), 'neg');
    cases.push({ op: 'neg', a: hex(a), out: hex(out) });
  }
  for (const a of unaryInputs(true)) {
    const out = F.inv(a);
    check((out * a) % p === 1n, 'inv');
    cases.push({ op: 'inv', a: hex(a), out: hex(out) });
  }
  {
    const xs = E.slice();
    // half of the random inputs are guaranteed squares
    while (xs.length < N) xs.push(xs.length % 2 === 0 ? F.sqr(rand()) : rand());
    for (const a of xs) {
      let root = null;
      try {
        root = F.sqrt(a);
      } catch {
        root = null;
      }
      const isSq = a === 0n || powGeneric(F, a, (p - 1n) / 2n) === 1n;
      check(isSq === (root !== null), 'sqrt existence matches Euler criterion');
      if (root !== null) check(F.sqr(root) === a, 'sqrt');
      cases.push({
        op: 'sqrt',
        a: hex(a),
        out: root === null ? null : hex(root),
        out_neg: root === null ? null : hex(F.neg(root)),
      });
    }
  }
  {
    const W = 4 * hex(0n).length; // exponent bit width = field encoding width
    const exps = [
      0n, 1n, 2n, 3n, p - 1n, p - 2n, (p - 1n) / 2n, p, p + 1n,
      (1n << 64n) - 1n, 1n << 64n, (1n << BigInt(W)) - 1n,
    ];
    if (p % 4n === 3n) exps.push((p + 1n) / 4n);
    const list = [];
    for (const e of exps) list.push([rand(), e]);
    list.push([0n, 0n], [0n, 5n], [1n, rng.bits(W)], [p - 1n, 2n], [p - 1n, 3n], [2n, p - 2n]);
    while (list.length < N) {
      const k = list.length % 3;
      list.push([rand(), k === 0 ? rng.bits(64) : k === 1 ? rng.bits(W) : rng.below(p)]);
    }
    for (const [a, e] of list) {
      const out = F.pow(a, e);
      check(out === powGeneric(F, a, e), 'pow');
      cases.push({ op: 'pow', a: hex(a), e: hexN(e, W / 4), out: hex(out) });
    }
  }
  return { seed: seedHex, modulus: hexN(p, hex(0n).length), cases };
}

// ---------------------------------------------------------------------------
// Fp2
// ---------------------------------------------------------------------------
function fp2File() {
  const { rng, seedHex } = streamFor('fp2');
  const p = P_MOD;
  const randFp = () => rng.below(p);
  const rand = () => mkFp2(randFp(), randFp());
  const R = (1n << 384n) % p;
  const E = [
    mkFp2(0n, 0n), mkFp2(1n, 0n), mkFp2(0n, 1n), mkFp2(-1n, 0n), mkFp2(0n, -1n), mkFp2(1n, 1n),
    mkFp2(-1n, -1n), mkFp2(HALF_P, HALF_P), mkFp2(1n << 64n, 1n << 128n), mkFp2(R, 0n), mkFp2(0n, R),
    mkFp2(1n, -1n), mkFp2(-1n, 1n), mkFp2((1n << 64n) - 1n, (1n << 192n) - 1n),
  ];
  const N = 30;
  const pairs = () => {
    const out = [
      [E[0], E[0]], [E[1], E[3]], [E[2], E[2]], [E[2], E[4]], [E[5], E[5]], [E[6], E[6]],
      [E[5], E[11]], [E[7], E[7]], [E[9], E[10]],
    ];
    E.forEach((e, i) => out.push(i % 2 === 0 ? [e, rand()] : [rand(), e]));
    while (out.length < N) out.push([rand(), rand()]);
    return out;
  };
  const unary = (skipZero) => {
    const xs = E.filter((e) => !(skipZero && Fp2.is0(e)));
    while (xs.length < N) xs.push(rand());
    return xs;
  };
  const H = hFp2;
  const cases = [];
  for (const [a, b] of pairs()) cases.push({ op: 'add', a: H(a), b: H(b), out: H(Fp2.add(a, b)) });
  for (const [a, b] of pairs()) cases.push({ op: 'sub', a: H(a), b: H(b), out: H(Fp2.sub(a, b)) });
  for (const [a, b] of pairs()) {
    const out = Fp2.mul(a, b);
    // schoolbook cross-check with u^2 = -1
    check(out.c0 === modp(a.c0 * b.c0 - a.c1 * b.c1, p) && out.c1 === modp(a.c0 * b.c1 + a.c1 * b.c0, p), 'fp2 mul');
    cases.push({ op: 'mul', a: H(a), b: H(b), out: H(out) });
  }
  for (const a of unary(false)) {
    const out = Fp2.sqr(a);
    check(Fp2.eql(out, Fp2.mul(a, a)), 'fp2 sqr');
    cases.push({ op: 'sqr', a: H(a), out: H(out) });
  }
  for (const a of unary(true)) {
    const out = Fp2.inv(a);
    check(Fp2.eql(Fp2.mul(a, out), Fp2.ONE), 'fp2 inv');
    cases.push({ op: 'inv', a: H(a), out: H(out) });
  }
  for (const a of unary(false)) cases.push({ op: 'neg', a: H(a), out: H(Fp2.neg(a)) });
  for (const a of unary(false)) cases.push({ op: 'conj', a: H(a), out: H(mkFp2(a.c0, -a.c1)) });
  for (const a of unary(false)) {
    const out = Fp2.mulByNonresidue(a);
    check(Fp2.eql(out, Fp2.mul(a, mkFp2(1n, 1n))), 'fp2 mul_by_nonresidue');
    cases.push({ op: 'mul_by_nonresidue', a: H(a), out: H(out) });
  }
  for (const a of unary(false)) {
    const out = Fp2.frobeniusMap(a, 1);
    check(Fp2.eql(out, mkFp2(a.c0, -a.c1)), 'fp2 frobenius = conjugation');
    check(Fp2.eql(out, powGeneric(Fp2, a, p)), 'fp2 frobenius = x^p');
    cases.push({ op: 'frobenius', a: H(a), out: H(out) });
  }
  {
    const xs = E.slice();
    while (xs.length < N) xs.push(xs.length % 2 === 0 ? Fp2.sqr(rand()) : rand());
    // squares with c1 = 0 (c0 square / non-square in Fp) and c0 = 0
    xs.push(mkFp2(4n, 0n), mkFp2(-4n, 0n), mkFp2(0n, 2n));
    for (const a of xs) {
      let root = null;
      try {
        root = Fp2.sqrt(a);
      } catch {
        root = null;
      }
      const isSq = Fp2.is0(a) || Fp2.eql(powGeneric(Fp2, a, (p * p - 1n) / 2n), Fp2.ONE);
      check(isSq === (root !== null), 'fp2 sqrt existence');
      if (root !== null) {
        check(Fp2.eql(Fp2.sqr(root), a), 'fp2 sqrt');
        // noble's choice: for a.c1 != 0 the lexicographically larger root (c1 first, then c0);
        // for a.c1 == 0 it returns (sqrt_Fp(a.c0), 0) or (0, sqrt_Fp(-a.c0)) un-normalised,
        // where sqrt_Fp(t) = t^((p+1)/4).
        const other = Fp2.neg(root);
        const e4 = (p + 1n) / 4n;
        if (a.c1 !== 0n) check(root.c1 > other.c1 || (root.c1 === other.c1 && root.c0 > other.c0), 'fp2 sqrt choice');
        else if (root.c1 === 0n) check(root.c0 === Fp.pow(a.c0, e4), 'fp2 sqrt choice (real)');
        else check(root.c0 === 0n && root.c1 === Fp.pow(Fp.neg(a.c0), e4), 'fp2 sqrt choice (imag)');
      }
      cases.push({
        op: 'sqrt',
        a: H(a),
        out: root === null ? null : H(root),
        out_neg: root === null ? null : H(Fp2.neg(root)),
      });
    }
  }
  return { seed: seedHex, modulus: hexN(p, 96), cases };
}

// ---------------------------------------------------------------------------
// Fp12
// ---------------------------------------------------------------------------
const FINAL_EXP = (P_MOD ** 12n - 1n) / R_MOD;

function fp12File() {
  const { rng, seedHex } = streamFor('fp12');
  const randFp = () => rng.below(P_MOD);
  const rand2 = () => mkFp2(randFp(), randFp());
  const rand6 = () => ({ c0: rand2(), c1: rand2(), c2: rand2() });
  const rand12 = () => ({ c0: rand6(), c1: rand6() });
  const H = hFp12;
  const N = 10;
  const cases = [];
  for (let i = 0; i < N; i++) {
    const a = rand12(), b = rand12();
    cases.push({ op: 'mul', a: H(a), b: H(b), out: H(Fp12.mul(a, b)) });
  }
  for (let i = 0; i < N; i++) {
    const a = rand12();
    const out = Fp12.sqr(a);
    check(Fp12.eql(out, Fp12.mul(a, a)), 'fp12 sqr');
    cases.push({ op: 'sqr', a: H(a), out: H(out) });
  }
  for (let i = 0; i < N; i++) {
    const a = rand12();
    const out = Fp12.inv(a);
    check(Fp12.eql(Fp12.mul(a, out), Fp12.ONE), 'fp12 inv');
    cases.push({ op: 'inv', a: H(a), out: H(out) });
  }
  const frobPowers = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3];
  frobPowers.forEach((k, i) => {
    const a = rand12();
    const out = Fp12.frobeniusMap(a, k);
    if (i < 3 || k > 1) check(Fp12.eql(out, powGeneric(Fp12, a, P_MOD ** BigInt(k))), 'fp12 frobenius = x^(p^k)');
    cases.push({ op: 'frobenius_map', power: k, a: H(a), out: H(out) });
  });
  for (let i = 0; i < N; i++) {
    const a = rand12();
    const out = Fp12.conjugate(a);
    check(Fp12.eql(out, { c0: a.c0, c1: Fp6.neg(a.c1) }), 'fp12 conjugate');
    if (i < 2) check(Fp12.eql(out, Fp12.frobeniusMap(a, 6)), 'fp12 conjugate = x^(p^6)');
    cases.push({ op: 'conjugate', a: H(a), out: H(out) });
  }
  let nobleRel = null;
  for (let i = 0; i < 4; i++) {
    const a = rand12();
    const exact = Fp12.pow(a, FINAL_EXP);
    if (i === 0) check(Fp12.eql(exact, powGeneric(Fp12, a, FINAL_EXP)), 'final exp generic pow');
    const noble = Fp12.finalExponentiate(a);
    const rel = relation(exact, noble);
    nobleRel = nobleRel ?? rel;
    check(rel === nobleRel, 'noble final-exp relation is constant');
    cases.push({ op: 'final_exp', a: H(a), out: H(exact), out_noble: H(noble) });
  }
  return {
    seed: seedHex,
    final_exp_exact: nobleRel === 1,
    noble_out_is_exact_pow: nobleRel,
    final_exp_exponent: FINAL_EXP.toString(16),
    cases,
  };
}

// find small k with exact^k == noble (both in the order-r subgroup GT)
function relation(exact, noble) {
  let acc = Fp12.ONE;
  for (let k = 0; k <= 64; k++) {
    if (Fp12.eql(acc, noble)) return k;
    acc = Fp12.mul(acc, exact);
  }
  throw new Error('noble final exponentiation is not a small power of the exact one');
}

// ---------------------------------------------------------------------------
// G1 / G2 arithmetic
// ---------------------------------------------------------------------------
function groupFile(name, Point, toJson) {
  const { rng, seedHex } = streamFor(name);
  const r = R_MOD;
  const G = Point.BASE;
  const O = Point.ZERO;
  const randScalar = () => 1n + rng.below(r - 1n);
  const randPoint = () => G.multiplyUnsafe(randScalar());
  const J = toJson;
  // scalar multiplication for arbitrary 256-bit k (P lies in the order-r subgroup)
  const mul = (P, k) => P.multiplyUnsafe(k % r);

  const add = [];
  const addCase = (p, q) => {
    const out = p.add(q);
    check(out.equals(q.add(p)), 'add commutes');
    add.push({ p: J(p), q: J(q), out: J(out) });
  };
  for (let i = 0; i < 8; i++) addCase(randPoint(), randPoint());
  { const a = randPoint(); addCase(a, a); }
  addCase(G, G);
  { const a = randPoint(); addCase(a, a.negate()); }
  addCase(G, G.negate());
  addCase(randPoint(), O);
  addCase(O, randPoint());
  addCase(O, O);
  { const a = randPoint(); addCase(a, a.double()); }
  addCase(G, G.double());

  const dbl = [];
  for (const P of [G, O, randPoint(), randPoint(), randPoint(), randPoint(), randPoint(), randPoint(), G.negate()]) {
    const out = P.double();
    check(out.equals(P.add(P)), 'double = add self');
    dbl.push({ p: J(P), out: J(out) });
  }

  const mulCases = [];
  const scalars = [
    0n, 1n, 2n, 3n, r - 1n, r, r + 1n, r - 2n, (1n << 256n) - 1n, (1n << 255n) - 1n,
    rng.bits(255), rng.bits(255), rng.bits(255), rng.bits(255),
    rng.bits(64), rng.bits(64), rng.bits(64), rng.bits(64),
    rng.below(r), rng.below(r), rng.below(r), rng.below(r),
  ];
  scalars.forEach((k, i) => {
    const P = i % 3 === 0 ? G : randPoint();
    const out = mul(P, k);
    if (i < 4 || (i >= 14 && i < 18)) check(out.equals(mulPlain(P, k)), 'mul vs double-and-add');
    mulCases.push({ p: J(P), k: hexN(k, 64), out: J(out) });
  });
  for (const k of [0n, 1n, rng.bits(255)]) mulCases.push({ p: J(O), k: hexN(k, 64), out: J(O) });

  const msm = [];
  const msmCase = (points, ks, note) => {
    const out = pippenger(Point, points, ks);
    let naive = O;
    points.forEach((P, i) => (naive = naive.add(P.multiplyUnsafe(ks[i]))));
    check(out.equals(naive), 'msm vs naive');
    msm.push({ note, n: points.length, points: points.map(J), scalars: ks.map((k) => hFr(k)), out: J(out) });
  };
  for (const n of [1, 2, 7, 64, 200]) {
    const pts = Array.from({ length: n }, randPoint);
    const ks = Array.from({ length: n }, () => rng.below(r));
    msmCase(pts, ks, 'random scalars');
  }
  {
    const pts = Array.from({ length: 7 }, randPoint);
    msmCase(pts, pts.map(() => 0n), 'all-zero scalars');
  }
  {
    const pts = Array.from({ length: 64 }, randPoint);
    msmCase(pts, pts.map(() => 1n), 'all-one scalars');
  }
  {
    const base = Array.from({ length: 4 }, randPoint);
    const pts = Array.from({ length: 64 }, (_, i) => base[i % 4]);
    msmCase(pts, pts.map(() => rng.below(r)), 'repeated bases (4 distinct)');
  }
  {
    const pts = Array.from({ length: 7 }, randPoint);
    const ks = pts.map((_, i) => (i % 2 === 0 ? r - 1n : rng.below(r)));
    msmCase(pts, ks, 'scalars r-1 mixed with random');
  }
  {
    const P = randPoint();
    msmCase([P, P], [r - 1n, 1n], 'P*(r-1) + P = infinity');
  }
  {
    const pts = Array.from({ length: 7 }, (_, i) => (i % 3 === 1 ? O : randPoint()));
    msmCase(pts, pts.map(() => rng.below(r)), 'some bases are infinity');
  }
  {
    const P = randPoint();
    const pts = Array.from({ length: 7 }, (_, i) => (i === 3 ? P.negate() : i === 5 ? P : randPoint()));
    const ks = pts.map(() => rng.below(r));
    ks[5] = ks[3];
    msmCase(pts, ks, 'bases P and -P with equal scalars');
  }
  {
    const pts = Array.from({ length: 7 }, randPoint);
    const ks = pts.map((_, i) => [1n, 2n, 3n, (1n << 64n) - 1n, 1n << 64n, (1n << 254n), r - 2n][i]);
    msmCase(pts, ks, 'small / boundary scalars');
  }

  return { seed: seedHex, order: hexN(r, 64), generator: J(G), add, double: dbl, mul: mulCases, msm };
}

// ---------------------------------------------------------------------------
// Pairing
// ---------------------------------------------------------------------------
function pairingFile() {
  const { rng, seedHex } = streamFor('pairing');
  const r = R_MOD;
  const rs = () => 1n + rng.below(r - 1n);
  const cases = [];
  let rel = null;
  const pc = (P, Q, note) => {
    if (P.is0() || Q.is0()) {
      cases.push({ note, p: g1Json(P), q: g2Json(Q), out: hFp12(Fp12.ONE), out_noble: hFp12(Fp12.ONE) });
      return null;
    }
    const miller = bls12_381.pairing(P, Q, false); // includes noble's final conjugation (x < 0)
    const exact = Fp12.pow(miller, FINAL_EXP);
    const noble = bls12_381.pairing(P, Q);
    check(Fp12.eql(noble, Fp12.finalExponentiate(miller)), 'pairing = finalExponentiate(miller)');
    const k = relation(exact, noble);
    rel = rel ?? k;
    check(k === rel, 'constant relation noble vs exact');
    check(Fp12.eql(powGeneric(Fp12, exact, r), Fp12.ONE), 'e^r = 1');
    cases.push({ note, p: g1Json(P), q: g2Json(Q), out: hFp12(exact), out_noble: hFp12(noble) });
    return exact;
  };
  const eGG = pc(G1.BASE, G2.BASE, 'generators');
  for (let i = 0; i < 10; i++) pc(G1.BASE.multiplyUnsafe(rs()), G2.BASE.multiplyUnsafe(rs()), 'random');
  {
    const a = rs(), b = rs();
    const e1 = pc(G1.BASE.multiplyUnsafe(a), G2.BASE.multiplyUnsafe(b), 'bilinearity: [a]G1,[b]G2');
    const e2 = pc(G1.BASE.multiplyUnsafe((a * b) % r), G2.BASE, 'bilinearity: [ab]G1,G2');
    const e3 = pc(G1.BASE, G2.BASE.multiplyUnsafe((a * b) % r), 'bilinearity: G1,[ab]G2');
    check(Fp12.eql(e1, e2) && Fp12.eql(e2, e3), 'bilinearity');
    check(Fp12.eql(e1, powGeneric(Fp12, eGG, (a * b) % r)), 'bilinearity vs e(G1,G2)^ab');
  }
  {
    const P = G1.BASE.multiplyUnsafe(rs()), Q = G2.BASE.multiplyUnsafe(rs());
    const e = pc(P, Q, 'random');
    const en = pc(P.negate(), Q, 'negated P: out = conj(e(P,Q))');
    check(Fp12.eql(en, Fp12.conjugate(e)), 'e(-P,Q) = conj e(P,Q)');
  }
  pc(G1.ZERO, G2.BASE, 'P = infinity');
  pc(G1.BASE, G2.ZERO, 'Q = infinity');
  pc(G1.ZERO, G2.ZERO, 'both infinity');

  // Is noble's miller-loop output conjugated vs. the |x| loop? It is (params.xNegative).
  check(bls12_381.params.xNegative === true && bls12_381.params.ateLoopSize === -BLS_X, 'noble loop params');
  return {
    seed: seedHex,
    final_exp_exact: rel === 1,
    noble_out_is_exact_pow: rel,
    final_exp_exponent: FINAL_EXP.toString(16),
    cases,
  };
}

// ---------------------------------------------------------------------------
// Encodings
// ---------------------------------------------------------------------------
function nobleAccepts(Point, hex) {
  try {
    Point.fromHex(hex);
    return true;
  } catch {
    return false;
  }
}

// first few points of E(F) (x = 0,1,2,... or x = i*c for Fp2) that are NOT in the r-subgroup
function offSubgroupG1(count) {
  const res = [];
  for (let x = 0n; res.length < count; x++) {
    const rhs = Fp.add(Fp.pow(x, 3n), 4n);
    let y;
    try { y = Fp.sqrt(rhs); } catch { continue; }
    const P = G1.fromAffine({ x, y });
    if (!mulPlain(P, R_MOD).is0()) res.push({ x, y, P });
  }
  return res;
}

function offSubgroupG2(count) {
  const res = [];
  const b = mkFp2(4n, 4n);
  for (let i = 0n; res.length < count; i++) {
    const x = mkFp2(i, 1n);
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b);
    let y;
    try { y = Fp2.sqrt(rhs); } catch { continue; }
    const P = G2.fromAffine({ x, y });
    if (!mulPlain(P, R_MOD).is0()) res.push({ x, y, P });
  }
  return res;
}

function encodingsFile() {
  const { rng, seedHex } = streamFor('encodings');
  const rs = () => 1n + rng.below(R_MOD - 1n);
  const TWO381 = 1n << 381n;
  const surprises = [];

  // ---------------- G1 ----------------
  const g1_valid = [];
  const g1pts = [G1.BASE, G1.BASE.negate(), G1.ZERO];
  while (g1pts.length < 11) g1pts.push(G1.BASE.multiplyUnsafe(rs()));
  for (const P of g1pts) {
    const j = g1Json(P);
    g1_valid.push(j.compressed, j.uncompressed);
  }
  const g1_invalid = [];
  const bad1 = (hex, why) => {
    if (nobleAccepts(G1, hex)) surprises.push('noble accepts G1 ' + why);
    g1_invalid.push({ hex, why });
  };
  const gj = g1Json(G1.BASE);
  const gAff = G1.BASE.toAffine();
  bad1(gj.compressed.slice(0, 2).replace(/./, (c) => (parseInt(c, 16) & 0x7).toString(16)) + gj.compressed.slice(2),
    '48 bytes without compression flag');
  bad1(setFlags(fpBytesHex(gAff.x) + fpBytesHex(gAff.y), 0x80), '96 bytes with compression flag');
  bad1(setFlags('00'.repeat(47) + '01', 0xc0), 'compressed infinity with nonzero x');
  bad1(setFlags('00'.repeat(48), 0xe0), 'compressed infinity with sort flag');
  bad1(setFlags('00'.repeat(95) + '01', 0x40), 'uncompressed infinity with nonzero payload');
  bad1(setFlags('00'.repeat(96), 0x60), 'uncompressed infinity with sort flag');
  bad1(setFlags(fpBytesHex(gAff.x) + fpBytesHex(gAff.y), 0x20), 'uncompressed with sort flag');
  bad1(setFlags(fpBytesHex(gAff.x) + fpBytesHex(gAff.y), 0x40), 'uncompressed point with infinity flag');
  bad1(setFlags(fpBytesHex(gAff.x), 0xc0), 'compressed with infinity flag and nonzero x (generator x)');
  bad1('00'.repeat(96), 'uncompressed all-zero without infinity flag');
  bad1('00'.repeat(48), 'compressed all-zero without any flag');
  bad1(setFlags(fpBytesHex(P_MOD), 0x80), 'compressed x = p');
  bad1(setFlags(fpBytesHex(TWO381 - 1n), 0x80), 'compressed x = 2^381-1 (>= p)');
  {
    // non-canonical x encoding of a valid point: x + p < 2^381
    let P, a;
    do { P = G1.BASE.multiplyUnsafe(rs()); a = P.toAffine(); } while (a.x + P_MOD >= TWO381);
    bad1(setFlags(fpBytesHex(a.x + P_MOD), 0x80 | (a.y > HALF_P ? 0x20 : 0)), 'compressed x+p (non-canonical x of valid point)');
    bad1(fpBytesHex(a.x + P_MOD) + fpBytesHex(a.y), 'uncompressed x+p (non-canonical x of valid point)');
    let Q, b;
    do { Q = G1.BASE.multiplyUnsafe(rs()); b = Q.toAffine(); } while (b.y + P_MOD >= TWO381);
    bad1(fpBytesHex(b.x) + fpBytesHex(b.y + P_MOD), 'uncompressed y+p (non-canonical y of valid point)');
  }
  {
    let x = 1n;
    for (;; x++) {
      try { Fp.sqrt(Fp.add(Fp.pow(x, 3n), 4n)); } catch { break; }
    }
    bad1(setFlags(fpBytesHex(x), 0x80), `compressed x=${x}: x^3+4 is not a square`);
    bad1(fpBytesHex(gAff.x) + fpBytesHex(Fp.add(gAff.y, 1n)), 'uncompressed (Gx, Gy+1) not on curve');
    bad1(fpBytesHex(x) + fpBytesHex(1n), `uncompressed (${x}, 1) not on curve`);
  }
  for (const { x, y, P } of offSubgroupG1(3)) {
    check(!P.isTorsionFree(), 'noble agrees point is off-subgroup');
    const order3 = mulPlain(P, 3n).is0();
    const tag = `on curve, not in G1 (x=${x}${order3 ? ', order 3' : ''})`;
    bad1(encG1(x, y, false, true), 'compressed ' + tag);
    bad1(encG1(x, y, false, false), 'uncompressed ' + tag);
  }
  bad1(gj.compressed.slice(0, 94), '47 bytes');
  bad1(gj.compressed + '00', '49 bytes');
  bad1(gj.uncompressed.slice(0, 190), '95 bytes');
  bad1(gj.uncompressed + '00', '97 bytes');
  bad1('', '0 bytes');

  // ---------------- G2 ----------------
  const g2_valid = [];
  const g2pts = [G2.BASE, G2.BASE.negate(), G2.ZERO];
  while (g2pts.length < 11) g2pts.push(G2.BASE.multiplyUnsafe(rs()));
  for (const P of g2pts) {
    const j = g2Json(P);
    g2_valid.push(j.compressed, j.uncompressed);
  }
  const g2_invalid = [];
  const bad2 = (hex, why) => {
    if (nobleAccepts(G2, hex)) surprises.push('noble accepts G2 ' + why);
    g2_invalid.push({ hex, why });
  };
  const hj = g2Json(G2.BASE);
  const hA = G2.BASE.toAffine();
  const unc2 = (x, y) => fpBytesHex(x.c1) + fpBytesHex(x.c0) + fpBytesHex(y.c1) + fpBytesHex(y.c0);
  const cmp2 = (x, y) => setFlags(fpBytesHex(x.c1) + fpBytesHex(x.c0), 0x80 | (fp2Larger(y) ? 0x20 : 0));
  bad2(((parseInt(hj.compressed.slice(0, 2), 16) & 0x7f).toString(16).padStart(2, '0')) + hj.compressed.slice(2),
    '96 bytes without compression flag');
  bad2(setFlags(unc2(hA.x, hA.y), 0x80), '192 bytes with compression flag');
  bad2(setFlags('00'.repeat(95) + '01', 0xc0), 'compressed infinity with nonzero x (c0)');
  bad2(setFlags('00'.repeat(47) + '01' + '00'.repeat(48), 0xc0), 'compressed infinity with nonzero x (c1)');
  bad2(setFlags('00'.repeat(96), 0xe0), 'compressed infinity with sort flag');
  bad2(setFlags('00'.repeat(191) + '01', 0x40), 'uncompressed infinity with nonzero payload');
  bad2(setFlags('00'.repeat(192), 0x60), 'uncompressed infinity with sort flag');
  bad2(setFlags(unc2(hA.x, hA.y), 0x20), 'uncompressed with sort flag');
  bad2('00'.repeat(192), 'uncompressed all-zero without infinity flag');
  bad2('00'.repeat(96), 'compressed all-zero without any flag');
  bad2(setFlags(fpBytesHex(P_MOD) + fpBytesHex(hA.x.c0), 0x80), 'compressed x.c1 = p');
  bad2(setFlags(fpBytesHex(hA.x.c1) + fpBytesHex(P_MOD), 0x80), 'compressed x.c0 = p');
  bad2(setFlags(fpBytesHex(TWO381 - 1n) + fpBytesHex(0n), 0x80), 'compressed x.c1 = 2^381-1');
  {
    let P, a;
    do { P = G2.BASE.multiplyUnsafe(rs()); a = P.toAffine(); } while (a.x.c0 + P_MOD >= TWO381);
    const x0 = { c0: a.x.c0 + P_MOD, c1: a.x.c1 };
    bad2(cmp2(x0, a.y), 'compressed x.c0+p (non-canonical x of valid point)');
    bad2(unc2(x0, a.y), 'uncompressed x.c0+p (non-canonical x of valid point)');
    let Q, b;
    do { Q = G2.BASE.multiplyUnsafe(rs()); b = Q.toAffine(); } while (b.x.c1 + P_MOD >= TWO381);
    const x1 = { c0: b.x.c0, c1: b.x.c1 + P_MOD };
    bad2(cmp2(x1, b.y), 'compressed x.c1+p (non-canonical x of valid point)');
    let S, c;
    do { S = G2.BASE.multiplyUnsafe(rs()); c = S.toAffine(); } while (c.y.c1 + P_MOD >= TWO381);
    bad2(unc2(c.x, { c0: c.y.c0, c1: c.y.c1 + P_MOD }), 'uncompressed y.c1+p (non-canonical y of valid point)');
    let T, d;
    do { T = G2.BASE.multiplyUnsafe(rs()); d = T.toAffine(); } while (d.y.c0 + P_MOD >= TWO381);
    bad2(unc2(d.x, { c0: d.y.c0 + P_MOD, c1: d.y.c1 }), 'uncompressed y.c0+p (non-canonical y of valid point)');
  }
  {
    let i = 0n, x;
    for (;; i++) {
      x = mkFp2(i, 1n);
      try { Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), mkFp2(4n, 4n))); } catch { break; }
    }
    bad2(cmp2(x, Fp2.ZERO), `compressed x=${i}+u: x^3+4(u+1) is not a square`);
    bad2(unc2(hA.x, Fp2.add(hA.y, Fp2.ONE)), 'uncompressed (Gx, Gy+1) not on curve');
  }
  for (const { x, y, P } of offSubgroupG2(2)) {
    check(!P.isTorsionFree(), 'noble agrees G2 point is off-subgroup');
    const tag = `on curve E'(Fp2), not in G2 (x=${x.c0}+u)`;
    bad2(encG2(x, y, false, true), 'compressed ' + tag);
    bad2(encG2(x, y, false, false), 'uncompressed ' + tag);
  }
  bad2(hj.compressed.slice(0, 190), '95 bytes');
  bad2(hj.compressed + '00', '97 bytes');
  bad2(hj.uncompressed.slice(0, 382), '191 bytes');
  bad2(hj.uncompressed + '00', '193 bytes');
  bad2(g1Json(G1.BASE).compressed, '48 bytes (a G1 encoding)');

  for (const h of g1_valid) check(bytesToHex(G1.fromHex(h).toBytes(h.length === 96)) === h, 'G1 valid roundtrip');
  for (const h of g2_valid) check(bytesToHex(G2.fromHex(h).toBytes(h.length === 192)) === h, 'G2 valid roundtrip');
  return { out: { seed: seedHex, g1_valid, g1_invalid, g2_valid, g2_invalid }, surprises };
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------
function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outDir = path.resolve(process.argv[2] ?? path.join(here, '..', 'kat'));
  fs.mkdirSync(outDir, { recursive: true });
  console.log(`gen_kat: master seed 0x${MASTER_SEED.toString(16)} -> ${outDir}`);
  checkTower();

  const write = (file, obj) => {
    const text = render(obj) + '\n';
    fs.writeFileSync(path.join(outDir, file), text);
    console.log(`  ${file.padEnd(15)} ${String(text.length).padStart(8)} bytes`);
  };

  write('fp.json', primeFieldFile(Fp, 'fp', 6, hFp));
  write('fr.json', primeFieldFile(Fr, 'fr', 4, hFr));
  write('fp2.json', fp2File());
  const f12 = fp12File();
  write('fp12.json', f12);
  write('g1.json', groupFile('g1', G1, g1Json));
  write('g2.json', groupFile('g2', G2, g2Json));
  const pr = pairingFile();
  write('pairing.json', pr);
  const enc = encodingsFile();
  write('encodings.json', enc.out);

  console.log(`  noble final exponentiation = exact^${pr.noble_out_is_exact_pow} (final_exp_exact=${pr.final_exp_exact})`);
  if (enc.surprises.length) {
    console.log('  noble accepted encodings that should be rejected:');
    for (const s of enc.surprises) console.log('    - ' + s);
  } else {
    console.log('  noble rejects every invalid encoding');
  }
}

main();

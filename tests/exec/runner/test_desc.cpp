/* test_desc.cpp - parsing the test description, generating input buffers deterministically
 * (std::mt19937_64 with the given seed, so CPU and GPU runs see identical inputs), encoding
 * parameters and comparing outputs. */
#include "tests/exec/runner/test_desc.h"

#include "tests/exec/emu/fp_util.h"

#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace ptxmini::exec {

BufferDesc* TestDesc::buffer(const std::string& n) {
  for (auto& b : buffers) if (b.name == n) return &b;
  return nullptr;
}
const BufferDesc* TestDesc::buffer(const std::string& n) const {
  for (auto& b : buffers) if (b.name == n) return &b;
  return nullptr;
}
const TextureDesc* TestDesc::texture(const std::string& n) const {
  for (auto& t : textures) if (t.name == n) return &t;
  return nullptr;
}

size_t type_size(const std::string& t) {
  if (t == "i8" || t == "u8") return 1;
  if (t == "i16" || t == "u16" || t == "f16" || t == "bf16") return 2;
  if (t == "i32" || t == "u32" || t == "f32") return 4;
  if (t == "i64" || t == "u64" || t == "f64" || t == "ptr") return 8;
  return 0;
}

static bool is_float(const std::string& t) { return t[0] == 'f' || t == "bf16"; }

// binary16 / bfloat16 element bits <-> double (the mma tests' operand types)
static double half_bits_to_double(const std::string& t, uint16_t h) {
  return t == "f16" ? double{half_to_float(h)} : double{bitsf(uint32_t{h} << 16)};
}

bool parse_test_desc(const std::string& path, TestDesc& d, std::string& err) {
  std::ifstream f(path);
  if (!f) { err = "cannot open " + path; return false; }
  std::string line;
  int ln = 0;
  while (std::getline(f, line)) {
    ++ln;
    if (auto h = line.find('#'); h != std::string::npos) line.resize(h);
    std::istringstream s(line);
    std::string kw;
    if (!(s >> kw)) continue;
    std::vector<std::string> w;
    for (std::string x; s >> x;) w.push_back(x);
    auto bad = [&](const std::string& why) { err = path + ":" + std::to_string(ln) + ": " + why; return false; };
    try {
      if (kw == "kernel" && w.size() == 1) d.kernel = w[0];
      else if (kw == "reference" && w.size() == 1) d.reference = w[0];
      else if (kw == "expect_trap" && !w.empty()) {
        d.expect_trap = line.substr(line.find("expect_trap") + 11);
        d.expect_trap = d.expect_trap.substr(d.expect_trap.find_first_not_of(" \t"));
        while (!d.expect_trap.empty() && std::isspace(static_cast<unsigned char>(d.expect_trap.back()))) d.expect_trap.pop_back();
      }
      else if ((kw == "grid" || kw == "block") && !w.empty() && w.size() <= 3) {
        uint32_t* dst = kw == "grid" ? d.grid : d.block;
        for (size_t i = 0; i < w.size(); ++i) dst[i] = static_cast<uint32_t>(std::stoul(w[i]));
      } else if (kw == "dynamic_shared" && w.size() == 1) d.dynamic_shared = static_cast<uint32_t>(std::stoul(w[0]));
      else if (kw == "buffer" && w.size() >= 4) {
        BufferDesc b;
        b.name = w[0];
        b.type = w[1];
        if (!type_size(b.type) || b.type == "ptr") return bad("unknown buffer type " + b.type);
        b.count = std::stoull(w[2]);
        b.gen.assign(w.begin() + 3, w.end());
        if (d.buffer(b.name)) return bad("duplicate buffer " + b.name);
        d.buffers.push_back(b);
      } else if ((kw == "texture" || kw == "surface") && w.size() >= 5) {
        TextureDesc t;
        t.name = w[0];
        t.buffer = w[1];
        t.surface = kw == "surface";
        t.shape = w[2];
        t.format = w[3];
        size_t i = 4;
        uint32_t* dims[3] = {&t.width, &t.height, &t.depth};
        for (int k = 0; k < 3 && i < w.size() && w[i].find('=') == std::string::npos; ++k, ++i)
          *dims[k] = static_cast<uint32_t>(std::stoul(w[i]));
        for (; i < w.size(); ++i) {
          auto eq = w[i].find('=');
          if (eq == std::string::npos) return bad("expected key=value, got " + w[i]);
          std::string k = w[i].substr(0, eq), v = w[i].substr(eq + 1);
          if (k == "layers") t.layers = static_cast<uint32_t>(std::stoul(v));
          else if (k == "coords" && (v == "normalized" || v == "unnormalized") && !t.surface) t.normalized_coords = v == "normalized";
          else if (k == "read" && (v == "element" || v == "normalized") && !t.surface) t.read_normalized = v == "normalized";
          else if (k == "filter" && (v == "point" || v == "linear") && !t.surface) t.linear_filter = v == "linear";
          else if (k == "address" && !t.surface) t.address = v;
          else return bad("unknown " + kw + " attribute " + w[i]);
        }
        if (d.texture(t.name)) return bad("duplicate texture " + t.name);
        d.textures.push_back(t);
      } else if (kw == "param" && w.size() == 2) {
        if (!type_size(w[0]) && w[0] != "blob" && w[0] != "tex") return bad("unknown parameter type " + w[0]);
        d.params.push_back({w[0], w[1]});
      } else if (kw == "output" && (w.size() == 1 || w.size() == 2)) {
        OutputDesc o{w[0], 0};
        if (w.size() == 2 && w[1] == "exact") {
          o.tol = -1;  // bit for bit (floats: any NaN matches any NaN, -0 differs from +0)
        } else if (w.size() == 2) {
          if (w[1].rfind("tol=", 0) != 0) return bad("expected tol= or exact");
          o.tol = std::stod(w[1].substr(4));
        }
        d.outputs.push_back(o);
      } else {
        return bad("cannot parse '" + line + "'");
      }
    } catch (const std::exception&) {
      return bad("bad number in '" + line + "'");
    }
  }
  if (d.kernel.empty()) { err = path + ": no kernel"; return false; }
  for (auto& p : d.params) {
    if (p.type == "ptr" && !d.buffer(p.value)) { err = path + ": unknown buffer " + p.value; return false; }
    if (p.type == "tex" && !d.texture(p.value)) { err = path + ": unknown texture " + p.value; return false; }
  }
  for (auto& t : d.textures)
    if (!d.buffer(t.buffer)) { err = path + ": texture " + t.name + ": unknown buffer " + t.buffer; return false; }
  for (auto& o : d.outputs)
    if (!d.buffer(o.buffer)) { err = path + ": unknown output buffer " + o.buffer; return false; }
  return true;
}

namespace {
void store(std::vector<uint8_t>& data, uint64_t i, const std::string& t, double fv, int64_t iv) {
  size_t n = type_size(t);
  uint8_t* p = data.data() + i * n;
  if (t == "f32") { float f = static_cast<float>(fv); std::memcpy(p, &f, 4); }
  else if (t == "f64") std::memcpy(p, &fv, 8);
  else if (t == "f16") { uint16_t h = double_to_half(fv); std::memcpy(p, &h, 2); }
  else if (t == "bf16") { uint16_t h = float_to_bf16(static_cast<float>(fv)); std::memcpy(p, &h, 2); }
  else std::memcpy(p, &iv, n);  // little endian: the low bytes
}
// Edge values for integer buffers of `bytes` bytes: zero, one, minus one, small values around
// shift widths, and the extremes of the signed and unsigned ranges.
const std::vector<int64_t>& edge_values(size_t bytes) {
  static const std::vector<int64_t> e8 = {0, 1, -1, 2, -2, 7, 8, 9, 0x7f, -0x80, -0x7f, 0x55, 0x10, 0x0f, -0x10, 0x3c};
  static const std::vector<int64_t> e16 = {0, 1, -1, 2, -2, 7, 15, 16, 17, 0x7fff, -0x8000, -0x7fff, 0xff, 0x100, 0x1234, -0x124};
  static const std::vector<int64_t> e32 = {0, 1, -1, 2, -2, 7, 31, 32, 33, 0xffff, 0x10000, 0x7fffffff,
                                           INT32_MIN, INT32_MIN + 1, 0x12345678, static_cast<int32_t>(0xdeadbeefu)};
  static const std::vector<int64_t> e64 = {0, 1, -1, 2, -2, 7, 63, 64, 65, 0xffffffffLL, 0x100000000LL,
                                           0x7fffffffLL, INT64_MAX, INT64_MIN, INT64_MIN + 1,
                                           0x123456789abcdef0LL, static_cast<int64_t>(0xfedcba9876543210ULL),
                                           -0x100000000LL};
  return bytes == 1 ? e8 : bytes == 2 ? e16 : bytes == 4 ? e32 : e64;
}
}  // namespace

bool generate_buffers(TestDesc& d, std::string& err) {
  for (auto& b : d.buffers) {
    size_t n = type_size(b.type);
    b.data.assign(b.count * n, 0);
    std::map<std::string, std::string> kv;
    for (size_t i = 1; i < b.gen.size(); ++i) {
      auto eq = b.gen[i].find('=');
      if (eq == std::string::npos) { err = "buffer " + b.name + ": bad generator argument " + b.gen[i]; return false; }
      kv[b.gen[i].substr(0, eq)] = b.gen[i].substr(eq + 1);
    }
    auto getd = [&](const char* k, double def) { return kv.count(k) ? std::stod(kv[k]) : def; };
    const std::string& g = b.gen[0];
    if (g == "zero") continue;
    if (g == "iota") {
      double st = getd("start", 0), step = getd("step", 1);
      for (uint64_t i = 0; i < b.count; ++i) {
        double v = st + step * static_cast<double>(i);
        store(b.data, i, b.type, v, static_cast<int64_t>(v));
      }
    } else if (g == "const") {
      double v = getd("value", 0);
      for (uint64_t i = 0; i < b.count; ++i) store(b.data, i, b.type, v, static_cast<int64_t>(v));
    } else if (g == "random") {
      std::mt19937_64 rng(static_cast<uint64_t>(getd("seed", 1)));
      double lo = getd("lo", is_float(b.type) ? -1.0 : 0.0), hi = getd("hi", is_float(b.type) ? 1.0 : 1000.0);
      // Integer edge values first (edges=row|col, see the header), then random values; full=1
      // draws every bit at random instead of lo..hi.
      const std::vector<int64_t>& E = edge_values(static_cast<size_t>(getd("edgebits", 8.0 * static_cast<double>(n))) / 8);
      std::string edges = kv.count("edges") ? kv["edges"] : "";
      bool full = getd("full", 0) != 0;
      uint64_t k = E.size(), skip = edges.empty() || is_float(b.type) ? 0 : k * k;
      for (uint64_t i = 0; i < b.count; ++i) {
        uint64_t r = rng();
        if (i < skip) {
          store(b.data, i, b.type, 0, E[edges == "row" ? i / k : i % k]);
        } else if (full && !is_float(b.type)) {
          store(b.data, i, b.type, 0, static_cast<int64_t>(r));
        } else if (is_float(b.type)) {
          double u = static_cast<double>(r >> 11) * 0x1.0p-53;
          double v = lo + (hi - lo) * u;
          // quantum=Q: a multiple of Q (values whose sums stay exact, e.g. for mma tests)
          if (kv.count("quantum")) v = std::round(v / getd("quantum", 1)) * getd("quantum", 1);
          store(b.data, i, b.type, v, 0);
        } else {
          uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - static_cast<int64_t>(lo)) + 1;
          int64_t v = static_cast<int64_t>(lo) + static_cast<int64_t>(span ? r % span : r);
          store(b.data, i, b.type, 0, v);
        }
      }
    } else if (g == "bits") {
      // Raw bit patterns for differential and edge-case tests: one element in four is an
      // edge value of the type (zeros, infinities, NaNs, the subnormal and normal limits,
      // powers of two and their neighbours, integer limits), the rest uniform random bits
      // (for floats: every exponent equally likely, subnormals and NaNs included).
      std::mt19937_64 rng(static_cast<uint64_t>(getd("seed", 1)));
      std::vector<uint64_t> edges;
      if (b.type == "f32") {
        for (uint32_t e : {0x0u, 0x1u, 0x2u, 0x7fffffu, 0x800000u, 0x800001u, 0x7f7fffffu, 0x7f800000u,
                           0x7fc00000u, 0x7f800001u, 0x3f800000u, 0x3f7fffffu, 0x3f800001u, 0x00400000u,
                           0x4b000000u, 0x4b7fffffu, 0x4f000000u, 0x5f000000u, 0x33800000u, 0x0c800000u})
          for (uint32_t s : {0x0u, 0x80000000u}) edges.push_back(e | s);
      } else if (b.type == "f64") {
        for (uint64_t e : {0x0ull, 0x1ull, 0x2ull, 0xfffffffffffffull, 0x10000000000000ull, 0x10000000000001ull,
                           0x7fefffffffffffffull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
                           0x7ff0000000000001ull, 0x3ff0000000000000ull, 0x3fefffffffffffffull,
                           0x3ff0000000000001ull, 0x8000000000000ull, 0x4330000000000000ull,
                           0x433fffffffffffffull, 0x43e0000000000000ull, 0x3ca0000000000000ull,
                           0x36a0000000000000ull, 0x3810000000000000ull, 0x47efffffe0000000ull})
          for (uint64_t s : {0x0ull, 0x8000000000000000ull}) edges.push_back(e | s);
      } else {
        unsigned bits = static_cast<unsigned>(n * 8);
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        for (uint64_t e : std::initializer_list<uint64_t>{0ull, 1ull, 2ull, mask, mask - 1, mask >> 1, (mask >> 1) + 1, (mask >> 1) + 2,
                           0x7full, 0x80ull, 0xffull, 0x100ull, 0x7fffull, 0x8000ull, 0xffffull, 0x10000ull,
                           0x7fffffffull, 0x80000000ull, 0xffffffffull, 0x100000000ull, 0xff800000ull,
                           0x1000000ull, 0x1000001ull, 0x20000000000001ull})
          edges.push_back(e & mask);
      }
      // exp=LO:HI (floats): the random elements get an exponent field in [LO, HI] (for
      // results near the subnormal or overflow thresholds); their sign and fraction stay random.
      int64_t elo = -1, ehi = -1;
      if (kv.count("exp")) {
        const std::string& ev = kv["exp"];
        auto colon = ev.find(':');
        if (colon == std::string::npos || !is_float(b.type)) { err = "buffer " + b.name + ": exp=LO:HI needs a float buffer"; return false; }
        elo = std::stoll(ev.substr(0, colon));
        ehi = std::stoll(ev.substr(colon + 1));
      }
      int fracBits = b.type == "f64" ? 52 : 23;
      for (uint64_t i = 0; i < b.count; ++i) {
        uint64_t r = rng();
        uint64_t v = (r & 3) == 0 ? edges[(r >> 2) % edges.size()] : rng();
        if (elo >= 0 && (r & 3) != 0) {
          uint64_t ef = static_cast<uint64_t>(elo) + rng() % static_cast<uint64_t>(ehi - elo + 1);
          uint64_t signFrac = v & ~(((uint64_t{1} << (b.type == "f64" ? 11 : 8)) - 1) << fracBits);
          v = signFrac | (ef << fracBits);
        }
        std::memcpy(b.data.data() + i * n, &v, n);
      }
    } else {
      err = "buffer " + b.name + ": unknown generator " + g;
      return false;
    }
  }
  return true;
}

bool encode_scalar(const std::string& t, const std::string& v, std::vector<uint8_t>& out, std::string& err) {
  size_t n = type_size(t);
  out.assign(n, 0);
  try {
    if (t == "f32") { float f = std::stof(v); std::memcpy(out.data(), &f, 4); }
    else if (t == "f64") { double f = std::stod(v); std::memcpy(out.data(), &f, 8); }
    else if (t == "f16" || t == "bf16") {
      float f = std::stof(v);
      uint16_t h = t == "f16" ? double_to_half(f) : float_to_bf16(f);
      std::memcpy(out.data(), &h, 2);
    }
    else { int64_t x = static_cast<int64_t>(std::stoll(v, nullptr, 0)); std::memcpy(out.data(), &x, n); }
  } catch (const std::exception&) {
    err = "bad scalar '" + v + "'";
    return false;
  }
  return true;
}

uint64_t compare_buffer(const BufferDesc& want, const std::vector<uint8_t>& got, double tol, int show, std::string& report) {
  size_t n = type_size(want.type);
  uint64_t bad = 0;
  std::ostringstream r;
  for (uint64_t i = 0; i < want.count; ++i) {
    const uint8_t* a = want.data.data() + i * n;
    const uint8_t* b = got.data() + i * n;
    bool ok;
    std::string ws, gs;
    if (is_float(want.type)) {
      double x, y;
      if (want.type == "f32") { float fx, fy; std::memcpy(&fx, a, 4); std::memcpy(&fy, b, 4); x = fx; y = fy; }
      else if (n == 2) {
        uint16_t hx, hy;
        std::memcpy(&hx, a, 2);
        std::memcpy(&hy, b, 2);
        x = half_bits_to_double(want.type, hx);
        y = half_bits_to_double(want.type, hy);
      }
      else { std::memcpy(&x, a, 8); std::memcpy(&y, b, 8); }
      ok = (std::isnan(x) && std::isnan(y)) || (tol < 0 ? std::memcmp(a, b, n) == 0 : x == y) ||
           (tol > 0 && std::fabs(x - y) <= tol * std::max(1.0, std::fabs(x)));
      std::ostringstream s1, s2;
      s1.precision(9); s2.precision(9);
      s1 << x; s2 << y;
      if (tol < 0) {  // exact: show the bits too
        uint64_t bx = 0, by = 0;
        std::memcpy(&bx, a, n);
        std::memcpy(&by, b, n);
        s1 << std::hex << " (0x" << bx << ")";
        s2 << std::hex << " (0x" << by << ")";
      }
      ws = s1.str(); gs = s2.str();
    } else {
      int64_t x = 0, y = 0;
      std::memcpy(&x, a, n);
      std::memcpy(&y, b, n);
      ok = std::memcmp(a, b, n) == 0;
      ws = std::to_string(x); gs = std::to_string(y);
    }
    if (!ok) {
      if (bad < static_cast<uint64_t>(show)) r << "  " << want.name << "[" << i << "]: want " << ws << " got " << gs << "\n";
      ++bad;
    }
  }
  report += r.str();
  return bad;
}

uint64_t RefCtx::count(const std::string& n) const {
  for (auto& b : d.buffers) if (b.name == n) return b.count;
  return 0;
}

const TextureDesc& RefCtx::texture(const std::string& n) const {
  const TextureDesc* t = d.texture(n);
  if (!t) throw std::runtime_error("no texture " + n);
  return *t;
}

double RefCtx::scalar(size_t i) const { return std::stod(d.params.at(i).value); }
int64_t RefCtx::iscalar(size_t i) const { return std::stoll(d.params.at(i).value, nullptr, 0); }

}  // namespace ptxmini::exec

//===- scheduler/hazard_check.cpp - the hazard checker ------------------------------===//
///
/// \file
/// The general idea: decode every word (encoder/sass_codec), read its register accesses
/// (sass_deps.cpp) and control field, cut the code into blocks at branch targets and after
/// control transfers, then run a forward dataflow whose state is everything in flight:
///   - fixed-latency results: register, producer, latency class, age in cycles (and the
///     write scoreboard when the producer also set one: a wait on it completes the result);
///   - scoreboard entries: producer, scoreboard, write or read, age, how many later setters
///     of the same scoreboard (for DEPBAR.LE), and the registers it covers;
///   - untracked entries: results of variable-latency producers without a write scoreboard
///     and sources of late readers without a read scoreboard (ptxas relies on in-order
///     queues and barriers there; see hazard_check.h).
/// Ages grow by each instruction's stall (at least one cycle; the real issue may be later,
/// never earlier). The join keeps every entry of every predecessor with its smallest age,
/// so a block sees the worst path into it. Once the states are stable, a last pass reports.
//===----------------------------------------------------------------------------------===//
#include "scheduler/hazard_check.h"

#include "encoder/cubin/cubin_model.h"
#include "encoder/isa_table.h"
#include "encoder/sass_codec.h"
#include "scheduler/sass_deps.h"
#include "targets/arch.h"
#include "targets/common/volta_word.h"
#include "targets/target_model.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <ostream>
#include <sstream>
#include <tuple>

namespace ptxmini::sched {

namespace {

enum Kind : uint8_t {
  K_RawLatency,
  K_RawScoreboard,
  K_WawScoreboard,
  K_WarScoreboard,
  K_RawUntracked,
  K_WawUntracked,
  K_WarUntracked,
};

constexpr uint8_t kNoSb = 7;
constexpr uint16_t kMaxAge = 0x7FFF;

struct Insn {
  uint64_t pc = 0;
  std::string text;
  volta::Control ctrl;
  SassDeps d;
  bool decoded = false;
  unsigned stall() const { return std::max(1u, ctrl.stall); }
};

/// The guard an entry's producer ran under (kNoGuard when unguarded or when the predicate
/// has been written since): a later instruction under the opposite guard never sees it.
constexpr uint16_t kNoGuard = 0xFFFF;
struct Guard {
  uint16_t key = kNoGuard;
  bool neg = false;
  bool complements(const Guard &o) const { return key != kNoGuard && key == o.key && neg != o.neg; }
  bool operator==(const Guard &) const = default;
};
Guard meet(Guard a, Guard b) { return a == b ? a : Guard{}; }

struct FixedE {
  uint16_t reg;
  uint32_t prod;
  uint8_t wclass;
  uint8_t sb;
  uint16_t age;
  Guard guard;
  auto key() const { return std::tie(reg, prod, wclass, sb); }
};

struct SbE {
  uint32_t prod;
  uint8_t sb;
  bool write;
  uint16_t age;
  uint16_t newer;
  std::vector<uint16_t> regs; ///< sorted
  Guard guard;
  auto key() const { return std::tie(prod, sb, write); }
};

struct UntrE {
  uint16_t reg;
  uint32_t prod;
  bool lateRead; ///< a late read pending (WAR), else a variable-latency write (RAW/WAW)
  uint16_t age;
  Guard guard;
  auto key() const { return std::tie(reg, prod, lateRead); }
};

/// Two entries with one key (the same producer) stand for one: the younger age, the fewer
/// newer setters and the union of pending registers -- what either copy could still flag.
/// The join of two paths and a producer met again around a loop both fold this way; without
/// the fold a loop adds one copy per trip to the fixpoint until ages saturate (32,767
/// cycles), which kept the checker busy for minutes on ggml's argsort.
void fold(FixedE &m, const FixedE &o) {
  m.age = std::min(m.age, o.age);
  m.guard = meet(m.guard, o.guard);
}
void fold(SbE &m, const SbE &o) {
  m.age = std::min(m.age, o.age);
  m.guard = meet(m.guard, o.guard);
  m.newer = std::min(m.newer, o.newer);
  if (!std::includes(m.regs.begin(), m.regs.end(), o.regs.begin(), o.regs.end())) {
    std::vector<uint16_t> u;
    std::set_union(m.regs.begin(), m.regs.end(), o.regs.begin(), o.regs.end(), std::back_inserter(u));
    m.regs = std::move(u);
  }
}
void fold(UntrE &m, const UntrE &o) {
  m.age = std::min(m.age, o.age);
  m.guard = meet(m.guard, o.guard);
}

/// Sorts by key and folds entries that share one.
template <typename T> void sortAndFold(std::vector<T> &v) {
  std::sort(v.begin(), v.end(), [](const T &a, const T &b) { return a.key() < b.key(); });
  size_t w = 0;
  for (size_t r = 0; r < v.size(); ++r) {
    if (w > 0 && v[w - 1].key() == v[r].key())
      fold(v[w - 1], v[r]);
    else if (w++ != r)
      v[w - 1] = std::move(v[r]);
  }
  v.resize(w);
}

struct State {
  bool reached = false;
  std::vector<FixedE> fixed;
  std::vector<SbE> sbs;
  std::vector<UntrE> untr;

  void canonicalize() {
    sortAndFold(fixed);
    sortAndFold(sbs);
    sortAndFold(untr);
  }
  bool operator==(const State &o) const {
    auto eqF = [](const FixedE &a, const FixedE &b) {
      return a.key() == b.key() && a.age == b.age && a.guard == b.guard;
    };
    auto eqS = [](const SbE &a, const SbE &b) {
      return a.key() == b.key() && a.age == b.age && a.newer == b.newer && a.regs == b.regs &&
             a.guard == b.guard;
    };
    auto eqU = [](const UntrE &a, const UntrE &b) {
      return a.key() == b.key() && a.age == b.age && a.guard == b.guard;
    };
    return reached == o.reached && std::equal(fixed.begin(), fixed.end(), o.fixed.begin(), o.fixed.end(), eqF) &&
           std::equal(sbs.begin(), sbs.end(), o.sbs.begin(), o.sbs.end(), eqS) &&
           std::equal(untr.begin(), untr.end(), o.untr.begin(), o.untr.end(), eqU);
  }
};

/// Merges sorted `b` into sorted `a`, folding entries of one key.
template <typename T> void mergeInto(std::vector<T> &a, const std::vector<T> &b) {
  std::vector<T> out;
  out.reserve(a.size() + b.size());
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].key() < b[j].key())) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].key() < a[i].key()) {
      out.push_back(b[j++]);
    } else {
      T m = a[i++];
      fold(m, b[j++]);
      out.push_back(std::move(m));
    }
  }
  a = std::move(out);
}

void join(State &into, const State &from) {
  if (!from.reached)
    return;
  if (!into.reached) {
    into = from;
    return;
  }
  mergeInto(into.fixed, from.fixed);
  mergeInto(into.sbs, from.sbs);
  mergeInto(into.untr, from.untr);
}

struct Checker {
  const Target &target;
  const HazardOptions &opts;
  const std::string &fname;
  std::vector<Insn> code;
  std::vector<Violation> *out = nullptr; ///< null while iterating to the fixpoint
  HazardStats stats;

  Checker(const Target &t, const HazardOptions &o, const std::string &n) : target(t), opts(o), fname(n) {}

  void report(Kind k, const Insn &at, std::string msg, bool unverified) {
    if (!out)
      return;
    if (unverified)
      ++stats.unverified;
    else
      ++stats.violations;
    ++stats.byKind[k];
    if (unverified && !opts.strict)
      return;
    out->push_back({hazardKinds()[k], at.pc, std::move(msg), unverified});
  }

  std::string where(uint32_t prod) const {
    char buf[32];
    std::snprintf(buf, sizeof buf, "/*%04llx*/ ", static_cast<unsigned long long>(code[prod].pc));
    return buf + code[prod].text;
  }

  static void keysOf(const RegAccess &a, std::vector<uint16_t> &keys) {
    unsigned base = regKeyBase(a.file);
    unsigned limit = a.file == ori::RegClass::R ? 255 : a.file == ori::RegClass::UR ? 63 : 7;
    for (unsigned k = 0; k < a.count; ++k)
      if (a.first + k < limit)
        keys.push_back(static_cast<uint16_t>(base + a.first + k));
  }

  /// One instruction: waits, checks, effects, then time passes.
  void step(State &st, uint32_t idx) {
    const Insn &in = code[idx];
    const SassDeps &d = in.d;
    const IssueFacts &iss = target.issue();
    // 1. Waits retire what is pending on the waited scoreboards (once the setter is old
    //    enough for the count to be visible).
    // A DEPBAR.LE waits for the count itself, so the set delay does not apply to it (HW:
    // ptxas's sm_80 code reads UR4 after `S2UR UR4, SR_CLOCKLO` (SB0, stall 1) and
    // `DEPBAR.LE SB0, 0x0` one cycle later, nothing else waiting).
    auto retired = [&](uint8_t sb, uint16_t age, uint16_t newer, bool depbar) {
      if (age < iss.scoreboardSetDelay && !depbar)
        return false;
      if (depbar)
        return sb == d.depbarSb && newer >= d.depbarCount;
      return ((in.ctrl.waitMask >> sb) & 1) != 0;
    };
    if (in.ctrl.waitMask || d.depbarSb >= 0) {
      for (int pass = 0; pass < 2; ++pass) {
        bool depbar = pass == 1;
        if (depbar && d.depbarSb < 0)
          continue;
        if (opts.depsOut && out) {
          for (unsigned sb = 0; sb < iss.numScoreboards; ++sb) {
            uint16_t best = kMaxAge;
            bool any = false;
            for (const SbE &e : st.sbs)
              if (e.sb == sb && !e.regs.empty() && ((!depbar && (in.ctrl.waitMask >> sb & 1)) ||
                                                    (depbar && static_cast<int>(sb) == d.depbarSb))) {
                best = std::min(best, e.age);
                any = true;
              }
            if (any)
              *opts.depsOut << "SBWAIT " << best << "\n";
          }
        }
        // A retired write also retires the producer's reads: it read its sources before its
        // result came back (HW: ptxas waits only on an LDG's write scoreboard before
        // overwriting the address register the LDG read late).
        std::vector<uint32_t> done;
        for (const SbE &e : st.sbs)
          if (e.write && retired(e.sb, e.age, e.newer, depbar))
            done.push_back(e.prod);
        std::erase_if(st.sbs, [&](const SbE &e) {
          return retired(e.sb, e.age, e.newer, depbar) ||
                 (!e.write && std::find(done.begin(), done.end(), e.prod) != done.end());
        });
        // The same holds for late reads the producer tracked with no read scoreboard.
        std::erase_if(st.untr, [&](const UntrE &e) {
          return e.lateRead && std::find(done.begin(), done.end(), e.prod) != done.end();
        });
        std::erase_if(st.fixed, [&](const FixedE &e) {
          return e.sb != kNoSb && retired(e.sb, e.age, 0xFFFF, depbar);
        });
      }
    }
    if (opts.depsOut && out && in.decoded)
      *opts.depsOut << "OP " << d.mnemonic << " " << in.ctrl.stall << " " << (in.ctrl.yieldBit ? 0 : 1)
                    << " " << in.ctrl.writeSb << " " << in.ctrl.readSb << "\n";

    Guard myGuard;
    for (const RegAccess &a : d.regs)
      if (a.operand == -1 && a.how == Access::Guard)
        myGuard = {static_cast<uint16_t>(regKeyBase(a.file) + a.first), false};
    if (myGuard.key != kNoGuard && in.text.starts_with("@!"))
      myGuard.neg = true;

    std::vector<uint16_t> keys;
    // 2. Reads.
    if (!d.opaque) {
      for (const RegAccess &a : d.regs) {
        if (a.how == Access::Write)
          continue;
        keys.clear();
        keysOf(a, keys);
        ReadKind kind = a.how == Access::Guard ? ReadKind::Guard : ReadKind::Src;
        for (uint16_t r : keys) {
          const FixedE *worst = nullptr;
          for (const FixedE &e : st.fixed)
            if (e.reg == r && !e.guard.complements(myGuard) && (!worst || e.age < worst->age))
              worst = &e;
          if (worst) {
            ++stats.checkedReads;
            // Every producer that may still be in flight along some path is a measured pair
            // (not only the youngest: the checker below checks them all).
            if (opts.depsOut && out)
              for (const FixedE &e : st.fixed)
                if (e.reg == r && !e.guard.complements(myGuard))
                  *opts.depsOut << "RAW " << ori::latClassName(static_cast<ori::LatClass>(e.wclass)) << " "
                                << ori::latClassName(d.cls) << " " << ori::pregPrefix(a.file) << " "
                                << (kind == ReadKind::Guard ? "Guard" : "Src") << " " << e.age << " "
                                << code[e.prod].d.mnemonic << " " << d.mnemonic << "\n";
            for (const FixedE &e : st.fixed) {
              if (e.reg != r || e.guard.complements(myGuard))
                continue;
              unsigned n = target.rawLatency(static_cast<ori::LatClass>(e.wclass), d.cls, a.file, kind);
              if (e.age < n) {
                report(K_RawLatency, in,
                       regKeyName(r) + " read " + std::to_string(e.age) + " cycles after " +
                           where(e.prod) + " (" + std::string(ori::latClassName(static_cast<ori::LatClass>(e.wclass))) +
                           " -> " + std::string(ori::latClassName(d.cls)) + " needs " + std::to_string(n) + ")",
                       false);
                break;
              }
            }
          }
          for (const SbE &e : st.sbs)
            if (e.write && !e.guard.complements(myGuard) &&
                std::binary_search(e.regs.begin(), e.regs.end(), r)) {
              ++stats.checkedReads;
              // OP_PFIX (ATOM's P result): ptxas reads it while the scoreboard is pending, so
              // it does not wait on it; its latency is not measured: unverified.
              bool pfix = code[e.prod].d.has(OP_PFIX) && r >= regKeyBase(ori::RegClass::P);
              report(K_RawScoreboard, in,
                     regKeyName(r) + " read while SB" + std::to_string(e.sb) + " of " + where(e.prod) +
                         " is pending" + (pfix ? " (a predicate result, not scoreboarded)" : ""),
                     pfix);
              break;
            }
          for (const UntrE &e : st.untr)
            if (!e.lateRead && e.reg == r && !e.guard.complements(myGuard)) {
              report(K_RawUntracked, in,
                     regKeyName(r) + " read; its producer " + where(e.prod) +
                         " has variable latency and no write scoreboard",
                     true);
              break;
            }
        }
      }
    }
    // 3. Overwrites.
    std::vector<uint16_t> defKeys, srcKeys;
    if (!d.opaque) {
      for (const RegAccess &a : d.regs) {
        if (a.how == Access::Write)
          keysOf(a, defKeys);
        else if (a.how == Access::Read && a.file == ori::RegClass::R)
          keysOf(a, srcKeys); // HW: uniform operands are read at issue (ptxas overwrites the
                              // UR descriptor of a store while its read scoreboard is pending)
      }
    }
    // A variable-latency overwrite lands long after its issue; ptxas lets it follow a pending
    // late read without a wait (the queues complete in order), which the model cannot prove.
    bool vlatWriter = d.has(OP_VLAT);
    for (uint16_t r : defKeys) {
      for (SbE &e : st.sbs) {
        auto it = std::lower_bound(e.regs.begin(), e.regs.end(), r);
        if (it == e.regs.end() || *it != r || e.guard.complements(myGuard))
          continue;
        // ptxas also overwrites a pending load result with a later load of the same queue
        // (LDS.128 R4 then LDS R6 on another scoreboard, 30 times in the corpus), relying on
        // in-order completion of that queue: unverified, like the case above.
        bool sameQueue = e.write && vlatWriter && code[e.prod].d.cls == d.cls;
        bool unverified = (!e.write && vlatWriter) || sameQueue;
        report(sameQueue ? K_WawUntracked : e.write ? K_WawScoreboard : unverified ? K_WarUntracked : K_WarScoreboard, in,
               regKeyName(r) + " overwritten while SB" + std::to_string(e.sb) + " of " + where(e.prod) +
                   (e.write ? " still has to write it" : " still has to read it") +
                   (unverified ? " (by a variable-latency write)" : ""),
               unverified);
        e.regs.erase(it); // reported once
      }
      for (UntrE &e : st.untr) {
        if (e.reg != r || e.age == kMaxAge || e.guard.complements(myGuard))
          continue;
        if (e.lateRead && e.age < iss.lateReadWindow)
          report(K_WarUntracked, in,
                 regKeyName(r) + " overwritten " + std::to_string(e.age) + " cycles after " + where(e.prod) +
                     " (reads it late, no read scoreboard)",
                 true);
        else if (!e.lateRead)
          report(K_WawUntracked, in,
                 regKeyName(r) + " overwritten while " + where(e.prod) +
                     " (variable latency, no write scoreboard) may still write it",
                 true);
        e.age = kMaxAge; // reported once
      }
    }
    // 4. Effects.
    if (d.opaque) {
      // Unknown writes: forget what is pending on every register the text names (no claim
      // either way), keep the scoreboards it sets counting.
      // The guard is only read (Access::Guard), whatever the instruction's roles.
      for (const RegAccess &a : d.regs)
        if (a.how != Access::Guard)
          keysOf(a, defKeys);
      for (uint16_t r : defKeys) {
        std::erase_if(st.fixed, [&](const FixedE &e) { return e.reg == r; });
        std::erase_if(st.untr, [&](const UntrE &e) { return e.reg == r; });
      }
      if (d.op == nullptr && !in.decoded) {
        st.fixed.clear(); // an undecodable word may write anything
        st.untr.clear();
      }
    } else if (!d.guarded) {
      for (uint16_t r : defKeys) {
        std::erase_if(st.fixed, [&](const FixedE &e) { return e.reg == r; });
        std::erase_if(st.untr, [&](const UntrE &e) { return e.reg == r && !e.lateRead; });
      }
    }
    auto addSb = [&](uint8_t sb, bool write, std::vector<uint16_t> regs) {
      bool shared = false;
      for (SbE &e : st.sbs)
        if (e.sb == sb) {
          e.newer = static_cast<uint16_t>(std::min<unsigned>(e.newer + 1u, 0xFFFF));
          shared = shared || !e.regs.empty();
        }
      if (shared && out)
        ++stats.sharedScoreboards;
      std::sort(regs.begin(), regs.end());
      regs.erase(std::unique(regs.begin(), regs.end()), regs.end());
      st.sbs.push_back({idx, sb, write, 0, 0, std::move(regs), myGuard});
    };
    bool vlat = d.has(OP_VLAT) || (!d.op && in.ctrl.writeSb != kNoSb);
    if (in.ctrl.writeSb < iss.numScoreboards)
      addSb(static_cast<uint8_t>(in.ctrl.writeSb), true, vlat ? defKeys : std::vector<uint16_t>{});
    if (!d.opaque) {
      if (vlat && in.ctrl.writeSb == kNoSb) {
        for (uint16_t r : defKeys)
          st.untr.push_back({r, idx, false, 0, myGuard});
      } else if (!vlat) {
        // The upper register of a written pair may land as another class (PAIR_HIGH).
        uint8_t high = static_cast<uint8_t>(target.pairHighClass(d.cls));
        for (const RegAccess &a : d.regs) {
          if (a.how != Access::Write)
            continue;
          std::vector<uint16_t> ks;
          keysOf(a, ks);
          for (size_t n = 0; n < ks.size(); ++n)
            st.fixed.push_back({ks[n], idx, n == 1 && ks.size() == 2 ? high : static_cast<uint8_t>(d.cls),
                                static_cast<uint8_t>(in.ctrl.writeSb), 0, myGuard});
        }
      }
    }
    if (in.ctrl.readSb < iss.numScoreboards)
      addSb(static_cast<uint8_t>(in.ctrl.readSb), false, d.opaque ? std::vector<uint16_t>{} : srcKeys);
    else if (!d.opaque && d.has(OP_LATE))
      for (uint16_t r : srcKeys)
        st.untr.push_back({r, idx, true, 0, myGuard});
    if (d.has(OP_CALL)) {
      // The callee ran: its time covers every fixed latency, and it may have written any
      // register. Scoreboards stay as they are.
      st.fixed.clear();
      st.untr.clear();
    }
    // A predicate written here no longer tells which entries the guard excludes.
    for (uint16_t r : defKeys) {
      if (r < regKeyBase(ori::RegClass::P))
        continue;
      for (FixedE &e : st.fixed)
        if (e.guard.key == r && e.prod != idx)
          e.guard = {};
      for (SbE &e : st.sbs)
        if (e.guard.key == r && e.prod != idx)
          e.guard = {};
      for (UntrE &e : st.untr)
        if (e.guard.key == r && e.prod != idx)
          e.guard = {};
    }
    // 5. Time passes.
    unsigned dt = in.stall();
    for (FixedE &e : st.fixed)
      e.age = static_cast<uint16_t>(std::min<unsigned>(e.age + dt, kMaxAge));
    for (SbE &e : st.sbs)
      e.age = static_cast<uint16_t>(std::min<unsigned>(e.age + dt, kMaxAge));
    for (UntrE &e : st.untr)
      if (e.age != kMaxAge)
        e.age = static_cast<uint16_t>(std::min<unsigned>(e.age + dt, kMaxAge - 1));
    // Results older than every latency of their class cannot be read too early any more (the
    // dependence dump keeps them longer, to measure the distances ptxas leaves).
    unsigned keep = opts.depsOut ? 64 : 0;
    std::erase_if(st.fixed, [&](const FixedE &e) {
      return e.age >= std::max(keep, target.maxRawLatency(static_cast<ori::LatClass>(e.wclass),
                                                          regKeyFile(e.reg)));
    });
    std::erase_if(st.untr, [&](const UntrE &e) { return e.lateRead && e.age >= iss.lateReadWindow; });
    std::erase_if(st.sbs, [&](const SbE &e) { return e.regs.empty() && e.age >= kMaxAge; });
  }
};

} // namespace

const std::vector<std::string> &hazardKinds() {
  static const std::vector<std::string> k = {"raw-latency",   "raw-scoreboard", "waw-scoreboard",
                                             "war-scoreboard", "raw-untracked", "waw-untracked",
                                             "war-untracked"};
  return k;
}

void HazardStats::add(const HazardStats &o) {
  functions += o.functions, instructions += o.instructions, undecoded += o.undecoded;
  opaque += o.opaque, violations += o.violations, unverified += o.unverified;
  checkedReads += o.checkedReads, sharedScoreboards += o.sharedScoreboards;
  blockVisits += o.blockVisits;
  for (size_t k = 0; k < byKind.size(); ++k)
    byKind[k] += o.byKind[k];
}

HazardStats checkFunctionHazards(const std::string &name, const std::vector<enc::Word128> &words,
                                 unsigned sm, const Target &target, const HazardOptions &opts,
                                 std::vector<Violation> &out) {
  Checker c(target, opts, name);
  const enc::Isa *isa = enc::Isa::forSm(sm);
  c.code.resize(words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    Insn &in = c.code[i];
    in.pc = i * 16;
    in.ctrl = volta::readControl(words[i]);
    auto text = isa ? enc::decodeText(*isa, words[i], in.pc) : std::nullopt;
    std::string err;
    if (text && analyzeSass(*text, target, in.d, err)) {
      in.text = *text;
      in.decoded = true;
    } else {
      in.text = "<undecoded>";
      in.d = SassDeps{};
      in.d.opaque = true;
      ++c.stats.undecoded;
    }
    if (in.decoded && in.d.opaque)
      ++c.stats.opaque;
  }
  c.stats.functions = 1;
  c.stats.instructions = words.size();
  if (words.empty())
    return c.stats;

  // Blocks: leaders at 0, at branch targets inside the function, after control transfers.
  size_t n = c.code.size();
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (size_t i = 0; i < n; ++i) {
    const SassDeps &d = c.code[i].d;
    for (uint64_t t : d.targets)
      if (t % 16 == 0 && t / 16 < n)
        leader[t / 16] = true;
    if (d.has(OP_BRANCH) || d.has(OP_TERM))
      leader[i + 1] = true;
  }
  std::vector<uint32_t> blockStart, blockOf(n);
  for (size_t i = 0; i < n; ++i) {
    if (leader[i])
      blockStart.push_back(static_cast<uint32_t>(i));
    blockOf[i] = static_cast<uint32_t>(blockStart.size() - 1);
  }
  size_t nb = blockStart.size();
  auto blockEnd = [&](size_t b) { return b + 1 < nb ? blockStart[b + 1] : static_cast<uint32_t>(n); };
  std::vector<std::vector<uint32_t>> succs(nb);
  for (size_t b = 0; b < nb; ++b) {
    const Insn &last = c.code[blockEnd(b) - 1];
    const SassDeps &d = last.d;
    bool fallthrough = true;
    if (d.has(OP_BRANCH)) {
      for (uint64_t t : d.targets)
        if (t % 16 == 0 && t / 16 < n)
          succs[b].push_back(blockOf[t / 16]);
      fallthrough = d.guarded || d.conditional;
      if (d.has(OP_INDIRECT))
        fallthrough = d.guarded;
    } else if (d.has(OP_TERM)) {
      fallthrough = d.guarded;
    }
    if (fallthrough && b + 1 < nb)
      succs[b].push_back(static_cast<uint32_t>(b + 1));
  }

  // Forward dataflow to a fixpoint (bounded; ages and producers are finite).
  std::vector<State> in(nb), outState(nb);
  in[0].reached = true;
  std::vector<bool> queued(nb, true);
  std::vector<uint32_t> work;
  for (size_t b = nb; b-- > 0;)
    work.push_back(static_cast<uint32_t>(b));
  unsigned steps = 0;
  const unsigned maxSteps = 64 * static_cast<unsigned>(nb) + 1000;
  while (!work.empty() && steps++ < maxSteps) {
    uint32_t b = work.back();
    work.pop_back();
    queued[b] = false;
    State st = in[b];
    if (!st.reached)
      continue;
    ++c.stats.blockVisits;
    for (uint32_t i = blockStart[b]; i < blockEnd(b); ++i)
      c.step(st, i);
    st.canonicalize();
    if (st == outState[b])
      continue;
    outState[b] = std::move(st);
    for (uint32_t s : succs[b]) {
      State merged = in[s];
      join(merged, outState[b]);
      merged.canonicalize();
      if (!(merged == in[s])) {
        in[s] = std::move(merged);
        if (!queued[s]) {
          queued[s] = true;
          work.push_back(s);
        }
      }
    }
  }
  // Reporting pass (blocks never reached start from nothing in flight).
  c.out = &out;
  size_t firstReport = out.size();
  for (size_t b = 0; b < nb; ++b) {
    State st = in[b];
    st.reached = true;
    for (uint32_t i = blockStart[b]; i < blockEnd(b); ++i)
      c.step(st, i);
  }
  (void)firstReport;
  return c.stats;
}

HazardStats checkCubinHazards(const std::string &path, const HazardOptions &opts, std::ostream &os,
                              bool &ok) {
  HazardStats total;
  ok = false;
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    os << path << ": cannot open\n";
    return total;
  }
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::string err;
  auto cub = cubin::readCubin(bytes, err);
  if (!cub) {
    os << path << ": not a valid cubin: " << err << "\n";
    return total;
  }
  unsigned sm = (cub->flags >> 8) & 0xff;
  auto arch = parseArch("sm_" + std::to_string(sm));
  const Target *target = arch ? modelTarget(*arch) : nullptr;
  if (!target) {
    os << path << ": no scheduling model for sm_" << sm << "\n";
    return total;
  }
  ok = true;
  for (const cubin::Section &s : cub->sections) {
    if (s.type != 1 /* SHT_PROGBITS */ || s.name.rfind(".text.", 0) != 0 || s.data.size() % 16)
      continue;
    std::vector<enc::Word128> words(s.data.size() / 16);
    for (size_t i = 0; i < words.size(); ++i) {
      std::memcpy(&words[i].lo, s.data.data() + 16 * i, 8);
      std::memcpy(&words[i].hi, s.data.data() + 16 * i + 8, 8);
    }
    std::string fn = s.name.substr(6);
    std::vector<Violation> v;
    HazardStats st = checkFunctionHazards(fn, words, sm, *target, opts, v);
    total.add(st);
    unsigned shown = 0;
    for (const Violation &x : v) {
      if (shown++ == opts.maxReportsPerFunction) {
        os << path << ": " << fn << ": ... " << (v.size() - opts.maxReportsPerFunction)
           << " more\n";
        break;
      }
      char pc[16];
      std::snprintf(pc, sizeof pc, "%04llx", static_cast<unsigned long long>(x.pc));
      os << path << ": " << fn << ": /*" << pc << "*/ " << x.kind << ": " << x.message << "\n";
    }
  }
  return total;
}

} // namespace ptxmini::sched

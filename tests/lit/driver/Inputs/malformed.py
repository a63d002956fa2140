#!/usr/bin/env python3
"""Malformed inputs and command lines: exit status and first line of stderr as ptxas's.

    malformed.py --mini BIN --base saxpy.ptx --work DIR [--ptxas BIN]

Each case mutates a valid PTX file (or the command line) in one way and states what ptxas
13.0.88 prints first and its exit status (observed; the table is what ptxas-mini must say).
With --ptxas the same cases also run through NVIDIA's ptxas, which must print exactly the
table's line too, so the table cannot drift from the oracle. ptxas-mini's own additions are
ignored: its tool name and the " (column N)" it appends to located messages.

Known differences, not in the table: a label without its colon (ptxas reads `$L ret;` as an
unknown instruction), the word ptxas names in a syntax error inside a dotted opcode
(`mov.u32` -> ptxas 'mov'), `%ctaid.w` (ptxas accepts it), standard input's name (ptxas
names a temporary file), ptxas-mini's -knob option.
"""
import argparse
import os
import re
import subprocess
import sys

L = "\tmov.u32 \t%r3, %ctaid.x;"  # a line of saxpy.ptx the cases replace


def cases(base):
    def sub(old, new):
        assert old in base, old
        return base.replace(old, new, 1)

    entry = base[base.index(".visible"):]
    # name -> (PTX text or None for the base file, extra arguments, exit status, first line)
    # `{f}` in the line is the input's name as given on the command line.
    return {
        "empty": ("", [], 255, "{f}, line 1; fatal   : Missing .version directive at start of file '{f}'"),
        "blank_lines": ("\n\n   \n", [], 255,
                        "{f}, line 4; fatal   : Missing .version directive at start of file '{f}'"),
        "truncated": (base[:len(base) // 2], [], 255, "{f}, line 23; fatal   : Parsing error near '': syntax error"),
        "no_closing_brace": (base.rstrip().rstrip("}"), [], 255,
                             "{f}, line 44; fatal   : Parsing error near '': syntax error"),
        "no_version": (sub(".version 8.0\n", ""), [], 255,
                       "{f}, line 5; fatal   : Missing .version directive at start of file '{f}'"),
        "version_not_number": (sub(".version 8.0", ".version abc"), [], 255,
                               "{f}, line 4; fatal   : Missing .version directive at start of file '{f}'"),
        "version_no_minor": (sub(".version 8.0", ".version 8"), [], 255,
                             "{f}, line 4; fatal   : Missing .version directive at start of file '{f}'"),
        "garbage_first": ("garbage text\n" + base, [], 255,
                          "{f}, line 1; fatal   : Missing .version directive at start of file '{f}'"),
        "garbage_after_version": (sub(".version 8.0", ".version 8.0 garbage"), [], 255,
                                  "{f}, line 4; fatal   : Missing .target directive at start of file '{f}'"),
        "version_after_code": (base + "\n.version 8.0\n", [], 255,
                               "{f}, line 46; fatal   : Parsing error near '.version 8.0': syntax error"),
        "future_version": (sub(".version 8.0", ".version 99.0"), [], 255,
                           "{f}, line 4; fatal   : Unsupported .version 99.0; current version is '9.0'"),
        "version_too_old_for_target": (sub(".target sm_90", ".target sm_100"), [], 255,
                                       "{f}, line 5; error   : PTX .version 8.0 does not support .target sm_100"),
        "bad_address_size": (sub(".address_size 64", ".address_size 48"), [], 255,
                             "{f}, line 6; error   : Illegal value for .address_size directive (must be 32 or 64)"),
        "unterminated_comment": (sub(L, "/* never closed\n" + L), [], 255,
                                 "{f}, line 24; fatal   : Parsing error near '': unexpected EOF while scanning"),
        "unterminated_comment_at_end": (base + "\n/* open", [], 255,
                                        "{f}, line 46; fatal   : Parsing error near '': unexpected EOF while scanning"),
        "nul_byte": (sub(L, "\tmov.u32 \x00\t%r3, %ctaid.x;"), [], 255,
                     "fatal   : Unexpected EOF encountered on line 24"),
        "nul_in_comment": (sub("// saxpy:", "// sa\x00xpy:"), [], 255,
                           "fatal   : Unexpected EOF encountered on line 2"),
        "non_ascii_in_comment": (sub("// saxpy:", "// saxpy\u00e9:"), [], 255,
                                 "fatal   : Unexpected non-ASCII character encountered on line 2"),
        "unknown_register": (sub(L, "\tmov.u32 \t%r3, %nosuch;"), [], 255,
                             "{f}, line 24; error   : Arguments mismatch for instruction 'mov'"),
        "unknown_register_wrong_count": (sub(L, "\tadd.s32 \t%r3, %nosuch;"), [], 255,
                                         "{f}, line 24; error   : Arguments mismatch for instruction 'add'"),
        "unknown_in_address": (sub(L, "\tld.global.f32 \t%f2, [%nosuch];"), [], 255,
                               "{f}, line 24; error   : Illegal operand type to instruction 'ld'"),
        "unknown_in_vector": (sub(L, "\tst.global.v2.f32 \t[%rd7], {%f4, %nosuch};"), [], 255,
                              "{f}, line 24; error   : Illegal expression '%nosuch'"),
        "unknown_guard": (sub(L, "\t@%nosuch mov.u32 \t%r3, %r4;"), [], 255,
                          "{f}, line 24; error   : Predicate expression expected"),
        "guard_not_predicate": (sub("@%p1 bra", "@%r1 bra"), [], 255,
                                "{f}, line 29; error   : Predicate expression expected"),
        "unknown_mad_lo": (sub(L, "\tmad.lo.s32 \t%r3, %nosuch, %r4, %r5;"), [], 255,
                           "{f}, line 24; error   : Arguments mismatch for instruction 'mad.lo'"),
        "unknown_cvta_to": (sub(L, "\tcvta.to.global.u64 \t%rd3, nosuch;"), [], 255,
                            "{f}, line 24; error   : Arguments mismatch for instruction 'cvta.to'"),
        "unknown_label": (sub("bra \t$L__BB0_2", "bra \t$L__nosuch"), [], 255,
                          "{f}, line 29; error   : Unknown symbol '$L__nosuch'"),
        "unknown_opcode": (sub(L, "\tfrobnicate.u32 \t%r3, %ctaid.x;"), [], 255,
                           "{f}, line 24; error   : Not a name of any known instruction: 'frobnicate'"),
        "unknown_type": (sub(L, "\tmov.u33 \t%r3, %ctaid.x;"), [], 255,
                         "{f}, line 24; error   : Unknown modifier '.u33'"),
        "vector_of_three": (sub("ld.global.f32 \t%f2, [%rd5];", "ld.global.v3.f32 \t{%f2,%f3,%f4}, [%rd5];"),
                            [], 255, "{f}, line 34; error   : Unknown modifier '.v3'"),
        "duplicate_register_range": (sub("\t.reg .f32 \t%f<5>;", "\t.reg .f32 \t%f<5>;\n\t.reg .f32 \t%f<5>;"),
                                     [], 255, "{f}, line 17; error   : Duplicate definition of variable '%f<'"),
        "duplicate_entry": (base + entry, [], 255,
                            "{f}, line 50; error   : Duplicate definition of function 'saxpy'"),
        "too_many_operands": (sub(L, "\tmov.u32 \t%r3, %ctaid.x, %r4;"), [], 255,
                              "{f}, line 24; error   : Arguments mismatch for instruction 'mov'"),
        "extra_closing_brace": (base + "\n}\n", [], 255, "{f}, line 46; fatal   : Parsing error near '}': syntax error"),
        "misaligned": (sub("\t.reg .pred", "\t.local .align 3 .b8 buf[16];\n\t.reg .pred"), [], 255,
                       "{f}, line 15; error   : Alignment must be a power of two"),
        # Command lines (the base file as input unless the case says otherwise).
        "missing_file": (None, ["@nosuch.ptx"], 255, "fatal   : Input file '{f}' could not be opened"),
        "directory": (None, ["@"], 255, "{f}, line 1; fatal   : Missing .version directive at start of file '{f}'"),
        "two_inputs_same_kernel": (None, ["@base", "@base"], 255,
                                   "{f}, line 13; error   : Duplicate definition of function 'saxpy'"),
        "unknown_option": (None, ["--frobnicate"], 255, "fatal   : Unknown option '-frobnicate'"),
        "bad_arch": (None, ["-arch=sm_91"], 255, "fatal   : Value 'sm_91' is not defined for option 'gpu-name'"),
        "opt_level_word": (None, ["-Ox"], 255, "fatal   : 'x': expected a number"),
        "flag_with_value": (None, ["-v=1"], 255, "fatal   : no argument expected after '-v'"),
        "long_flag_with_value": (None, ["--verbose=1"], 255, "fatal   : no argument expected after '--verbose'"),
        "bad_bool": (None, ["--fmad=maybe"], 255, "fatal   : 'maybe': expected true or false"),
        "bad_maxrregcount": (None, ["-maxrregcount=abc"], 255, "fatal   : Invalid value 'abc' for option 'maxrregcount'"),
        "bad_split_compile": (None, ["--split-compile=x"], 255, "fatal   : 'x': expected a number"),
        "bad_load_cache": (None, ["-dlcm=wb"], 255, "error   : Invalid default cache modifier on load specified: wb"),
        "bad_store_cache": (None, ["-dscm=ca"], 255, "error   : Invalid default cache modifier on store specified: ca"),
        "bad_sanitize": (None, ["--sanitize=foo"], 255, "fatal   : Value 'foo' is not defined for option 'sanitize'"),
        "bad_minnctapersm": (None, ["--minnctapersm=x"], 255, "fatal   : 'x': expected a number"),
        "bad_sw": (None, ["-sw200428197=x"], 255, "fatal   : 'x': expected true or false"),
        "g_with_O3": (None, ["-g", "-O3"], 255, "fatal   : Optimized debugging not supported"),
        "missing_options_file": (None, ["--options-file", "@nosuch.opt"], 255,
                                 "fatal   : Could not open options file '{f}'"),
        "arch_redefined": (None, ["-arch=sm_80"], 255,
                           "warning : incompatible redefinition for option 'gpu-name', the last value of this option was used"),
        "maxntid_and_maxrregcount": (None, ["--maxntid=128", "-maxrregcount=40"], 0,
                                     "warning : Conflicting options -maxrregcount and -maxntid specified, ignoring -maxntid option"),
        "fmad_redefined": (None, ["--fmad=false", "--fmad=true"], 0,
                           "warning : incompatible redefinition for option 'fmad', the last value of this option was used"),
    }


def first_line(tool, args):
    p = subprocess.run([tool] + args, capture_output=True, timeout=120)
    text = (p.stderr + p.stdout).decode("latin-1")
    line = next((l for l in text.split("\n") if l.strip()), "")
    line = re.sub(r"^(ptxas-mini|ptxas) ?", "", line)
    return p.returncode, re.sub(r" \(column \d+\)$", "", line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mini", required=True)
    ap.add_argument("--ptxas")
    ap.add_argument("--base", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    base = open(a.base).read()
    basefile = os.path.join(a.work, "base.ptx")
    open(basefile, "w").write(base)
    bad = 0
    table = cases(base)
    for name, (text, extra, status, expect) in table.items():
        f = basefile
        if text is not None:
            f = os.path.join(a.work, name + ".ptx")
            open(f, "wb").write(text.encode("utf-8"))
        args = []
        for x in extra:
            if x == "@":
                f = a.work
                args.append(a.work)
            elif x == "@base":
                args.append(basefile)
            elif x.startswith("@"):
                f = os.path.join(a.work, x[1:])
                args.append(f)
            else:
                args.append(x)
        out = os.path.join(a.work, name + ".cubin")
        if not any(x.startswith("@") for x in extra):
            args.append(f)
        args = ["-arch=sm_90"] + args
        args += ["-o", out]
        want = (status, expect.replace("{f}", f))
        for tool, label in [(a.mini, "ptxas-mini")] + ([(a.ptxas, "ptxas")] if a.ptxas else []):
            got = first_line(tool, args)
            if got != want:
                bad += 1
                print(f"MISMATCH {name} ({label}): exit {got[0]}, '{got[1]}'\n"
                      f"                 expected exit {want[0]}, '{want[1]}'")
    print(f"{len(table)} cases, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

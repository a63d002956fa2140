# lit configuration for ptxas-mini's text tests (lit + FileCheck from Debian's llvm-19-tools).
#
# Substitutions: %ptxas-mini, %ori-opt, %sass-mc (the tools under test), %ptxas, %nvdisasm,
# %cuobjdump, %nvcc (NVIDIA's oracles), %python, FileCheck, not, split-file.
# Features: `ptxas`, `nvdisasm`, `cuobjdump`, `nvcc` when the oracle exists. A test that needs
# one says `REQUIRES: nvdisasm`; lit then reports it UNSUPPORTED (a counted, visible skip)
# where the oracle is missing. CI installs them all, so there they always run.
import os
import lit.formats

site = lit_config.params.get("site")
if not site:
    lit_config.fatal("run lit through ctest, or pass --param site=<build>/tests/lit/lit.site.cfg.py")
lit_config.load_config(config, site)

config.name = "ptxas-mini"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ptx", ".ori", ".sass", ".test", ".cu"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptxmini_obj_root, "tests", "lit-out")

tools = config.ptxmini_tools_dir
config.substitutions.append(("%ptxas-mini", os.path.join(tools, "ptxas-mini")))
config.substitutions.append(("%ori-opt", os.path.join(tools, "ori-opt")))
config.substitutions.append(("%sass-mc", os.path.join(tools, "sass-mc")))
config.substitutions.append(("%python", config.python))
# %no-opt-phases: the phases that switch off the optimizing middle of the phase table (every
# implemented phase with a minimum -O level of 1 numbered below AllocateRegisters, 101: the
# optimizer and the pre-allocation scheduler, 100), so a lowering test sees what instruction
# selection produced, in its order
# (`-knob DisablePhases=%no-opt-phases[,More]`). Read from --list-phases, so a
# phase that lands later is covered without editing this file.
def _optimizer_phases():
    import subprocess
    try:
        out = subprocess.run([os.path.join(tools, "ptxas-mini"), "--list-phases"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return []
    names = []
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 4 and parts[0].isdigit() and parts[2] == "implemented":
            if int(parts[0]) < 101 and parts[3] == "1":
                names.append(parts[1])
    return names
_opt = _optimizer_phases()
if not _opt:
    lit_config.fatal("could not read the optimizing phases from ptxas-mini --list-phases")
config.substitutions.append(("%no-opt-phases", ",".join(_opt)))
config.substitutions.append(("%srcroot", config.ptxmini_src_root))
for name in ["ptxas", "nvdisasm", "cuobjdump", "nvcc"]:
    path = getattr(config, name)
    if path and not path.endswith("-NOTFOUND") and os.path.exists(path):
        config.available_features.add(name)
        config.substitutions.append(("%" + name, path))
    else:
        lit_config.note("oracle '%s' not found: tests that REQUIRE it are UNSUPPORTED" % name)

config.environment["PATH"] = os.pathsep.join(
    [tools, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

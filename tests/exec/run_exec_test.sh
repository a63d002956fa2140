#!/bin/bash
# run_exec_test.sh MODE KERNEL_BASE WORKDIR BINDIR NVCC PTXAS
#   MODE: ptxas | ptxas-mini | gpu.  KERNEL_BASE: kernels/<name> (with .cu or .ptx, and .desc).
# Compiles the kernel to PTX (nvcc -arch=sm_90 -ptx, at test time), then to a cubin with the
# compiler under test, then runs exec-run and returns its status. Exit 77 (ctest SKIPPED)
# always comes with a printed reason.
set -u
mode=$1 base=$2 work=$3 bin=$4 nvcc=$5 ptxas=$6
mkdir -p "$work"
name=$(basename "$base")
ptx="$work/$name.ptx"
# kernels/<name>.arch: the target for both compilers (and nvcc's PTX) when not sm_90 (sm_90a
# for setmaxnreg, TMA, wgmma), one word.
arch=sm_90
[ -f "$base.arch" ] && arch=$(head -n 1 "$base.arch")
if [ -f "$base.ptx" ]; then
  cp "$base.ptx" "$ptx"
else
  if [ ! -x "$nvcc" ]; then echo "SKIPPED: nvcc not found ($nvcc), cannot build $name.cu"; exit 77; fi
  "$nvcc" -arch=$arch -ptx "$base.cu" -o "$ptx" || { echo "FAIL: nvcc failed on $base.cu"; exit 2; }
fi
cubin="$work/$name.cubin"
case "$mode" in
  ptxas|gpu)
    if [ ! -x "$ptxas" ]; then echo "SKIPPED: ptxas not found ($ptxas)"; exit 77; fi
    "$ptxas" -arch=$arch "$ptx" -o "$cubin" || { echo "FAIL: ptxas failed"; exit 2; } ;;
  ptxas-mini)
    rm -f "$cubin"
    # kernels/<name>.flags: extra ptxas-mini options (knobs that force a code path, e.g. a
    # small register limit so the allocator must spill), one line.
    # PTXMINI_EXEC_FLAGS (environment): more options for every kernel, e.g.
    # PTXMINI_EXEC_FLAGS='-knob RegAllocLimit=24 -knob ValidateIR=true' ctest -L exec runs the
    # whole suite with the allocator forced to spill.
    flags="${PTXMINI_EXEC_FLAGS:-}"
    [ -f "$base.flags" ] && flags="$flags $(head -n 1 "$base.flags")"
    if ! out=$("$bin/ptxas-mini" -arch=$arch $flags "$ptx" -o "$cubin" 2>&1) || [ ! -s "$cubin" ]; then
      # Only a construct the code generator declares unsupported is a skip; any other
      # failure (an internal error, a crash, a validation error) fails the test.
      if printf '%s' "$out" | grep -q "is not supported by ptxas-mini's code generator yet"; then
        echo "NOT RUN: ptxas-mini does not support a construct of $name.ptx yet"
        echo "ptxas-mini said: ${out:0:400}"
        exit 77
      fi
      echo "FAIL: ptxas-mini did not produce a cubin for $name.ptx"
      echo "ptxas-mini said: ${out:0:2000}"
      exit 1
    fi ;;
esac
gpuflag=""
[ "$mode" = gpu ] && gpuflag="--gpu"
"$bin/exec-run" --cubin "$cubin" --desc "$base.desc" $gpuflag --stats

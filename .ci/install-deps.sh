#!/usr/bin/env bash
# Installs everything ptxas-mini needs to build and test, from Debian's packages and PyPI only.
# Idempotent; safe to run on a fresh Debian 12 machine as root (or with sudo available).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

PKGS="cmake ninja-build g++ pkg-config python3 python3-pip default-jre-headless antlr4 \
  libantlr4-runtime-dev llvm-19-dev llvm-19-tools libspdlog-dev libgtest-dev libgmock-dev \
  libtbb-dev clang-19 libclang-rt-19-dev time"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# NVIDIA's disassemblers, the test oracles. PyPI has no 13.0.* build of either; 13.2.51 is the
# oldest 13.x published there, so that is what we pin (ptxas itself is 13.0.88 from the
# toolkit). Installed into a fixed folder that CMake searches.
ORACLES=/opt/ptxas-mini-oracles
if [ ! -x "$ORACLES/nvidia/cu13/bin/nvdisasm" ] || [ ! -x "$ORACLES/nvidia/cu13/bin/cuobjdump" ]; then
  $SUDO python3 -m pip install -q --disable-pip-version-check --target "$ORACLES" \
    nvidia-cuda-nvdisasm==13.2.51 nvidia-cuda-cuobjdump==13.2.51
fi

# Triton (PyPI), for the `triton` ctest: it generates the PTX of tutorial-shaped kernels (no GPU
# needed) and compiles them through Triton's own cubin stage with ptxas-mini as its ptxas.
# Measured on the 2-core VM: 21 s, about 1 GB (`pip install --target`, triton 3.9.0 has no
# dependencies). Pinned: a new Triton emits new PTX.
if [ ! -d "$ORACLES/triton/triton" ]; then
  $SUDO python3 -m pip install -q --disable-pip-version-check --target "$ORACLES/triton" \
    triton==3.9.0
fi

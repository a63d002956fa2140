#!/usr/bin/env bash
# Configures and builds ptxas-mini into ./build (Ninja, RelWithDebInfo, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -G Ninja -B build -S . -DPTXMINI_WERROR=ON >/dev/null
cmake --build build -j "$(nproc)"

#!/usr/bin/env bash
# Builds llama-server and the RPC worker (ggml-rpc-server) from the llama.cpp source that node-llama-cpp's
# npm package ships (llama/gitRelease.bundle), CPU only, without curl or OpenSSL. The result is cached outside
# the repository, keyed by the bundle's commit, so a machine builds it once (about 30 minutes on 2 cores).
# Prints the folder that holds the binaries on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
BUNDLE=node_modules/node-llama-cpp/llama/gitRelease.bundle
if [ ! -f "$BUNDLE" ]; then echo "node-llama-cpp is not installed: run npm install first." >&2; exit 1; fi
COMMIT=$(git bundle list-heads "$BUNDLE" | awk '$2=="HEAD"{print $1; exit}')
CACHE=${VAULT_AGENT_CACHE:-$HOME/.cache/vault-agent}
SRC="$CACHE/llama.cpp/$COMMIT"
OUT="$CACHE/llama-server/$COMMIT"
if [ -x "$OUT/bin/llama-server" ] && [ -x "$OUT/bin/ggml-rpc-server" -o -x "$OUT/bin/rpc-server" ]; then echo "$OUT/bin"; exit 0; fi
if [ ! -d "$SRC/.git" ]; then
  mkdir -p "$CACHE/llama.cpp"
  rm -rf "$SRC.tmp"
  git clone -q "$BUNDLE" "$SRC.tmp" && git -C "$SRC.tmp" checkout -q "$COMMIT" && mv "$SRC.tmp" "$SRC"
fi
BUILD="$CACHE/llama-server/$COMMIT.build"
JOBS=${JOBS:-$(nproc)}
cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_RPC=ON -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=ON -DLLAMA_BUILD_SERVER=ON -DGGML_NATIVE=OFF \
  -DBUILD_SHARED_LIBS=OFF >&2
cmake --build "$BUILD" -j "$JOBS" --target llama-server ggml-rpc-server >&2 || cmake --build "$BUILD" -j "$JOBS" --target llama-server rpc-server >&2
mkdir -p "$OUT.tmp/bin"
for b in llama-server ggml-rpc-server rpc-server; do [ -x "$BUILD/bin/$b" ] && cp "$BUILD/bin/$b" "$OUT.tmp/bin/"; done
rm -rf "$OUT"; mv "$OUT.tmp" "$OUT"
echo "$OUT/bin"

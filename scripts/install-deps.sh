#!/usr/bin/env bash
# Installs the Debian packages seiche needs, by name, skipping the ones already there.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libglm-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/bin/sh
# Installs intenthook's binaries side by side from a release:
#
#   curl -fsSL https://github.com/intenthook/intenthook/releases/latest/download/install.sh | sh
#
# The archive for this system is checked against the release's checksums
# file before anything is installed. Settings, from the environment:
#   INTENTHOOK_VERSION      a release's version (1.2.0); default the latest
#   INTENTHOOK_BASE_URL     where the release's files are (a mirror, a local
#                           copy of dist/); default GitHub's release download
#   INTENTHOOK_INSTALL_DIR  where the binaries go; default ~/.local/bin
set -eu

repo=https://github.com/intenthook/intenthook
version=${INTENTHOOK_VERSION:-latest}
version=${version#v}
if [ -n "${INTENTHOOK_BASE_URL:-}" ]; then
  base=${INTENTHOOK_BASE_URL%/}
elif [ "$version" = latest ]; then
  base=$repo/releases/latest/download
else
  base=$repo/releases/download/v$version
fi
dir=${INTENTHOOK_INSTALL_DIR:-$HOME/.local/bin}

say() { printf 'intenthook install: %s\n' "$*" >&2; }
die() { printf 'intenthook install: error: %s\n' "$*" >&2; exit 1; }

case $(uname -s) in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) die "on Windows, run install.ps1 in PowerShell (see $repo/blob/main/docs/install.md)" ;;
  *) die "no release for $(uname -s); build from source (see $repo/blob/main/docs/install.md)" ;;
esac
case $(uname -m) in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no release for $(uname -m); build from source (see $repo/blob/main/docs/install.md)" ;;
esac

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "neither sha256sum nor shasum is installed: the download cannot be checked"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch "$base/checksums.txt" "$tmp/checksums.txt" || die "could not download $base/checksums.txt"
# The checksums file names the archive: intenthook_<version>_<os>_<arch>.tar.gz.
line=$(grep " intenthook_[^ ]*_${os}_${arch}\.tar\.gz\$" "$tmp/checksums.txt" | head -n 1)
[ -n "$line" ] || die "$base/checksums.txt lists no archive for $os/$arch"
want=${line%% *}
archive=${line##* }
fetch "$base/$archive" "$tmp/$archive" || die "could not download $base/$archive"
got=$(sha256 "$tmp/$archive")
[ "$got" = "$want" ] || die "$archive does not match checksums.txt (sha256 $got, want $want): nothing installed"

mkdir "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x"
for b in intenthook intenthook-full intenthook-mcp intenthook-export intenthook-attest intenthook-console; do
  [ -f "$tmp/x/$b" ] || die "$archive holds no $b: nothing installed"
done
mkdir -p "$dir"
# Each binary goes in under a temporary name and is renamed over the old
# one: a hook running during the install runs an old or a new binary whole.
for b in intenthook intenthook-full intenthook-mcp intenthook-export intenthook-attest intenthook-console; do
  cp "$tmp/x/$b" "$dir/.$b.new"
  chmod 755 "$dir/.$b.new"
  mv -f "$dir/.$b.new" "$dir/$b"
done
say "installed $("$dir/intenthook" version) in $dir"
case ":$PATH:" in
  *":$dir:"*) ;;
  *) say "$dir is not on your PATH: add it (agents run the bare intenthook), e.g. export PATH=\"$dir:\$PATH\"" ;;
esac

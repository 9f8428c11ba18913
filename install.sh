#!/usr/bin/env bash
# Installs monkeyshop for you: a release build with the Swift runtime linked in
# (--static-swift-stdlib), as PREFIX/bin/monkeyshop (PREFIX defaults to ~/.local), and the
# walkthrough library as PREFIX/share/monkeyshop/Walkthroughs. The shipped catalog is built into the
# binary, so the installed monkeyshop runs from any folder and without this repository.
#
#   ./install.sh                       build, then install into ~/.local
#   PREFIX=/usr/local ./install.sh     install elsewhere
#   ./install.sh --binary PATH         install an already-built monkeyshop (no build)
#   ./install.sh --scratch-path DIR    build in DIR (default .build/install)
#
# The build has a folder of its own, .build/install, so it and `swift build` in .build never rebuild
# each other's work (nor wait for each other's lock). Needs Swift 6.1 or later and ncurses
# (libncurses-dev) to build; the installed binary needs only the system's C libraries and ncurses.
set -euo pipefail
# Paths given on the command line (PREFIX, --binary, --scratch-path) are the caller's, relative to
# the folder install.sh was run from; the build runs in the repository.
caller=$PWD
absolute() {
  case "$1" in
    /*) printf '%s' "$1" ;;
    *) printf '%s/%s' "$caller" "$1" ;;
  esac
}
cd "$(dirname "$0")"

usage() {
  echo "usage: [PREFIX=DIR] ./install.sh [--binary PATH | --scratch-path DIR]" >&2
  exit 64
}

binary=""
scratch=.build/install
while [ $# -gt 0 ]; do
  case "$1" in
    --binary)
      [ $# -ge 2 ] || usage
      binary=$(absolute "$2")
      shift 2
      ;;
    --scratch-path)
      [ $# -ge 2 ] || usage
      scratch=$(absolute "$2")
      shift 2
      ;;
    -h | --help)
      # The comment at the top of this file.
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
      exit 0
      ;;
    *)
      echo "install.sh: unknown argument '$1'" >&2
      usage
      ;;
  esac
done

prefix=$(absolute "${PREFIX:-$HOME/.local}")
bin="$prefix/bin"
share="$prefix/share/monkeyshop"

build=(swift build -c release --static-swift-stdlib --scratch-path "$scratch")
if [ -z "$binary" ]; then
  echo "Building monkeyshop (release, Swift runtime linked in; a few minutes the first time)..."
  "${build[@]}" --product monkeyshop
  binary="$("${build[@]}" --show-bin-path)/monkeyshop"
fi
if [ ! -f "$binary" ] || [ ! -x "$binary" ]; then
  echo "install.sh: $binary is not an executable file (expected a built monkeyshop)" >&2
  exit 66
fi
if [ -d "$bin/monkeyshop" ]; then
  echo "install.sh: $bin/monkeyshop is a folder; nothing was installed" >&2
  exit 73
fi

if ! install -d "$bin" "$share/Walkthroughs" 2>/dev/null; then
  echo "install.sh: cannot make $bin and $share/Walkthroughs (can $prefix be written to?); nothing was installed" >&2
  exit 73
fi
# A new file renamed over the old one: a monkeyshop running from it goes on undisturbed.
install -m 755 "$binary" "$bin/.monkeyshop.$$"
mv -f "$bin/.monkeyshop.$$" "$bin/monkeyshop"
install -m 644 Walkthroughs/*.yaml "$share/Walkthroughs/"

echo "Installed $bin/monkeyshop (monkeyshop $("$bin/monkeyshop" --version)) and $share/Walkthroughs"
if command -v ldd >/dev/null 2>&1 && ldd "$bin/monkeyshop" | grep -q 'libswift\|libFoundation'; then
  echo "warning: $bin/monkeyshop needs the Swift runtime's libraries (ldd lists them): it was not built with --static-swift-stdlib" >&2
fi
case ":$PATH:" in
  *":$bin:"*)
    found=$(command -v monkeyshop || true)
    if [ "$found" != "$bin/monkeyshop" ]; then
      echo "warning: another monkeyshop comes first on your PATH: $found" >&2
    fi
    echo "Run it from any folder: monkeyshop"
    ;;
  *)
    # The line to add, quoted for the shell whatever the folder's name holds.
    echo "$bin is not on your PATH: add this line to ~/.bashrc (or your shell's profile), then run monkeyshop:"
    printf '  export PATH=%q:"$PATH"\n' "$bin"
    ;;
esac

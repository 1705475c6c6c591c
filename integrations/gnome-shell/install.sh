#!/usr/bin/env bash
# Installs the dosebar extension build that fits this machine's GNOME Shell for the
# current user: `gnome-shell --version` 42-44 gets the legacy build, 45-48 the ES-module
# one (both made by build.py). Run by scripts/install (`make install`) when gnome-shell
# is installed; on its own: integrations/gnome-shell/install.sh
#
# GNOME_SHELL_VERSION overrides what gnome-shell says (e.g. to install for another
# machine's shell); XDG_DATA_HOME is honoured.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
uuid=dosebar@dosebar.github.io
version=${GNOME_SHELL_VERSION:-$(gnome-shell --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -n1 || true)}
[ -n "$version" ] || { echo "gnome-extension: gnome-shell is not installed (or did not say its version)" >&2; exit 1; }
case ${version%%.*} in
    42|43|44) build=gnome42 ;;
    45|46|47|48) build=gnome45 ;;
    *) echo "gnome-extension: GNOME Shell $version is not supported (42-48 are)" >&2; exit 1 ;;
esac
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
python3 "$here/build.py" "$out" >/dev/null
dest=${XDG_DATA_HOME:-$HOME/.local/share}/gnome-shell/extensions/$uuid
rm -rf "$dest"; mkdir -p "$dest"
# The build's directory, not its zip: it holds the compiled schemas, which the 45+ zip leaves
# to `gnome-extensions install` (build.py).
cp -r "$out/$build/$uuid/." "$dest/"
echo "installed the GNOME Shell $version build ($build) in $dest"
echo "next: log out and in (Wayland), then: gnome-extensions enable $uuid"

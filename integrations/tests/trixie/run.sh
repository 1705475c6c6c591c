#!/usr/bin/env bash
# The real-client suite on Debian 13 "trixie": a root built from Debian's own packages
# (mmdebstrap, minbase, no recommends, the list in ./packages), dosebar installed into it,
# and integrations/tests/run-all.sh run inside it as test_gnome43.sh runs GNOME Shell: a
# private mount and pid namespace, /proc, /sys, /dev, /dev/pts, tmpfs on /dev/shm and /run,
# a system bus. Needs root (and the network the first time).
#
#   integrations/tests/trixie/run.sh                 # every test that applies there
#   integrations/tests/trixie/run.sh waybar gnome48  # some (names of test_*.sh)
#   integrations/tests/trixie/run.sh --selftest gnome48 waybar   # selftest.sh there instead
#
# The root is cached as a tarball, /var/tmp/dosebar-roots/trixie-clients-HASH.tar, HASH
# being that of the package list and the recipe: it is built again only when it is
# missing or the list changed (an older tarball is then removed).
#
# dosebar in the root: DOSEBAR_DEB=path/to/dosebar_*.deb is installed with apt
# (`apt-get install ./dosebar_*.deb`, which pulls what it Depends: on) and the tests run
# /usr/bin/dosebar; otherwise DOSEBAR names a binary, or one is built here with
# `scripts/swift-release` (static Swift runtime); it must link nothing of Swift's (the root
# has no toolchain), and goes to /usr/local/bin. The tests and the integrations they drive
# come from this checkout (copied into the root, with `git ls-files`).
#
# Environment: CI (true: a skip is a failure, as everywhere), ARTIFACTS (default
# integrations/tests/artifacts/trixie), DOSEBAR_ROOTS (the cache, default
# /var/tmp/dosebar-roots), DEBIAN_MIRROR, KEEP_ROOT=1 (keep the extracted root).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
say() { echo "trixie: $*" >&2; }
die() { echo "trixie: $*" >&2; exit 1; }
# What the run cannot do without: under CI a failure, elsewhere a loud skip (as lib.sh's require).
cannot() {
    if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then die "CI=true, so this cannot be skipped: $*"; fi
    echo "!!!!!!!! SKIPPED: the Debian 13 suite — $* !!!!!!!!" >&2; exit 0
}
[ "$(id -u)" = 0 ] || cannot "needs root (mmdebstrap --mode=root, chroot, mount namespaces)"
for tool in mmdebstrap unshare chroot tar sha256sum git; do
    command -v $tool >/dev/null || cannot "$tool is not installed (scripts/setup installs it)"
done

suite=trixie
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${DOSEBAR_ROOTS:-/var/tmp/dosebar-roots}
packages=$(sed 's/#.*//' "$here/packages" | tr -s ' \t' '\n\n' | grep . | sort -u | paste -sd, -)
# Everything that decides what is in the root goes into its name.
opts=(--variant=minbase --mode=root --aptopt='APT::Install-Recommends "false"' --skip=cleanup/apt/lists)
key=$(printf '%s\n' "$suite" "$mirror" "${opts[@]}" "$packages" | sha256sum | cut -c1-12)
tarball=$cache/$suite-clients-$key.tar
t_start=$(date +%s)

# --- the root, built once per package list
if [ ! -s "$tarball" ]; then
    mkdir -p "$cache"
    say "building the $suite root ($(tr ',' '\n' <<<"$packages" | wc -l) packages) into $tarball"
    t0=$(date +%s)
    part=$cache/.$suite-clients-$key.$$.tar   # two runs at once build apart
    mmdebstrap "${opts[@]}" --format=tar --include="$packages" "$suite" "$part" "$mirror" \
        >"$cache/$suite-clients-$key.log" 2>&1 || {
        tail -n 20 "$cache/$suite-clients-$key.log" >&2; rm -f "$part"; die "mmdebstrap failed"; }
    mv "$part" "$tarball"
    for old in "$cache/$suite"-clients-*.tar; do [ "$old" = "$tarball" ] || rm -f "$old"; done
    say "root built in $(( $(date +%s) - t0 )) s ($(du -h "$tarball" | cut -f1))"
else
    say "root from the cache: $tarball"
fi

# --- dosebar: the .deb, else a binary that needs no Swift toolchain
deb=${DOSEBAR_DEB:-}
bin=
if [ -n "$deb" ]; then
    [ -f "$deb" ] || die "DOSEBAR_DEB=$deb: no such file"
    deb=$(readlink -f "$deb")
else
    if [ -n "${DOSEBAR:-}" ]; then
        bin=$(readlink -f "$(command -v "$DOSEBAR" || echo "$DOSEBAR")")
    else
        say "building dosebar (scripts/swift-release)"
        (cd "$repo" && scripts/swift-release --product dosebar >&2)
        bin=$(cd "$repo" && scripts/swift-release --show-bin-path)/dosebar
    fi
    [ -x "$bin" ] || die "no dosebar binary at $bin"
    if ldd "$bin" 2>/dev/null | grep -q 'libswift\|libFoundation\|libdispatch'; then
        die "$bin links Swift's runtime (build it with --static-swift-stdlib): the root has no toolchain"
    fi
fi

artifacts=${ARTIFACTS:-$repo/integrations/tests/artifacts/trixie}
mkdir -p "$artifacts"; artifacts=$(cd "$artifacts" && pwd)
work=$(mktemp -d /var/tmp/dosebar-trixie.XXXXXX)
root=$work/root
cleanup() {
    # The namespace's mounts ended with it; nothing is mounted here any more.
    if [ "${KEEP_ROOT:-0}" = 1 ]; then say "kept $root"; else rm -rf --one-file-system "$work"; fi
}
trap cleanup EXIT
t0=$(date +%s)
mkdir -p "$root"
tar -C "$root" -xf "$tarball"
say "root extracted in $(( $(date +%s) - t0 )) s"

# The checkout's files (not its build products) go to /opt/dosebar in the root.
mkdir -p "$root/opt/dosebar" "$root/artifacts"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | grep -zv '^integrations/tests/artifacts/' |
    tar --null -T - -cf -) | tar -C "$root/opt/dosebar" -xf -
if [ -n "$deb" ]; then
    cp "$deb" "$root/tmp/"
    dosebar_in_root=/usr/bin/dosebar
else
    install -m 755 "$bin" "$root/usr/local/bin/dosebar"
    dosebar_in_root=/usr/local/bin/dosebar
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# The host's own certificate authorities (a proxy's, for pip) are trusted in the root too.
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
dbus-uuidgen >"$root/etc/machine-id" 2>/dev/null || cat /proc/sys/kernel/random/uuid | tr -d - >"$root/etc/machine-id"

# What runs inside: the system bus, the .deb, then the suite.
cat >"$root/opt/dosebar-run.sh" <<EOF
set -u
export DEBIAN_FRONTEND=noninteractive
mkdir -p /run/dbus /run/user && dbus-daemon --system --fork
update-ca-certificates >/dev/null 2>&1
if [ -n "$deb" ]; then
    apt-get install -y -q "/tmp/$(basename "${deb:-x}")" >/artifacts/apt-install.log 2>&1 || {
        echo "apt-get install of the .deb failed:"; tail -n 15 /artifacts/apt-install.log; exit 1; }
    echo "installed $(basename "${deb:-x}") with apt"
fi
command -v dosebar >/dev/null || { echo "no dosebar on PATH in the root"; exit 1; }
echo "dosebar: \$(command -v dosebar), Debian \$(cat /etc/debian_version)"
cd /opt/dosebar
runner=integrations/tests/run-all.sh
if [ "\${1:-}" = --selftest ]; then runner=integrations/tests/selftest.sh; shift; fi
exec env DOSEBAR=$dosebar_in_root DOSEBAR_REQUIRE_BINARY=1 ARTIFACTS=/artifacts \
    "\$runner" "\$@"
EOF
cat >"$work/namespace.sh" <<EOF
set -e
R=$root
# The root a mount point of its own: an \`unshare --propagation private\` inside it (the
# GNOME tests) changes the propagation of its /, which must then be a mount.
mount --bind \$R \$R
mount --bind "$artifacts" \$R/artifacts
mount -t proc proc \$R/proc
mount --rbind /sys \$R/sys
mount --rbind /dev \$R/dev
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts \$R/dev/pts
mount --bind \$R/dev/pts/ptmx \$R/dev/ptmx
mount -t tmpfs -o mode=1777 tmpfs \$R/dev/shm
mount -t tmpfs -o mode=755 tmpfs \$R/run
set +e
chroot \$R /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    HOME=/root LANG=C.UTF-8 TERM=xterm CI="${CI:-}" IT_TEST_TIMEOUT="${IT_TEST_TIMEOUT:-300}" KEEP_WORK="${KEEP_WORK:-0}" \
    http_proxy="${http_proxy:-}" https_proxy="${https_proxy:-}" no_proxy="${no_proxy:-}" \
    bash /opt/dosebar-run.sh "\$@"
EOF
t0=$(date +%s)
set +e
unshare --mount --propagation private --pid --fork --kill-child bash "$work/namespace.sh" "$@" 2>&1 |
    tee "$artifacts/run.log"
rc=${PIPESTATUS[0]}
set -e
say "suite in the root: $(( $(date +%s) - t0 )) s; in all $(( $(date +%s) - t_start )) s; artifacts in $artifacts"
exit "$rc"

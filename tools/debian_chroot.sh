# A fresh minimal Debian system in a folder, for testing the course on releases other than the
# machine's own (.ci/fresh_debian, tools/arm64/check). Sourced, not run; needs root.
#
#   debian_mirror                 the Debian mirror of this machine's apt sources, or status 1
#   make_debian_chroot REL DIR    debootstrap --variant=minbase REL into DIR, with /proc, /sys and
#                                 /dev mounted and the network set up; removed again at exit
#   registry_answers MIRROR REL   status 0 when the mirror serves REL's release file

debian_mirror() {
    local mirror
    mirror=$(grep -hs -m1 -E '^URIs: .*/debian/?$' /etc/apt/sources.list.d/*.sources | awk '{print $2}')
    [ -n "$mirror" ] || mirror=$(grep -hs -m1 -E '^deb .*/debian/? ' /etc/apt/sources.list | awk '{print $2}')
    [ -n "$mirror" ] && printf '%s\n' "${mirror%/}"
}

registry_answers() {
    python3 - "$1/dists/$2/InRelease" <<'PROBE'
import sys, urllib.request
urllib.request.urlopen(sys.argv[1], timeout=60).read(1)
PROBE
}

DEBIAN_CHROOTS=()
remove_debian_chroots() {
    local dir mount
    for dir in "${DEBIAN_CHROOTS[@]}"; do
        for mount in dev/pts dev sys proc; do umount -l "$dir/$mount" 2> /dev/null || true; done
        rm -rf --one-file-system "$dir"
    done
}
trap remove_debian_chroots EXIT
# Stopped (CI stops a fresh system when another stage fails): exit, so that the EXIT trap runs.
trap 'exit 143' TERM INT

make_debian_chroot() {
    local release=$1 dir=$2 mirror mount
    mirror=$(debian_mirror) || { echo "this machine's apt sources name no Debian mirror" >&2; return 1; }
    command -v debootstrap > /dev/null || apt-get install -y -qq debootstrap > /dev/null
    DEBIAN_CHROOTS+=("$dir")
    debootstrap --variant=minbase "$release" "$dir" "$mirror" > "$dir.log" 2>&1 \
        || { tail -n 20 "$dir.log" >&2; rm -f "$dir.log"; return 1; }
    rm -f "$dir.log"
    for mount in proc sys dev dev/pts; do mount --bind "/$mount" "$dir/$mount"; done
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    # The mirror CI reaches may be a frozen snapshot whose release files are past their date.
    echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99course-snapshot-mirror"
}

#!/bin/sh
# deploy/image/build.sh [--arch arm64|armel] [--deb PACKAGE.deb] [--out FILE.img]
#                       [--hostname NAME] [--size MiB] [--token TOKEN] [--sim] [--cache DIR]
#
# Builds an SD card image for a Raspberry Pi that boots into tridboard
# (docs/deploy.md, "A card image"): Debian bookworm from Debian's own
# packages (mmdebstrap; nothing is downloaded from anywhere else), the
# tridboard package installed and enabled, I2C on, a host name of its own,
# and nothing else running that the set does not need (systemd, udev,
# journald, networkd with DHCP on Ethernet, wpa_supplicant for Wi-Fi,
# tridboard, which announces itself by mDNS (package announce: no avahi);
# with no Wi-Fi known, hostapd for the set's own access point).
#
#   arm64  Raspberry Pi 3, 4, 400, Zero 2 W, CM3/CM4: Debian's linux-image-arm64
#   armel  Raspberry Pi 1, Zero, Zero W (ARMv6): Debian's linux-image-rpi
#          (Debian's armhf needs ARMv7, which these boards lack; the armel
#          port runs on them, as raspi.debian.net's images do)
#
# The boot partition holds the Raspberry Pi's firmware and the kernel as
# Debian's raspi-firmware package puts them in /boot/firmware (the
# Raspberry Pi archive, where Raspberry Pi OS's own firmware and kernel
# come from, is not used). The image is written without loop devices or
# mounts: the root file system from a directory (mkfs.ext4 -d), the boot
# file system with mtools (mkfs.vfat, mcopy), the partition table with
# sfdisk on the file, the file systems put in place with dd.
#
# --token sets the command token of the pages and MQTT (by default the
# package makes a random one, in /etc/tridboard/tridboard.env, at the first
# install). --sim makes the service run the simulated set (for a test under qemu,
# which has no I2C bus). --deb defaults to the newest dist/tridboard_*_ARCH.deb
# (deploy/build.sh makes it: ARCHS=arm64 deploy/build.sh).
#
# The time is bounded: Debian's packages are downloaded once into --cache
# (by default dist/cache/bookworm-ARCH; later builds take them from there,
# and only a changed package is fetched), and the kernel's initramfs is made
# once, at the end, with a small configuration (rootfs/initramfs.conf: only
# the modules a boot needs, klibc rather than busybox, zstd) instead of each
# time a package asks for it with every module of the kernel: on a foreign
# architecture mkinitramfs runs under qemu-user, where those runs took over
# an hour. Everything runs at the lowest CPU priority (nice 19). Each step
# prints its time.
#
# Needs: mmdebstrap, qemu-user-static with binfmt_misc (for a foreign
# architecture), e2fsprogs, dosfstools, mtools, fdisk (sfdisk). Run as root,
# or as a user with subordinate ids (mmdebstrap --mode=unshare).
# Exit status: 0 built, 1 a step failed, 2 bad usage.
set -eu

arch=arm64
deb=
out=
host=tridboard
size=
sim=
token=
cache=
mirror=${MIRROR:-http://deb.debian.org/debian}
suite=bookworm

usage() {
	sed -n '2,3p' "$0" | sed 's/^# //' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift ;;
	--deb) deb=$2; shift ;;
	--out) out=$2; shift ;;
	--hostname) host=$2; shift ;;
	--size) size=$2; shift ;;
	--sim) sim=1 ;;
	--token) token=$2; shift ;;
	--cache) cache=$2; shift ;;
	-h | --help) usage ;;
	*) usage ;;
	esac
	shift
done
case "$arch" in
arm64) kernel=linux-image-arm64 ;;
armel) kernel=linux-image-rpi ;;
*)
	echo "image/build.sh: --arch $arch: arm64 or armel" >&2
	exit 2
	;;
esac
if [ -n "$token" ] && ! printf '%s\n' "$token" | grep -Eq '^[A-Za-z0-9._~-]{16,}$'; then
	echo "image/build.sh: --token: 16 or more letters, digits, . _ ~ -" >&2
	exit 2
fi
if ! printf '%s\n' "$host" | grep -Eq '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'; then
	echo "image/build.sh: --hostname $host: lower-case letters, digits and inner hyphens, up to 63" >&2
	exit 2
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "$deb" ]; then
	pkgarch=$arch
	deb=$(ls -t "$root"/dist/tridboard_*_"$pkgarch".deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || {
		echo "image/build.sh: no dist/tridboard_*_$pkgarch.deb: build one with ARCHS=$pkgarch deploy/build.sh, or give --deb" >&2
		exit 2
	}
fi
[ -f "$deb" ] || {
	echo "image/build.sh: --deb $deb: no such file" >&2
	exit 2
}
deb=$(cd "$(dirname "$deb")" && pwd)/$(basename "$deb")
out=${out:-$root/dist/tridboard-$arch.img}
cache=${cache:-$root/dist/cache/$suite-$arch}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
# The lowest CPU priority for this script and all it starts: a build of
# many minutes must not slow down the machine's other work.
renice -n 19 -p $$ >/dev/null 2>&1 || true
for tool in mmdebstrap mkfs.ext4 mkfs.vfat mcopy sfdisk; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "image/build.sh: $tool is missing: apt install mmdebstrap e2fsprogs dosfstools mtools fdisk" >&2
		exit 2
	}
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tridboard-image.XXXXXX")
# IMAGE_KEEP_WORK=1 keeps the work directory (the root file system) to look into.
[ -n "${IMAGE_KEEP_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)
step() { echo "== $(($(date +%s) - start)) s: $*"; }

# The packages: the system (systemd as init, udev, kmod), the kernel and the
# Pi's firmware, the network (networkd is in systemd; wpa_supplicant for
# Wi-Fi and the Wi-Fi chips' firmware; hostapd for the access point, iw for the
# networks the setup page offers),
# i2c-tools, and tridboard's dependency adduser. No avahi: the daemon
# itself answers for HOST.local and announces _tridboard._tcp (package
# announce). No SSH server, no cron, no mail: the set needs none.
pkgs=systemd-sysv,systemd-resolved,udev,kmod,zstd,$kernel,raspi-firmware,firmware-brcm80211,wpasupplicant,hostapd,iw,i2c-tools,adduser,ca-certificates,systemd-timesyncd

step "mmdebstrap $suite $arch from $mirror"
mode=unshare
[ "$(id -u)" = 0 ] && mode=root
# As root: mmdebstrap's mounts (/proc, /dev in the new root) in a private
# mount namespace, never on the host's.
[ $mode = root ] && set -- unshare --mount --propagation private
# The package cache: in at the start (the essential packages' files are
# kept for it: --skip=essential/unlink), out again before setup.sh empties
# it. update-initramfs is diverted to a stand-in while the packages are
# installed (the kernel's and the triggers' runs are skipped); setup.sh puts
# it back and makes the initramfs once.
"$@" mmdebstrap --mode=$mode --variant=minbase --architectures="$arch" \
	--components="main non-free-firmware" --include="$pkgs" \
	--skip=essential/unlink,download/empty \
	--setup-hook='mkdir -p "$1/boot/firmware" "$1/var/cache/apt/archives"' \
	--setup-hook="sync-in '$cache' /var/cache/apt/archives/" \
	--essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --divert /usr/sbin/update-initramfs.tridboard --add /usr/sbin/update-initramfs && printf "#!/bin/sh\necho update-initramfs: deferred to the end of the image build\n" >"$1/usr/sbin/update-initramfs" && chmod 755 "$1/usr/sbin/update-initramfs"' \
	--customize-hook="sync-out /var/cache/apt/archives '$cache'" \
	--customize-hook='echo "== packages installed at $(date +%T)"' \
	--customize-hook="copy-in '$deb' /tmp" \
	--customize-hook="copy-in '$here/rootfs' /tmp" \
	--customize-hook="chroot \"\$1\" sh /tmp/rootfs/setup.sh '$host' '$(basename "$deb")' '$sim' '$token'" \
	"$suite" "$work/root" "$mirror"

# The file systems. The boot partition: 256 MiB of FAT32 (the firmware reads
# FAT) labelled RASPIFIRM; the root: ext4 labelled RASPIROOT, the used size
# plus room for the games (--size, or 512 MiB more than the files).
step "file systems"
bootmib=256
used=$(du -s -m "$work/root" | cut -f1)
rootmib=${size:-$((used + 512))}
mkfs.vfat -F 32 -n RASPIFIRM -C "$work/boot.img" $((bootmib * 1024)) >/dev/null
mcopy -s -i "$work/boot.img" "$work/root/boot/firmware/"* ::
rm -rf "$work/root/boot/firmware"/*
mkfs.ext4 -q -L RASPIROOT -d "$work/root" "$work/root.img" "${rootmib}M"

# The card: an MBR partition table (the Pi's boot ROM reads MBR), the boot
# partition at 4 MiB (type c, FAT32 LBA), the root right after it.
step "partition table"
total=$((4 + bootmib + rootmib))
rm -f "$out"
truncate -s "${total}M" "$out"
sfdisk --quiet "$out" <<SFDISK
label: dos
unit: sectors
start=8192, size=$((bootmib * 2048)), type=c
start=$(((4 + bootmib) * 2048)), size=$((rootmib * 2048)), type=83
SFDISK
dd if="$work/boot.img" of="$out" bs=1M seek=4 conv=notrunc,sparse status=none
dd if="$work/root.img" of="$out" bs=1M seek=$((4 + bootmib)) conv=notrunc,sparse status=none
step "done: $out ($total MiB; write it with: dd if=$(basename "$out") of=/dev/sdX bs=4M conv=fsync)"

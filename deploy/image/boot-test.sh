#!/bin/sh
# deploy/image/boot-test.sh [--arch arm64|armel] [--image FILE.img [--token TOKEN]]:
# builds the card image with the simulated set (build.sh --sim), or takes one
# built so (its command token read from it unless given), and boots it
# under qemu-system-aarch64 on the `virt` machine with Debian's arm64 kernel
# from the image's boot partition, as a Pi would boot it minus the
# firmware. With --arch armel: the 32-bit image under qemu-system-arm on
# the `raspi0` machine (a Pi Zero: its ARM1176 core, SD host and USB),
# with the image's own rpi kernel and the Pi Zero's device tree, the
# network through an emulated USB Ethernet adapter (usb-net). It checks,
# each against a deadline:
#   1. systemd reaches multi-user.target;
#   2. tridboard runs (on the simulated set: qemu has no I2C bus) and its
#      page answers through a forwarded port (hostfwd 127.0.0.1:PORT -> 8080);
#   3. only what the set needs runs (the running services, from
#      tridboard-boot-report.service on the console), nothing failed, and
#      tridboard announced itself by mDNS;
#   4. a move played through the page's command (POST .../command/move with
#      the command token) is in the game;
#   5. after a clean power-off (the power button, as a person would press
#      it) and a new boot, the game resumes with that move (arm64 only:
#      qemu's raspi0 has no power button).
# It prints the time of every step. Not part of `go test ./...`: it needs
# mmdebstrap, qemu-system-arm and mtools, a package for arm64 in dist/
# (ARCHS=arm64 deploy/build.sh), and takes minutes (docs/deploy.md).
# Exit status 0: all checks passed; 1: one failed (the console log is
# printed); 2: bad usage or a missing tool.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
img=
token=
arch=arm64
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift ;;
	--image) img=$2; shift ;;
	--token) token=$2; shift ;;
	*)
		echo "usage: $0 [--arch arm64|armel] [--image FILE.img [--token TOKEN]]" >&2
		exit 2
		;;
	esac
	shift
done
case "$arch" in
arm64) qemu=qemu-system-aarch64 ;;
armel) qemu=qemu-system-arm ;;
*)
	echo "boot-test.sh: --arch $arch: arm64 or armel" >&2
	exit 2
	;;
esac
for tool in $qemu mcopy debugfs curl python3; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "boot-test.sh: $tool is missing: apt install qemu-system-arm mtools e2fsprogs curl python3" >&2
		exit 2
	}
done

# The lowest CPU priority for this script, the build and qemu: the test
# takes minutes of emulation and must not slow down the machine's other work.
renice -n 19 -p $$ >/dev/null 2>&1 || true
work=$(mktemp -d "${TMPDIR:-/tmp}/tridboard-boot.XXXXXX")
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null || true
	[ -z "${BOOT_CONSOLE:-}" ] || cp "$work/console.log" "$BOOT_CONSOLE.${boots:-0}" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
start=$(date +%s)
last=$start
step() {
	now=$(date +%s)
	echo "== +$((now - last)) s (at $((now - start)) s): $*"
	last=$now
}
fail() {
	echo "boot-test.sh: FAIL: $*" >&2
	echo "---- console (last 60 lines)" >&2
	tail -n 60 "$work/console.log" >&2 || true
	exit 1
}

if [ -z "$img" ]; then
	token=$(od -An -N18 -tx1 /dev/urandom | tr -d ' \n')
	img=$work/tridboard.img
	sh "$here/build.sh" --arch "$arch" --sim --token "$token" --out "$img" --hostname tridboard
	step "image built"
fi

# The command token the package made, from the root file system (the
# second partition, after the 256 MiB boot partition at 4 MiB), read
# without mounting it.
if [ -z "$token" ]; then
	dd if="$img" of="$work/root.img" bs=1M skip=260 status=none
	token=$(debugfs -R "cat /etc/tridboard/tridboard.env" "$work/root.img" 2>/dev/null |
		sed -n 's/^TRIDBOARD_MQTT_COMMAND_TOKEN=//p')
	rm -f "$work/root.img"
	[ -n "$token" ] || fail "no command token in the image's /etc/tridboard/tridboard.env (a card makes its own at its first boot: build the image with --token T and give this test --token T)"
fi

# Debian's kernel and initramfs, as raspi-firmware put them on the boot
# partition (at 4 MiB).
# raspi-firmware names them after the kernel's version (vmlinuz-6.1.0-...).
files=$(mdir -b -i "$img@@4M" :: 2>/dev/null | sed 's|^::/||')
vmlinuz=$(printf '%s\n' "$files" | grep '^vmlinuz' | sort -V | tail -n 1)
initrd=$(printf '%s\n' "$files" | grep '^initrd.img' | sort -V | tail -n 1)
[ -n "$vmlinuz" ] && [ -n "$initrd" ] || fail "no vmlinuz-* or initrd.img-* on the boot partition"
if [ "$arch" = armel ]; then
	# The Pi Zero's device tree, as raspi-firmware put it there.
	printf '%s\n' "$files" | grep -qx 'bcm2835-rpi-zero.dtb' || fail "no bcm2835-rpi-zero.dtb on the boot partition"
	mcopy -n -i "$img@@4M" "::bcm2835-rpi-zero.dtb" "$work/board.dtb" || fail "bcm2835-rpi-zero.dtb: cannot read it"
fi
mcopy -n -i "$img@@4M" "::$vmlinuz" "$work/vmlinuz" || fail "$vmlinuz: cannot read it from the boot partition"
mcopy -n -i "$img@@4M" "::$initrd" "$work/initrd.img" || fail "$initrd: cannot read it from the boot partition"
# A copy to boot: a given image stays as it was built.
disk=$img
if [ "$img" != "$work/tridboard.img" ] || [ "$arch" = armel ]; then
	disk=$work/disk.img
	cp "$img" "$disk"
fi
if [ "$arch" = armel ]; then
	# qemu's SD card is a power of two in size.
	size=$(stat -c %s "$disk") sd=$((1024 * 1024 * 1024))
	while [ "$sd" -lt "$size" ]; do sd=$((sd * 2)); done
	truncate -s "$sd" "$disk"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port
board=tridboard

# No login prompt on the serial console (systemd.mask=): systemd stops
# printing its status lines, "Reached target" among them, while a getty
# holds the console. Devices get 15 minutes to appear rather than 90 s:
# on a loaded machine udev under emulation can take longer.
boot() {
	# BOOT_CONSOLE=FILE keeps each boot's console log (FILE.1, FILE.2).
	boots=$((${boots:-0} + 1))
	[ -z "${BOOT_CONSOLE:-}" ] || [ "$boots" = 1 ] || cp "$work/console.log" "$BOOT_CONSOLE.$((boots - 1))"
	: >"$work/console.log"
	cmdline="root=LABEL=RASPIROOT rw console=ttyAMA0 systemd.show_status=1 systemd.mask=serial-getty@ttyAMA0.service systemd.default_device_timeout_sec=900"
	net="user,id=net0,hostfwd=tcp:127.0.0.1:$port-:8080"
	case "$arch" in
	arm64)
		set -- qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 1024 \
			-kernel "$work/vmlinuz" -initrd "$work/initrd.img" -append "$cmdline" \
			-drive "file=$disk,if=virtio,format=raw" \
			-netdev "$net" -device virtio-net-pci,netdev=net0
		;;
	armel)
		# qemu 7.2's raspi0 lacks the SoC's power management block, whose
		# driver (bcm2835-pm) would stop the kernel with a fault: not
		# started. A Pi has it.
		set -- qemu-system-arm -M raspi0 \
			-kernel "$work/vmlinuz" -initrd "$work/initrd.img" -dtb "$work/board.dtb" \
			-append "$cmdline initcall_blacklist=bcm2835_pm_driver_init" \
			-drive "file=$disk,if=sd,format=raw" \
			-netdev "$net" -device usb-net,netdev=net0
		;;
	esac
	"$@" -nographic -monitor "unix:$work/monitor.sock,server,nowait" \
		-serial "file:$work/console.log" >/dev/null 2>&1 &
	qpid=$!
}

# wait_for SECONDS WHAT COMMAND...: runs COMMAND every 2 s until it succeeds.
wait_for() {
	limit=$1 what=$2
	shift 2
	deadline=$(($(date +%s) + limit))
	until "$@" >/dev/null 2>&1; do
		kill -0 "$qpid" 2>/dev/null || fail "$what: qemu exited"
		[ "$(date +%s)" -lt "$deadline" ] || fail "$what: not within $limit s"
		sleep 2
	done
}
# The boot's end: systemd's "Reached target" line, or the boot report's
# first line (it waits for the end of the boot; once it writes to the
# console, systemd may print no more status lines).
reached() { grep -q -e "Reached target.*Multi-User System" -e "tridboard-boot-report: begin" "$work/console.log"; }
page() { curl -fsS -m 10 "$url/boards/$board" | grep -q '<html'; }
game_has() { curl -fsS -m 10 "$url/api/boards/$board" | grep -q "$1"; }

boot
step "qemu started (port $port)"
wait_for "${BOOT_TIMEOUT:-900}" "multi-user.target" reached
step "systemd reached multi-user.target"
wait_for 300 "the page" page
step "the page answers at $url/boards/$board"

# What runs in the guest (tridboard-boot-report.service, in --sim images,
# prints it on the console once the boot has finished): only what the set
# needs, nothing failed, and tridboard announced itself by mDNS.
report() { grep -q "tridboard-boot-report: end" "$work/console.log"; }
wait_for 600 "the boot report" report
# The lines as journald forwards them to the console: "[  37.5] sh[276]: running: ...".
sed -n '/tridboard-boot-report: begin/,/tridboard-boot-report: end/p' "$work/console.log" | tr -d '\r' |
	sed 's/^\[ *[0-9.]*\] [^ ]*: //' >"$work/report"
sed 's/^/  /' "$work/report"
# systemd-fsckd reports the boot's fsck and exits 30 s after it; dbus is
# logind's (the power button); getty@tty1 the screen's login.
needed="systemd-fsckd dbus getty@tty1 systemd-journald systemd-logind systemd-networkd systemd-resolved systemd-timesyncd systemd-udevd tridboard tridboard-hotspot wpa_supplicant@wlan0 tridboard-boot-report"
extra=$(sed -n 's/^running: \([^ ]*\)\.service .*/\1/p' "$work/report" | while read -r u; do
	case " $needed " in *" $u "*) ;; *) echo "$u" ;; esac
done)
[ -z "$extra" ] || fail "services running that the set does not need: $extra"
grep -q '^running: tridboard.service ' "$work/report" || fail "tridboard.service is not running"
! grep -q '^failed: ' "$work/report" || fail "failed units: $(grep '^failed: ' "$work/report" | tr '\n' ' ')"
grep -q '^mdns: .*msg=announced' "$work/report" || fail "tridboard did not announce itself (mDNS)"
step "only what the set needs runs ($(grep -c '^running: ' "$work/report") services), nothing failed, announced by mDNS"

reply=$(curl -sS -m 30 -H "Authorization: Bearer $token" -d '{"move":"Nc3N"}' "$url/boards/$board/command/move") ||
	fail "the move command: no answer"
echo "$reply" | grep -q '"status":"ok"' || fail "the move command: $reply"
wait_for 60 "the move in the game" game_has 'd1W-c3N'
step "a move played through the page: $reply"

# A clean power-off: the power button (systemd-logind powers off), pressed
# again every 30 s while the machine runs, as a person would (a press that
# comes while logind is still starting is lost).
press() {
	python3 - "$work/monitor.sock" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.recv(4096)  # the monitor's greeting: it reads commands from now on
s.sendall(b"system_powerdown\n")
s.recv(4096)  # its echo: the command was taken
s.close()
PY
}
if [ "$arch" = armel ]; then
	# qemu's raspi0 has no power button (nor a clean power-off from
	# outside): the reboot is tested on arm64, the same userland.
	echo "boot-test.sh: all checks of the armel image passed in $(($(date +%s) - start)) s (the reboot is tested on arm64)"
	exit 0
fi
limit=${BOOT_TIMEOUT:-900}
deadline=$(($(date +%s) + limit))
presses=0
while kill -0 "$qpid" 2>/dev/null; do
	[ "$(date +%s)" -lt "$deadline" ] || fail "power-off: qemu still running $limit s after the first press ($presses presses)"
	if [ $((($(date +%s) - deadline + limit) / 30)) -ge "$presses" ]; then
		press || true
		presses=$((presses + 1))
	fi
	sleep 2
done
qpid=
step "powered off ($presses presses of the power button)"

boot
wait_for "${BOOT_TIMEOUT:-900}" "multi-user.target after the reboot" reached
step "booted again"
wait_for 300 "the game resumed with its move" game_has 'd1W-c3N'
step "the game resumed with its move after the reboot"
echo "boot-test.sh: all checks passed in $(($(date +%s) - start)) s"

#!/bin/sh
# deploy/install.sh PACKAGE.deb [--yes]: install tridboard on a Raspberry Pi
# in one step (docs/deploy.md, "Installing in one step").
#
#   1. installs the package (the program, the service, the configuration,
#      every system's example, a command token for the pages);
#   2. asks before turning I2C on at 400 kHz (a line in the boot
#      configuration, then a reboot), unless it is on already;
#   3. says where the pages are and runs tridboard doctor when the bus is there.
#
# --yes answers yes (for a script or an image build). Exit status: 0 done, 1
# a step failed, 2 bad usage.
set -eu

usage() {
	echo "usage: sudo $0 tridboard_VERSION_ARCH.deb [--yes]" >&2
	exit 2
}

deb=""
yes=""
for a in "$@"; do
	case "$a" in
	--yes) yes=1 ;;
	-h | --help) usage ;;
	*.deb) deb=$a ;;
	*) usage ;;
	esac
done
[ -n "$deb" ] || usage
[ -f "$deb" ] || {
	echo "install.sh: $deb: no such file" >&2
	exit 1
}
if [ "$(id -u)" != 0 ]; then
	echo "install.sh: run it as root: sudo $0 $*" >&2
	exit 1
fi

ask() { # ask QUESTION: true for yes
	[ -n "$yes" ] && return 0
	printf '%s [Y/n] ' "$1"
	read -r answer || return 1
	case "$answer" in "" | [Yy]*) return 0 ;; esac
	return 1
}

echo "== installing $deb"
case "$deb" in /*) path=$deb ;; *) path=./$deb ;; esac
apt-get install -y "$path"

# The boot configuration: Bookworm and later, or older images.
boot=/boot/firmware/config.txt
[ -f "$boot" ] || boot=/boot/config.txt
reboot=""
if ls /dev/i2c-* >/dev/null 2>&1; then
	echo "== I2C is on"
elif [ ! -f "$boot" ]; then
	echo "== no $boot: not a Raspberry Pi OS image; turn I2C on as your system documents" >&2
elif ask "I2C is off. Turn it on at 400 kHz (two lines in $boot, then a reboot)?"; then
	grep -q '^dtparam=i2c_arm=on' "$boot" || echo 'dtparam=i2c_arm=on' >>"$boot"
	grep -q '^dtparam=i2c_arm_baudrate=' "$boot" || echo 'dtparam=i2c_arm_baudrate=400000' >>"$boot"
	grep -qx 'i2c-dev' /etc/modules 2>/dev/null || echo 'i2c-dev' >>/etc/modules
	reboot=1
	echo "== I2C turned on in $boot (active after the reboot)"
else
	echo "== I2C left off: the service waits for the bus (docs/deploy.md, \"Enabling I2C at 400 kHz\")"
fi

host=$(hostname)
token=$(sed -n 's/^TRIDBOARD_MQTT_COMMAND_TOKEN=//p' /etc/tridboard/tridboard.env 2>/dev/null | head -n 1)
echo "== the pages: http://$host.local:8080/ (the board, the wall, the overlay)"
[ -n "$token" ] && echo "   the command token for acting from a page: $token (in /etc/tridboard/tridboard.env)"
echo "   examples of every set's configuration: /usr/share/doc/tridboard/examples/"
if [ -n "$reboot" ]; then
	echo "== reboot now (sudo reboot); then check the set with: tridboard doctor --config /etc/tridboard/tridboard.yaml"
	exit 0
fi
if ls /dev/i2c-* >/dev/null 2>&1; then
	echo "== tridboard doctor (the set in its start position)"
	tridboard doctor --config /etc/tridboard/tridboard.yaml || {
		echo "   the doctor found problems: docs/hardware.md, \"From the box to the first game\", says what to try" >&2
		exit 1
	}
fi

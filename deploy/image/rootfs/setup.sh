#!/bin/sh
# setup.sh HOSTNAME PACKAGE.deb SIM TOKEN: the image's own settings, run by
# deploy/image/build.sh inside the new root file system (chroot) after
# Debian's packages are installed; its files are in /tmp/rootfs.
set -eu
host=$1 deb=$2 sim=$3 token=${4:-}
src=/tmp/rootfs

echo "$host" >/etc/hostname
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' "$host" >/etc/hosts
install -m 0644 "$src/fstab" /etc/fstab

# The network: DHCP on Ethernet and Wi-Fi (systemd-networkd, resolved);
# the Wi-Fi's network and password come from wpa_supplicant-wlan0.conf,
# which a file on the boot partition can provide (tridboard-wifi.service).
install -m 0644 "$src/10-wired.network" "$src/20-wireless.network" /etc/systemd/network/
install -m 0644 "$src/tridboard-wifi.service" /etc/systemd/system/
install -m 0755 "$src/tridboard-wifi" /usr/local/sbin/
systemctl enable systemd-networkd.service systemd-resolved.service tridboard-wifi.service
# ... or from the setup page, which the daemon spools into its state
# directory for tridboard-wifi.path.
install -m 0644 "$src/tridboard-wifi.path" "$src/tridboard-wifi-setup.service" /etc/systemd/system/
systemctl enable tridboard-wifi.path
systemctl disable wpa_supplicant.service 2>/dev/null || true
ln -sf /run/systemd/resolve/stub-resolv.conf /etc/resolv.conf
# With no Wi-Fi known, the set's own access point (for a phone).
if command -v hostapd >/dev/null; then
	install -m 0755 "$src/tridboard-hotspot" "$src/tridboard-scan" "$src/tridboard-portal" /usr/local/sbin/
	install -m 0644 "$src/tridboard-hotspot.service" "$src/tridboard-portal.socket" "$src/tridboard-portal.service" /etc/systemd/system/
	systemctl disable hostapd.service 2>/dev/null || true
	systemctl mask hostapd.service
	systemctl enable tridboard-hotspot.service
fi

# I2C: the i2c-dev module at boot (the firmware's config.txt lines are in
# /etc/default/raspi-firmware-custom, which raspi-firmware appends).
echo i2c-dev >/etc/modules-load.d/i2c-dev.conf
install -m 0644 "$src/raspi-firmware-custom" /etc/default/raspi-firmware-custom
# The kernel's command line: the root file system by its label, the
# console on the Pi 3's and 4's serial port and the screen. (Written here,
# after raspi-firmware is installed: a file there before would be a
# conffile dpkg asks about, and the build has nobody to answer.)
printf '\n# deploy/image/build.sh\nROOTPART=LABEL=RASPIROOT\nCONSOLES="ttyS1,115200 tty0"\n' >>/etc/default/raspi-firmware
# The initramfs, made once here (build.sh deferred update-initramfs while
# the packages were installed) with the image's small configuration.
install -m 0644 "$src/initramfs.conf" /etc/initramfs-tools/conf.d/tridboard.conf
install -m 0755 "$src/initramfs-hook" /etc/initramfs-tools/hooks/tridboard
rm -f /usr/sbin/update-initramfs
dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs
for k in /boot/vmlinuz-*; do
	t0=$(date +%s)
	update-initramfs -c -k "${k#/boot/vmlinuz-}"
	echo "== initramfs for ${k#/boot/vmlinuz-}: $(($(date +%s) - t0)) s, $(du -k "/boot/initrd.img-${k#/boot/vmlinuz-}" | cut -f1) KiB"
done
# Regenerate config.txt and cmdline.txt with it, and copy the kernel.
hook=/etc/kernel/postinst.d/z50-raspi-firmware
[ -x "$hook" ] || {
	echo "setup.sh: $hook is missing: raspi-firmware did not install its kernel hook" >&2
	exit 1
}
for k in /boot/vmlinuz-*; do
	DEB_MAINT_PARAMS=configure "$hook" "${k#/boot/vmlinuz-}" "$k"
done

# A command token given to the build: the package keeps an existing one.
if [ -n "$token" ]; then
	mkdir -p /etc/tridboard
	(umask 077 && printf 'TRIDBOARD_MQTT_COMMAND_TOKEN=%s\n' "$token" >/etc/tridboard/tridboard.env)
fi
# tridboard: installed from its package (user, groups, command token, the
# service enabled by deb-systemd-helper).
apt-get install -y --no-install-recommends "/tmp/$deb"
# Each card its own command token: the one the package just made would be
# every card's; tridboard-token.service makes one at the first boot. A
# token given to the build is kept (the boot test reads it).
install -m 0755 "$src/tridboard-token" /usr/local/sbin/
install -m 0644 "$src/tridboard-token.service" /etc/systemd/system/
systemctl enable tridboard-token.service
[ -n "$token" ] || /usr/local/sbin/tridboard-token forget
if [ -n "$sim" ]; then
	# For a test under qemu, which has no I2C bus: the simulated set.
	mkdir -p /etc/systemd/system/tridboard.service.d
	printf '[Service]\nExecStart=\nExecStart=/usr/bin/tridboard run --sim --config /etc/tridboard/tridboard.yaml\n' \
		>/etc/systemd/system/tridboard.service.d/sim.conf
	# The boot test's eyes inside the guest (no login there): once the boot
	# has finished, the running services, the failed units and tridboard's
	# announcement on the serial console, between markers boot-test.sh reads.
	install -m 0644 "$src/tridboard-boot-report.service" /etc/systemd/system/
	systemctl enable tridboard-boot-report.service
fi

# Nothing else running that the set does not need: no unattended apt runs,
# no weekly file-system scrubbing, no daily copy of dpkg's database.
for t in apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer dpkg-db-backup.timer; do
	systemctl disable "$t" 2>/dev/null || true
	systemctl mask "$t" 2>/dev/null || true
done
# The journal on the card, bounded.
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=persistent\nSystemMaxUse=64M\n' >/etc/systemd/journald.conf.d/tridboard.conf

# No password for anybody: root is locked (a console login needs one set
# from another machine: docs/deploy.md).
passwd -l root >/dev/null
# A new machine id at the first boot.
: >/etc/machine-id
rm -f /var/lib/dbus/machine-id
apt-get clean
rm -rf /var/lib/apt/lists/* /tmp/rootfs "/tmp/$deb"

#!/bin/sh
# tridboard postinst: the system user, its device groups, the command token
# and the service. dpkg calls it as: postinst configure [OLD-VERSION]
# (OLD-VERSION empty on a first install), or abort-upgrade, abort-remove,
# abort-deconfigure after a failed step. The service is handled by
# deb-systemd-helper and deb-systemd-invoke as debhelper's
# dh_installsystemd does it: enabled on the first install, left as the
# administrator set it on upgrades, started only where systemd runs (not
# in the chroot an image is built in).
set -e

user=tridboard

if [ "$1" = configure ]; then
	# The system user and group that run the daemon (no login, no home of
	# its own: its files live in the state directory, /var/lib/tridboard).
	adduser --quiet --system --group --no-create-home \
		--home /var/lib/tridboard --shell /usr/sbin/nologin \
		--gecos "tridboard chess board daemon" "$user"

	# The device groups: on Raspberry Pi OS, i2c owns /dev/i2c-*, spi owns
	# /dev/spidev*, gpio owns /dev/gpiochip* and /dev/gpiomem. The unit
	# names them in SupplementaryGroups=, and systemd refuses to start a
	# unit whose group does not exist (status 216/GROUP), so a missing one
	# (plain Debian without i2c-tools) is created empty; such a system also
	# needs udev rules giving the device nodes to these groups
	# (docs/deploy.md). Membership lets `sudo -u tridboard tridboard scan`
	# reach the bus too.
	for g in i2c spi gpio; do
		getent group "$g" >/dev/null || addgroup --quiet --system "$g"
		id -nG "$user" | tr ' ' '\n' | grep -qx "$g" || adduser --quiet "$user" "$g"
	done

	# A command token for the pages' and MQTT's commands, made once: the
	# packaged configuration shows the pages to the LAN, where anybody may
	# watch but only who holds the token may act (new game, take back,
	# clock). Kept in the root-only environment file the unit reads; an
	# existing one is left alone, so an upgrade keeps it.
	env=/etc/tridboard/tridboard.env
	if [ ! -e "$env" ] || ! grep -q '^TRIDBOARD_MQTT_COMMAND_TOKEN=' "$env"; then
		token=$(od -An -N18 -tx1 /dev/urandom | tr -d ' \n')
		(
			umask 077
			printf 'TRIDBOARD_MQTT_COMMAND_TOKEN=%s\n' "$token" >>"$env"
		)
		chmod 0600 "$env"
		echo "tridboard: the pages' command token is in $env" >&2
	fi
fi

case "$1" in
configure | abort-upgrade | abort-deconfigure | abort-remove)
	# Removes only a mask that postrm set on removal.
	deb-systemd-helper unmask tridboard.service >/dev/null || true
	# was-enabled is true on a first install: enable then. On an upgrade it
	# keeps the administrator's choice (systemctl disable survives).
	if deb-systemd-helper --quiet was-enabled tridboard.service; then
		deb-systemd-helper enable tridboard.service >/dev/null || true
	else
		deb-systemd-helper update-state tridboard.service >/dev/null || true
	fi
	if [ -d /run/systemd/system ]; then
		systemctl --system daemon-reload >/dev/null || true
		if [ -n "$2" ]; then
			# An upgrade: the new binary, if the service was running. The
			# game in progress resumes from its journal.
			deb-systemd-invoke try-restart tridboard.service >/dev/null || true
		else
			deb-systemd-invoke start tridboard.service >/dev/null ||
				echo "tridboard: the service did not start; see: journalctl -u tridboard" >&2
		fi
	fi
	;;
esac

# The avahi announcement of older versions goes (preinst says why).
dpkg-maintscript-helper rm_conffile /etc/avahi/services/tridboard.service @VERSION@~ -- "$@"

exit 0

#!/bin/sh
# tridboard postinst: the system user, its device groups, and the service.
# dpkg calls it as: postinst configure [OLD-VERSION] (OLD-VERSION empty on a
# first install), or abort-upgrade/abort-remove/... after a failed step.
set -e

case "$1" in
configure) ;;
abort-remove | abort-deconfigure)
	# A removal failed after prerm stopped and disabled the service: the
	# package stays, so put the service back.
	if command -v systemctl >/dev/null 2>&1; then
		systemctl enable tridboard.service >/dev/null 2>&1 || true
	fi
	if [ -d /run/systemd/system ]; then
		systemctl start tridboard.service >/dev/null 2>&1 || true
	fi
	exit 0
	;;
*) exit 0 ;;
esac

user=tridboard

# The system user and group that run the daemon (no login, no home of its
# own: its files live in the state directory, /var/lib/tridboard).
if ! getent group "$user" >/dev/null; then
	if command -v addgroup >/dev/null 2>&1; then
		addgroup --quiet --system "$user"
	else
		groupadd --system "$user"
	fi
fi
if ! getent passwd "$user" >/dev/null; then
	if command -v adduser >/dev/null 2>&1; then
		adduser --quiet --system --ingroup "$user" --no-create-home \
			--home /var/lib/tridboard --shell /usr/sbin/nologin \
			--gecos "tridboard chess board daemon" "$user"
	else
		useradd --system --gid "$user" --no-create-home \
			--home-dir /var/lib/tridboard --shell /usr/sbin/nologin \
			--comment "tridboard chess board daemon" "$user"
	fi
fi

# The device groups: on Raspberry Pi OS, i2c owns /dev/i2c-*, spi owns
# /dev/spidev*, gpio owns /dev/gpiochip* and /dev/gpiomem. The unit names them
# in SupplementaryGroups=, and systemd refuses to start a unit whose group
# does not exist (status 216/GROUP), so a missing one (plain Debian or Ubuntu
# without i2c-tools) is created empty; such a system also needs udev rules
# giving the device nodes to these groups (docs/deploy.md). Membership lets
# `sudo -u tridboard tridboard scan` reach the bus too.
for g in i2c spi gpio; do
	if ! getent group "$g" >/dev/null; then
		if command -v addgroup >/dev/null 2>&1; then
			addgroup --quiet --system "$g"
		else
			groupadd --system "$g"
		fi
	fi
	if ! id -nG "$user" | tr ' ' '\n' | grep -qx "$g"; then
		usermod -a -G "$g" "$user"
	fi
done

# A command token for the pages' and MQTT's commands, made once: the
# packaged configuration shows the pages to the LAN, where anybody may watch
# but only who holds the token may act (new game, take back, clock). Kept in
# the root-only environment file the unit reads; an existing one is left
# alone.
env=/etc/tridboard/tridboard.env
if [ ! -e "$env" ] || ! grep -q '^TRIDBOARD_MQTT_COMMAND_TOKEN=' "$env"; then
	token=$(od -An -N18 -tx1 /dev/urandom | tr -d ' \n')
	umask 077
	printf 'TRIDBOARD_MQTT_COMMAND_TOKEN=%s\n' "$token" >>"$env"
	chmod 0600 "$env"
	echo "tridboard: the pages' command token is in $env" >&2
fi

# The service. Enabled on the first install only, so that an administrator's
# `systemctl disable tridboard` survives upgrades. `systemctl enable` works
# without a running systemd (it only makes symlinks), so an image built in a
# chroot boots with the service enabled; starting needs a running systemd.
if [ -z "$2" ] && command -v systemctl >/dev/null 2>&1; then
	systemctl enable tridboard.service >/dev/null 2>&1 ||
		echo "tridboard: could not enable tridboard.service; run: systemctl enable --now tridboard" >&2
fi
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
	if [ -z "$2" ]; then
		systemctl start tridboard.service ||
			echo "tridboard: the service did not start; see: journalctl -u tridboard" >&2
	else
		# An upgrade: run the new binary if the service was running.
		systemctl try-restart tridboard.service ||
			echo "tridboard: the service did not restart; see: journalctl -u tridboard" >&2
	fi
fi

exit 0

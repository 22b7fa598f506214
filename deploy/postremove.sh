#!/bin/sh
# tridboard postrm. dpkg calls it as: postrm remove | purge | upgrade
# NEW-VERSION | disappear | failed-upgrade | abort-install | abort-upgrade.
#   remove: the unit file is gone; systemd forgets it, and
#           deb-systemd-helper masks it so that its enablement does not
#           dangle (a reinstall unmasks it and keeps it enabled).
#   purge:  the enablement goes too, and the state (game journals, MQTT
#           outbox, broker store) in /var/lib/tridboard. dpkg itself
#           deletes the conffile /etc/tridboard/tridboard.yaml; files an
#           administrator added there (tridboard.env, certificates) stay,
#           and so do the tridboard user and groups (Debian keeps system
#           users, as files they owned may remain elsewhere).
# An upgrade touches nothing here: the state directory, the journals, the
# command token and the enablement all stay.
set -e

if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	systemctl --system daemon-reload >/dev/null || true
fi

if [ "$1" = remove ] && command -v deb-systemd-helper >/dev/null; then
	deb-systemd-helper mask tridboard.service >/dev/null || true
fi

if [ "$1" = purge ]; then
	if command -v deb-systemd-helper >/dev/null; then
		deb-systemd-helper purge tridboard.service >/dev/null || true
		deb-systemd-helper unmask tridboard.service >/dev/null || true
	fi
	rm -rf /var/lib/tridboard
	# Only if nothing of the administrator's is left in it.
	rmdir /etc/tridboard 2>/dev/null || true
fi

# The avahi announcement of older versions goes (preinst says why).
dpkg-maintscript-helper rm_conffile /etc/avahi/services/tridboard.service @VERSION@~ -- "$@"

exit 0

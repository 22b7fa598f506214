#!/bin/sh
# tridboard postrm. dpkg calls it as: postrm remove | purge | upgrade NEW-VERSION
# | disappear | failed-upgrade | abort-install | abort-upgrade.
#   remove: the unit file is gone; systemd forgets it.
#   purge:  also the state (game journals, MQTT outbox) in /var/lib/tridboard.
#           dpkg itself deletes the conffile /etc/tridboard/tridboard.yaml; files
#           an administrator added there (tridboard.env, certificates) stay, and
#           so do the tridboard user and groups (Debian keeps system users, as
#           files they owned may remain elsewhere).
set -e

case "$1" in
remove | purge)
	if [ -d /run/systemd/system ]; then
		systemctl daemon-reload || true
		systemctl reset-failed tridboard.service >/dev/null 2>&1 || true
	fi
	;;
esac

if [ "$1" = purge ]; then
	rm -rf /var/lib/tridboard
	# Only if nothing of the administrator's is left in it.
	rmdir /etc/tridboard 2>/dev/null || true
fi

exit 0

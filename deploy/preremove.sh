#!/bin/sh
# tridboard prerm: stop the service when the package goes away.
# dpkg calls it as: prerm remove | upgrade NEW-VERSION | deconfigure |
# failed-upgrade. On upgrade the service keeps running; postinst restarts
# it on the new binary.
set -e

if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
	deb-systemd-invoke stop tridboard.service >/dev/null || true
fi

exit 0

#!/bin/sh
# tridboard prerm: stop and disable the service when the package goes away.
# dpkg calls it as: prerm remove | upgrade NEW-VERSION | deconfigure | failed-upgrade.
# On upgrade the service keeps running; postinst restarts it on the new binary.
set -e

case "$1" in
remove | deconfigure)
	if [ -d /run/systemd/system ]; then
		systemctl stop tridboard.service || true
	fi
	if command -v systemctl >/dev/null 2>&1; then
		systemctl disable tridboard.service >/dev/null 2>&1 || true
	fi
	;;
esac

exit 0

#!/bin/sh
# tridboard preinst. dpkg calls it as: preinst install [OLD-VERSION] |
# upgrade OLD-VERSION | abort-upgrade NEW-VERSION.
set -e

# Versions before this one shipped an avahi announcement
# (/etc/avahi/services/tridboard.service); the daemon now announces itself
# (http.announce), so an unchanged copy goes, and a changed one is kept as
# .dpkg-bak. The same call is in postinst and postrm.
dpkg-maintscript-helper rm_conffile /etc/avahi/services/tridboard.service @VERSION@~ -- "$@"

exit 0

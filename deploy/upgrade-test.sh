#!/bin/sh
# deploy/upgrade-test.sh: installs a tridboard package, gives it a game,
# keys, a token and a local configuration, then installs a newer version
# over it, removes it and installs it again, and purges it, in a Debian
# bookworm chroot for the build machine's architecture (mmdebstrap), checking
# after every step what Debian policy and docs/deploy.md promise:
#   install:  the tridboard user in the i2c, spi, gpio groups; a command
#             token (mode 0600); the service enabled.
#   upgrade:  the state directory (journals, keys) byte for byte, the token,
#             the administrator's configuration, the enablement; the new
#             binary reports the new version; the avahi announcement that
#             packages before 0.1.0~git826 shipped as a conffile is removed
#             (the first package is made as those were).
#   remove:   the state and the configuration stay; the unit is masked.
#   reinstall: unmasked and enabled again, the games still there.
#   purge:    the state directory and the configuration gone.
# It builds the two packages itself (deploy/build.sh with two versions).
# Exit status 0: every check passed; 1: one failed; 2: a missing tool.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v mmdebstrap >/dev/null 2>&1 || {
	echo "upgrade-test.sh: mmdebstrap is missing: apt install mmdebstrap" >&2
	exit 2
}
arch=$(dpkg --print-architecture)
work=$(mktemp -d "${TMPDIR:-/tmp}/tridboard-upgrade.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

for v in 0.1.0~upgrade1 0.1.0~upgrade2; do
	ARCHS=$arch sh deploy/build.sh "$v" >/dev/null
	mv "dist/tridboard_$v-1_$arch.deb" "$work/"
done
# The first version as the packages before 0.1.0~git826 were: the avahi
# announcement a conffile, no script removing it.
old=$work/old
dpkg-deb -R "$work/tridboard_0.1.0~upgrade1-1_$arch.deb" "$old"
mkdir -p "$old/etc/avahi/services"
printf '<service-group><name>tridboard</name><service><type>_tridboard._tcp</type><port>8080</port></service></service-group>\n' \
	>"$old/etc/avahi/services/tridboard.service"
echo /etc/avahi/services/tridboard.service >>"$old/DEBIAN/conffiles"
for s in preinst postinst postrm; do sed -i '/dpkg-maintscript-helper/d' "$old/DEBIAN/$s"; done
dpkg-deb --root-owner-group -b "$old" "$work/tridboard_0.1.0~upgrade1-1_$arch.deb" >/dev/null
rm -rf "$old"
echo "== $(($(date +%s) - start)) s: two packages built"

cat >"$work/check.sh" <<'CHECK'
set -eu
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { # check WHAT COMMAND...
	what=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$what"; else bad "$what"; fi
}
wants=/etc/systemd/system/multi-user.target.wants/tridboard.service
cd /tmp

echo "-- install 0.1.0~upgrade1"
dpkg -i tridboard_0.1.0~upgrade1-1_*.deb
check "user tridboard exists" getent passwd tridboard
for g in i2c spi gpio; do
	check "tridboard in group $g" sh -c "id -nG tridboard | tr ' ' '\n' | grep -qx $g"
done
check "a command token, mode 0600" sh -c 'grep -q "^TRIDBOARD_MQTT_COMMAND_TOKEN=[0-9a-f]\{36\}$" /etc/tridboard/tridboard.env && [ "$(stat -c %a /etc/tridboard/tridboard.env)" = 600 ]'
check "the service enabled" test -L "$wants"
check "the old avahi announcement installed" test -f /etc/avahi/services/tridboard.service

# A set that played: a game journal, the outbox, keys, a local edit.
install -d -o tridboard -g tridboard -m 0750 /var/lib/tridboard /var/lib/tridboard/games /var/lib/tridboard/keys
echo '{"seq":1,"move":"d1W-c3N"}' >/var/lib/tridboard/games/20261205-060000-000.journal
echo 20261205-060000-000 >/var/lib/tridboard/current
head -c 64 /dev/urandom >/var/lib/tridboard/keys/event.key
echo 'log_level: debug' >>/etc/tridboard/tridboard.yaml
(cd /var/lib/tridboard && find . -type f | sort | xargs sha256sum) >/tmp/state.before
cp /etc/tridboard/tridboard.env /tmp/env.before
cp /etc/tridboard/tridboard.yaml /tmp/yaml.before

echo "-- upgrade to 0.1.0~upgrade2"
dpkg -i tridboard_0.1.0~upgrade2-1_*.deb
check "the new version installed" sh -c 'dpkg-query -W -f "\${Version}" tridboard | grep -qx "0.1.0~upgrade2-1"'
check "the binary says the new version" sh -c 'tridboard version | grep -q "^tridboard 0.1.0~upgrade2 "'
check "the state directory byte for byte" sh -c '(cd /var/lib/tridboard && find . -type f | sort | xargs sha256sum) | cmp -s - /tmp/state.before'
check "the command token kept" cmp -s /etc/tridboard/tridboard.env /tmp/env.before
check "the local configuration kept" cmp -s /etc/tridboard/tridboard.yaml /tmp/yaml.before
check "still enabled" test -L "$wants"
check "the old avahi announcement removed (the daemon announces itself)" sh -c '! test -e /etc/avahi/services/tridboard.service && ! test -e /etc/avahi/services/tridboard.service.dpkg-bak'
check "dpkg no longer lists it as a conffile" sh -c '! dpkg-query -W -f "\${Conffiles}" tridboard | grep -q avahi'

echo "-- remove"
dpkg -r tridboard
check "the program gone" test ! -e /usr/bin/tridboard
check "the games kept" test -f /var/lib/tridboard/games/20261205-060000-000.journal
check "the configuration kept" cmp -s /etc/tridboard/tridboard.yaml /tmp/yaml.before
check "the unit masked" sh -c '[ "$(readlink /etc/systemd/system/tridboard.service)" = /dev/null ]'

echo "-- install again"
dpkg -i tridboard_0.1.0~upgrade2-1_*.deb
check "unmasked" test ! -e /etc/systemd/system/tridboard.service
check "enabled again" test -L "$wants"
check "the games still there" sh -c '(cd /var/lib/tridboard && find . -type f | sort | xargs sha256sum) | cmp -s - /tmp/state.before'

echo "-- purge"
dpkg -P tridboard
check "the state directory gone" test ! -e /var/lib/tridboard
check "the configuration gone" test ! -e /etc/tridboard/tridboard.yaml
check "no enablement left" test ! -e "$wants"
echo "$fails failed"
[ "$fails" = 0 ]
CHECK

mmdebstrap --quiet --variant=minbase --include=adduser,init-system-helpers \
	--customize-hook="copy-in $work/tridboard_0.1.0~upgrade1-1_$arch.deb $work/tridboard_0.1.0~upgrade2-1_$arch.deb $work/check.sh /tmp" \
	--customize-hook='chroot "$1" sh /tmp/check.sh' \
	bookworm /dev/null
echo "== $(($(date +%s) - start)) s: upgrade-test.sh passed"

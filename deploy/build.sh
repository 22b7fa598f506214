#!/bin/sh
# deploy/build.sh [VERSION]: cross-builds tridboard for the Raspberry Pi and
# packages it (docs/deploy.md).
#
#   dist/tridboard-linux-armv6   32-bit Raspberry Pi OS (GOARM=6: also runs on a Pi Zero / Zero W / 1)
#   dist/tridboard-linux-arm64   64-bit Raspberry Pi OS (Pi Zero 2 W, 3, 4, 5)
#   dist/tridboard_<debversion>_armhf.deb, dist/tridboard_<debversion>_arm64.deb
#   (ARCHS="armel" adds the package for Debian's armel, the Pi Zero's image)
#
# VERSION defaults to the repository's tags (`git describe --tags`); it is
# what `tridboard version` prints. The .deb version is derived from it (a
# Debian version must start with a digit and sort in build order); with no
# tag, from the newest release in deploy/debian/changelog:
#   v1.2.3                   -> 1.2.3
#   v1.2.3-rc1               -> 1.2.3~rc1           (a pre-release sorts before 1.2.3)
#   v1.2.3-4-gabc1234        -> 1.2.3+4.gabc1234    (commits after a tag sort after it)
#   v1.2.3-4-gabc1234-dirty  -> 1.2.3+4.gabc1234.dirty
#   abc1234 (no tag; the changelog's newest release is 0.1.0, 530 commits)
#                            -> 0.1.0~git530.gabc1234 (before the release 0.1.0)
#
# The binaries are static (CGO_ENABLED=0). -buildvcs=auto (over a
# GOFLAGS=-buildvcs=false) records the commit, which `tridboard version`
# prints after the version; a source tree without git builds all the same.
# The packages are made with dpkg-deb (package dpkg; nothing is downloaded):
# the control file is deploy/debian/control, the maintainer scripts
# deploy/preinstall.sh, postinstall.sh, preremove.sh and postremove.sh, the changelog
# deploy/debian/changelog (with an entry for the built version on top when
# it is not a release of its own), the copyright deploy/copyright, what
# lintian is told to accept deploy/debian/lintian-overrides. Check a
# package with deploy/lint-deb.sh.
#
# Environment:
#   ARCHS="armhf arm64"  the Debian architectures to build (armhf is the ARMv6 binary)
#   SKIP_DEB=1           builds the binaries only
#   DIST=dir             where to write them (default dist; deploy/lint-test.sh
#                        builds into a temporary one)
#   TRIDBOARD_MAINTAINER ("Name <address>") the package's Maintainer, by
#                        default git's user.name and user.email: whoever
#                        builds a package answers for it.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# release is the newest version in the changelog, without its revision.
release=$(sed -n '1s/^tridboard (\([^)-]*\)-[^)]*).*/\1/p' deploy/debian/changelog)
[ -n "$release" ] || {
	echo "deploy/build.sh: deploy/debian/changelog: no version on its first line" >&2
	exit 1
}

version=${1:-$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null ||
	echo "$release~git$(git rev-list --count HEAD 2>/dev/null || echo 0).g$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0)$(git diff --quiet HEAD 2>/dev/null || echo .dirty)")}

# debversion turns a version as git describe gives it into a Debian
# upstream version (see above).
debversion() {
	printf '%s\n' "${1#v}" | sed -E \
		-e 's/-dirty$/.dirty/' \
		-e 's/-([0-9]+)-g([0-9a-f]+)/+\1.g\2/' \
		-e 's/-/~/g' \
		-e 's/[^A-Za-z0-9.+~]/./g'
}
debver=$(debversion "$version")
if ! printf '%s\n' "$debver" | grep -Eq '^[0-9]+\.[0-9]+'; then
	echo "deploy/build.sh: version $version: a version starts with MAJOR.MINOR (tag releases vMAJOR.MINOR.PATCH)" >&2
	exit 2
fi
archs=${ARCHS:-armhf arm64}

dist=${DIST:-dist}
mkdir -p "$dist"
ldflags="-s -w -X main.version=$version"

echo "tridboard $version (package version $debver-1)"
for arch in $archs; do
	case "$arch" in
	# Raspberry Pi OS's armhf is ARMv6 + VFP; Debian's armel (the port for
	# a Pi Zero or Pi 1) gets the same static binary.
	armhf | armel) name=armv6 goarch=arm goarm=6 ;;
	arm64) name=arm64 goarch=arm64 goarm= ;;
	amd64) name=amd64 goarch=amd64 goarm= ;;
	*)
		echo "deploy/build.sh: ARCHS: $arch is not armhf, armel, arm64 or amd64" >&2
		exit 2
		;;
	esac
	out=$dist/tridboard-linux-$name
	echo "building $out (GOOS=linux GOARCH=$goarch${goarm:+ GOARM=$goarm})"
	CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm \
		go build -buildvcs=auto -trimpath -ldflags "$ldflags" -o "$out" ./cmd/tridboard
	bytes=$(wc -c <"$out")
	printf '  %-28s %9d bytes  %5.1f MiB\n' "$out" "$bytes" "$(echo "$bytes" | awk '{print $1/1048576}')"
done

if [ "${SKIP_DEB:-}" = 1 ]; then
	exit 0
fi
command -v dpkg-deb >/dev/null 2>&1 || {
	echo "deploy/build.sh: dpkg-deb makes the packages: apt install dpkg (or SKIP_DEB=1 for the binaries only)" >&2
	exit 2
}

if [ -z "${TRIDBOARD_MAINTAINER:-}" ]; then
	name=$(git config user.name 2>/dev/null || true)
	email=$(git config user.email 2>/dev/null || true)
	if [ -z "$name" ] || [ -z "$email" ]; then
		echo "deploy/build.sh: who maintains the package? Set TRIDBOARD_MAINTAINER=\"Name <address>\"" >&2
		echo "  (or git's user.name and user.email)." >&2
		exit 2
	fi
	TRIDBOARD_MAINTAINER="$name <$email>"
fi

# Every file's time is the commit's (reproducible packages), or now.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

# changelog writes the package's changelog: the built version's entry on
# top unless it is the newest release itself.
changelog() {
	if [ "$debver" != "$release" ]; then
		printf 'tridboard (%s-1) unstable; urgency=medium\n\n' "$debver"
		printf '  * Built from the repository at commit %s\n    (git describe: %s).\n\n' \
			"$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" "$version"
		printf ' -- %s  %s\n\n' "$TRIDBOARD_MAINTAINER" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")"
	fi
	cat deploy/debian/changelog
}

umask 022
for arch in $archs; do
	case "$arch" in armhf | armel) bin=$dist/tridboard-linux-armv6 ;; *) bin=$dist/tridboard-linux-$arch ;; esac
	deb=$dist/tridboard_$debver-1_$arch.deb
	tree=$dist/pkg-$arch
	rm -rf "$tree" "$dist"/tridboard_*_"$arch".deb
	echo "packaging $bin as $deb"
	doc=$tree/usr/share/doc/tridboard
	mkdir -p "$tree/DEBIAN" "$tree/usr/bin" "$tree/usr/lib/systemd/system" "$tree/etc/tridboard" "$doc/examples"
	install -m 0755 "$bin" "$tree/usr/bin/tridboard"
	install -m 0644 deploy/tridboard.service "$tree/usr/lib/systemd/system/"
	# A conffile: dpkg never overwrites local changes (it asks on upgrade).
	install -m 0644 deploy/tridboard.yaml "$tree/etc/tridboard/"
	# Every set's example configuration, and the one-step installer.
	for f in deploy/*.yaml; do
		[ "$f" = deploy/tridboard.yaml ] || install -m 0644 "$f" "$doc/examples/"
	done
	install -m 0755 deploy/install.sh "$doc/examples/"
	install -m 0644 docs/deploy.md docs/hardware.md deploy/copyright "$doc/"
	changelog | gzip -9n >"$doc/changelog.Debian.gz"
	chmod 0644 "$doc/changelog.Debian.gz"
	mkdir -p "$tree/usr/share/lintian/overrides"
	install -m 0644 deploy/debian/lintian-overrides "$tree/usr/share/lintian/overrides/tridboard"

	# The maintainer scripts, with the package's version where they name it.
	for m in preinstall:preinst postinstall:postinst preremove:prerm postremove:postrm; do
		sed "s/@VERSION@/$debver-1/g" "deploy/${m%%:*}.sh" >"$tree/DEBIAN/${m#*:}"
		chmod 0755 "$tree/DEBIAN/${m#*:}"
	done
	printf '%s\n' /etc/tridboard/tridboard.yaml >"$tree/DEBIAN/conffiles"
	(cd "$tree" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$tree/DEBIAN/md5sums"
	size=$(du -k -s --exclude=DEBIAN "$tree" | cut -f1)
	sed -e "s/@VERSION@/$debver-1/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
		-e "s|@MAINTAINER@|$TRIDBOARD_MAINTAINER|" deploy/debian/control >"$tree/DEBIAN/control"
	chmod 0644 "$tree/DEBIAN/control" "$tree/DEBIAN/conffiles" "$tree/DEBIAN/md5sums"
	find "$tree" -type d -exec chmod 0755 {} +
	find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	dpkg-deb --root-owner-group -Zxz --build "$tree" "$deb" >/dev/null
	rm -rf "$tree"
	printf '  %-44s %9d bytes\n' "$deb" "$(wc -c <"$deb")"
done

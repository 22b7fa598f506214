#!/bin/sh
# deploy/build.sh [VERSION]: cross-builds tridboard for the Raspberry Pi and
# packages it (docs/deploy.md).
#
#   dist/tridboard-linux-armv6   32-bit Raspberry Pi OS (GOARM=6: also runs on a Pi Zero / Zero W / 1)
#   dist/tridboard-linux-arm64   64-bit Raspberry Pi OS (Pi Zero 2 W, 3, 4, 5)
#   dist/tridboard_<debversion>_armhf.deb, dist/tridboard_<debversion>_arm64.deb
#
# VERSION defaults to `git describe --tags --always --dirty`; it is what
# `tridboard version` prints. The .deb version is derived from it (a Debian
# version must start with a digit and sort in build order).
#
# The binaries are static (CGO_ENABLED=0), so the packages depend on nothing.
# -buildvcs=auto (over a GOFLAGS=-buildvcs=false) records the commit, which
# `tridboard version` prints after the version; a source tree without git
# builds all the same.
# The packages are made by nfpm, run with `go run` at a pinned version so the
# tool stays out of the project's go.mod (the first run downloads and builds
# it, about a minute; later runs come from the Go build cache).
#
# Environment: NFPM overrides the nfpm command (for example an installed
# `nfpm`); SKIP_DEB=1 builds the binaries only; TRIDBOARD_MAINTAINER
# ("Name <address>") is the package's Maintainer, by default git's user.name
# and user.email: whoever builds a package answers for it.
set -eu

NFPM_VERSION=v2.45.2

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}

# debversion turns a git-describe version into a Debian upstream version:
#   v1.2.3                   -> 1.2.3
#   v1.2.3-rc1               -> 1.2.3~rc1          (a pre-release sorts before 1.2.3)
#   v1.2.3-4-gabc1234        -> 1.2.3+4.gabc1234   (commits after a tag sort after it)
#   v1.2.3-4-gabc1234-dirty  -> 1.2.3+4.gabc1234.dirty
#   abc1234-dirty (no tag)   -> 0.0.0+git<commits>.abc1234.dirty
debversion() {
	v=${1#v}
	# A version starts with MAJOR.MINOR; anything else (an abbreviated commit
	# hash when there is no tag, which may well start with a digit) is not.
	if ! printf '%s\n' "$v" | grep -Eq '^[0-9]+\.[0-9]+'; then
		v="0.0.0+git$(git rev-list --count HEAD 2>/dev/null || echo 0).$v"
	fi
	printf '%s\n' "$v" | sed -E \
		-e 's/-dirty$/.dirty/' \
		-e 's/-([0-9]+)-g([0-9a-f]+)/+\1.g\2/' \
		-e 's/-/~/g' \
		-e 's/[^A-Za-z0-9.+~]/./g'
}
debver=$(debversion "$version")

mkdir -p dist
ldflags="-s -w -X main.version=$version"

echo "tridboard $version (package version $debver)"
for target in armv6:arm:6 arm64:arm64:; do
	name=${target%%:*}
	rest=${target#*:}
	goarch=${rest%%:*}
	goarm=${rest#*:}
	out=dist/tridboard-linux-$name
	echo "building $out (GOOS=linux GOARCH=$goarch${goarm:+ GOARM=$goarm})"
	CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm \
		go build -buildvcs=auto -trimpath -ldflags "$ldflags" -o "$out" ./cmd/tridboard
done

echo
echo "binary sizes:"
for f in dist/tridboard-linux-armv6 dist/tridboard-linux-arm64; do
	bytes=$(wc -c <"$f")
	printf '  %-28s %9d bytes  %5.1f MiB\n' "$f" "$bytes" "$(echo "$bytes" | awk '{print $1/1048576}')"
done

if [ "${SKIP_DEB:-}" = 1 ]; then
	exit 0
fi

# The package is described once in deploy/nfpm.yaml; these variables fill it.
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
export TRIDBOARD_MAINTAINER
nfpm=${NFPM:-go run github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION}
echo
for target in armhf:armv6 arm64:arm64; do
	arch=${target%%:*}
	bin=dist/tridboard-linux-${target#*:}
	rm -f dist/tridboard_*_"$arch".deb
	echo "packaging $bin for $arch"
	TRIDBOARD_VERSION=$debver TRIDBOARD_ARCH=$arch TRIDBOARD_BINARY=$bin \
		$nfpm package --config deploy/nfpm.yaml --packager deb --target dist/
done

echo
echo "packages:"
for f in dist/tridboard_*.deb; do
	printf '  %-44s %9d bytes\n' "$f" "$(wc -c <"$f")"
done

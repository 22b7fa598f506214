#!/bin/sh
# deploy/lint-test.sh: builds the arm64 package from this tree
# (deploy/build.sh, into a temporary directory: dist/ is left as it is)
# and checks it with lintian (deploy/lint-deb.sh): no error allowed.
# deploy/arm-test.sh runs it last, so the README's test command checks
# the package CI would ship. About 1 min on an idle 2-core machine (the
# build from a cold cache, ~100 CPU-s, most of it); lintian itself ~10 s.
#
# Without lintian it says so and stops with 0, except under CI (CI set),
# where it fails: a package that was not checked proves nothing.
set -eu
cd "$(dirname "$0")/.."

if ! command -v lintian >/dev/null 2>&1; then
	if [ -n "${CI:-}" ]; then
		echo "lint-test: lintian is missing (apt-get install lintian)" >&2
		exit 1
	fi
	echo "lint-test: skipped: lintian is missing (apt-get install lintian)"
	exit 0
fi
dist=$(mktemp -d "${TMPDIR:-/tmp}/tridboard-lint.XXXXXX")
trap 'rm -rf "$dist"' EXIT
# Whoever runs it answers for the package; where git knows nobody (CI),
# the maintainers of the changelog's newest release.
if [ -z "${TRIDBOARD_MAINTAINER:-}" ] && ! git config user.email >/dev/null 2>&1; then
	TRIDBOARD_MAINTAINER=$(sed -n 's/^ -- \(.*>\)  .*/\1/p' deploy/debian/changelog | head -n 1)
	export TRIDBOARD_MAINTAINER
fi
echo "lint-test: building the arm64 package"
DIST=$dist ARCHS=arm64 deploy/build.sh >/dev/null
deploy/lint-deb.sh "$dist"/tridboard_*_arm64.deb

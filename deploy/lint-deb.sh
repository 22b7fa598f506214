#!/bin/sh
# deploy/lint-deb.sh [PACKAGE.deb...]: checks the packages deploy/build.sh
# made (by default every dist/tridboard_*.deb) with lintian, Debian's
# package checker, as CI does. Exit status 0: no error (warnings and
# informational tags are printed, not fatal); 1: lintian found an error;
# 2: no lintian or no package. Takes about 20 s a package.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

command -v lintian >/dev/null 2>&1 || {
	echo "deploy/lint-deb.sh: lintian is not installed: apt install lintian" >&2
	exit 2
}
if [ $# -eq 0 ]; then
	set -- dist/tridboard_*.deb
fi
for deb in "$@"; do
	[ -f "$deb" ] || {
		echo "deploy/lint-deb.sh: $deb: no such package (build one: deploy/build.sh)" >&2
		exit 2
	}
done
# --fail-on error: warnings (no manual page) do not fail the check.
lintian --fail-on error --info --display-info --tag-display-limit 0 "$@"
echo "deploy/lint-deb.sh: no lintian error in $*"

#!/bin/sh
# deploy/arm-test.sh: the core's tests as a Raspberry Pi runs them, under
# Debian's qemu-user-static: 32-bit ARMv6 (every Pi, Raspberry Pi OS armhf)
# and 64-bit ARM (Pi 3 and later on arm64). The packages are those whose
# arithmetic and timing a word size could change: the rules, the sensors,
# recognition, the clock, the game journal, the table, the LEDs.
#
# Without qemu it says so and stops with 0, except under CI (CI set), where
# it fails: an ARM build that was not run proves nothing.
#
# Last, deploy/lint-test.sh builds the arm64 package and checks it with
# lintian (about a minute).
set -eu
cd "$(dirname "$0")/.."

pkgs="./rules/... ./sensors ./recognize ./clock ./game ./table ./leds"
for q in qemu-arm-static qemu-aarch64-static; do
	if ! command -v "$q" >/dev/null 2>&1; then
		if [ -n "${CI:-}" ]; then
			echo "arm-test: $q is missing (apt-get install qemu-user-static)" >&2
			exit 1
		fi
		echo "arm-test: skipped: $q is missing (apt-get install qemu-user-static)"
		exit 0
	fi
done
echo "arm-test: armv6 (qemu-arm-static)"
GOARCH=arm GOARM=6 go test -short -timeout 20m -exec qemu-arm-static $pkgs
echo "arm-test: arm64 (qemu-aarch64-static)"
GOARCH=arm64 go test -short -timeout 20m -exec qemu-aarch64-static $pkgs
deploy/lint-test.sh

#!/bin/sh
# measure.sh NAME WARMUP SECONDS COMMAND...: starts COMMAND (e.g. under
# qemu-arm-static), waits WARMUP seconds, then prints NAME, its resident
# memory (VmRSS, and the peak VmHWM) and the CPU it used while idle over
# SECONDS seconds (user+system, in % of one core), and stops it.
# Under qemu-user the figures are the emulator's process: the program's
# memory plus qemu's own (a few MB of translated code), its CPU many times a
# real core's.
set -eu
name=$1 warm=$2 secs=$3
shift 3
"$@" </dev/null >/dev/null 2>&1 &
pid=$!
sleep "$warm"
[ -d /proc/$pid ] || { echo "$name: exited during warm-up"; exit 1; }
ticks() { awk '{print $14+$15}' /proc/$pid/stat; }
t0=$(ticks)
sleep "$secs"
t1=$(ticks)
rss=$(awk '/VmRSS/{print $2}' /proc/$pid/status)
hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
hz=$(getconf CLK_TCK)
kill -TERM $pid; wait $pid || true
awk -v n="$name" -v r="$rss" -v h="$hwm" -v d=$((t1 - t0)) -v hz="$hz" -v s="$secs" \
	'BEGIN{printf "%-28s RSS %6.1f MB (peak %6.1f MB)  idle CPU %5.2f %% of a core\n", n, r/1024, h/1024, 100*d/hz/s}'

#!/bin/sh
# load.sh PORT PID: on a brokerfit broker listening on 127.0.0.1:PORT (pid
# PID), a display with a persistent session subscribes to the board at QoS 1
# and leaves; the daemon publishes a retained state of 8 KB and then N (default
# 1000) moves of 320 bytes (a real move is about that) at QoS 1 while the display is away; prints the broker's
# RSS (and peak) then, and after the display came back and took them all.
set -eu
port=$1 pid=$2 n=${3:-1000}
sub() { mosquitto_sub -h 127.0.0.1 -p "$port" -u display -P display-secret -i away-display -c -q 1 -t 'tridboard/board/#' "$@"; }
sub -W 2 >/dev/null 2>&1 || true
head -c 8192 /dev/zero | tr '\0' s | mosquitto_pub -h 127.0.0.1 -p "$port" -u daemon -P daemon-secret -t tridboard/board/state -r -q 1 -s
i=0
while [ $i -lt "$n" ]; do
	i=$((i + 1))
	printf '{"seq":%d,"pad":"%0300d"}\n' $i 0
done | mosquitto_pub -h 127.0.0.1 -p "$port" -u daemon -P daemon-secret -t tridboard/board/move -q 1 -l
rss() { awk '/VmRSS/{r=$2} /VmHWM/{h=$2} END{printf "RSS %.1f MB (peak %.1f MB)", r/1024, h/1024}' /proc/$pid/status; }
echo "$n moves queued: $(rss)"
got=$(sub -C $((n + 1)) -W 120 | wc -l)
echo "display back, $got messages: $(rss)"

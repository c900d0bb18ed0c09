#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli top --any-netdev` on a live veth, through a terminal (tmux), in a
# private network namespace with a veth pair va <-> vb: while python3 sends
# 20 frames a second from vb (AF_PACKET, IPv6 off so the kernel sends
# nothing of its own), top's row of va shows the link up, RX pkt/s near 20
# and TX pkt/s 0 (the real netdev statistics through counters watch's
# sample and rates); the row says "down" once va is down; q ends it with
# exit 0.  Root only: 77 otherwise.  Exit 0 pass, 1 fail, 77 skip.
set -u
. "$(dirname "$0")/lib.sh"
need_root
need tmux python3
SOCK=$MLXCLI_STATE_DIR/tmux.sock
make_netns mlxcli-top
on_exit="tmux -S '$SOCK' kill-server 2>/dev/null; [ -s '$tmp/sender.pid' ] && kill \$(cat '$tmp/sender.pid') 2>/dev/null; $on_exit"
if [ -d /proc/sys/net/ipv6 ]; then
	nsx sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6 &&
		echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' ||
		{ bad "cannot disable IPv6 in the namespace"; exit 1; }
fi
make_veth va vb

# 20 frames a second from vb (to no one: va counts them received)
# (its own pid in sender.pid: python3 may be a wrapper's child; it also
# stops by itself after 5 minutes, whatever happens to the test)
nsx python3 -c '
import os, socket, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind(("vb", 0))
frame = b"\xff" * 6 + b"\x02\x00\x00\x00\x00\x02" + b"\x88\xb5" + b"mlxcli top test".ljust(46, b".")
t = end = time.monotonic()
end += 300
while t < end:
    s.send(frame)
    t += 0.05
    time.sleep(max(0, t - time.monotonic()))
' "$tmp/sender.pid" >/dev/null 2>&1 &

tmux -S "$SOCK" new-session -d -x 80 -y 24 \
	"env TERM=xterm MLXCLI_STATE_DIR='$MLXCLI_STATE_DIR' ip netns exec '$ns' '$MLXCLI' top --any-netdev -d va -i 0.5; \
	 echo \"TOP\" \"EXITED \$?\"; sleep 60" || { bad "cannot start tmux"; finish; }
screen() { tmux -S "$SOCK" capture-pane -p 2>/dev/null; }
# until CMD (on the screen's row of va: $1 name, $2 link, $5 RX pkt/s,
# $6 TX pkt/s) holds, at most 30 s times $TEST_TIME_SCALE
row_until() {
	i=0
	while [ $i -lt $((300 * ${TEST_TIME_SCALE:-1})) ]; do
		screen | awk '$1 == "va"' >"$tmp/row"
		[ -s "$tmp/row" ] && awk "$1" "$tmp/row" | grep -q . && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
# the rate settles at 20 a second (the first interval may have caught the
# sender starting; a loaded machine sends late): 15 to 25
if row_until '$2 == "up" && $5 + 0 >= 15 && $5 + 0 <= 25 && $6 == "0" { print }'; then
	ok "va: link up, RX pkt/s $(awk '{ print $5 }' "$tmp/row") (20 sent a second), TX pkt/s 0"
else
	bad "va's row: '$(cat "$tmp/row")'"
	screen | sed 's/^/    /'
fi
ip -n "$ns" link set va down
if row_until '$2 == "down" { print }'; then
	ok "va down: the row says so"
else
	bad "va down: '$(cat "$tmp/row")'"
fi
tmux -S "$SOCK" send-keys q
i=0
while [ $i -lt $((300 * ${TEST_TIME_SCALE:-1})) ] && ! screen | grep -q '^TOP EXITED'; do
	sleep 0.1
	i=$((i + 1))
done
check "q: the exit status" "$(screen | sed -n 's/^TOP EXITED //p')" 0
finish

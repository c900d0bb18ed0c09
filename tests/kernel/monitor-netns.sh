#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli monitor` against the real kernel (issue 16), in a private network
# namespace made here with a veth pair va <-> vb (a veth is no ConnectX
# port: --any-netdev).  rtnetlink RTNLGRP_LINK, live:
#   - `ip link set va down` then `up` give exactly, in this order: va
#     admin_down and carrier_down (one RTM_NEWLINK from dev_close: veth_close
#     turned both carriers off first), vb carrier_down (link_watch), va
#     admin_up and carrier_up, vb carrier_up; the same state sent again
#     (link_watch's messages for va) gives nothing;
#   - with -d vb only vb's two events;
#   - SIGTERM ends the stream with an end record, exit 0;
#   - idle, the monitor sleeps in poll(): no CPU time in a second;
#   - a storm of 4,000 changes: all reported, or the loss reported;
#   - the settings an operator cares about (issue 25 item 11): an MTU, an
#     address, a bridge taking va and letting it go are events.
# The test waits for the events it expects, with a deadline (wait_until),
# never for a fixed time: a loaded machine is slower, not wrong (issue 30).
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.  Exit 0 pass,
# 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq
make_netns mlxcli-mon
make_veth va vb

# start NAME ARGS...: the monitor in the namespace, in the background (ip
# netns exec execs it: $pid is the monitor), and wait until its rtnetlink
# socket has joined group RTNLGRP_LINK (bit 0 of Groups in the namespace's
# /proc/net/netlink)
subscribed() {
	nsx awk -v p="$1" '$2 == 0 && $3 == p && $4 ~ /[13579bdf]$/ { f = 1 } END { exit !f }' /proc/net/netlink
}
start() {
	name=$1
	shift
	ip netns exec "$ns" "$MLXCLI" -j monitor --any-netdev "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	wait_until 30 subscribed $pid && return 0
	bad "$name: the monitor did not subscribe in 30 s: $(cat "$tmp/$name.err")"
	kill $pid 2>/dev/null
	return 1
}

# stop: SIGTERM, the exit status in $rc
stop() {
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
}

# kinds NAME: the events of va and vb, "netdev:kind" in order
kinds() {
	jq -r 'select(.record == "event" and (.netdev == "va" or .netdev == "vb")) | .netdev + ":" + .kind' \
		"$tmp/$1.out" 2>/dev/null | tr '\n' ' '
}
# seen NAME EVENTS: the events so far are EVENTS ("netdev:kind ...")
seen() { [ "$(kinds "$1")" = "$2" ]; }
# upto NAME EVENTS: wait until they are, 30 s at most
upto() { wait_until 30 seen "$@" || bad "$1: waited 30 s for '$2', saw '$(kinds "$1")'"; }

if start flap; then
	# the same rtnetlink socket joined RTNLGRP_DCB (23: bit 22 of Groups),
	# so a DCB change made by any tool is a qos_changed event
	g=$(nsx awk -v p="$pid" '$2 == 0 && $3 == p { print $4; exit }' /proc/net/netlink)
	[ -n "$g" ] && [ $((0x$g & 0x400000)) -ne 0 ] && ok "the monitor joined RTNLGRP_DCB (groups $g)" ||
		bad "the monitor's rtnetlink socket did not join RTNLGRP_DCB (groups '$g')"
	ip -n "$ns" link set va down
	upto flap "va:admin_down va:carrier_down vb:carrier_down "
	ip -n "$ns" link set va up
	upto flap "va:admin_down va:carrier_down vb:carrier_down va:admin_up va:carrier_up vb:carrier_up "
	# idle: asleep in poll() while nothing happens.  link_watch's repeats
	# of the same state come within the next second (no event, but the
	# monitor reads them), so the second measured starts half a second
	# later, and one clock tick is allowed: on a loaded machine the last
	# repeat's read can fall into it (distcheck under make -j2 saw this
	# fail once with the tick-exact check); a busy loop would show 100.
	sleep 0.5
	t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	sleep 1
	t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
	stop
	got=$(kinds flap)
	want="va:admin_down va:carrier_down vb:carrier_down va:admin_up va:carrier_up vb:carrier_up "
	[ "$got" = "$want" ] && ok "veth down/up: $got" || bad "veth down/up: '$got', expected '$want'"
	[ $rc -eq 0 ] && ok "SIGTERM: exit 0" || bad "SIGTERM: exit $rc: $(cat "$tmp/flap.err")"
	end=$(jq -c 'select(.record == "end") | .interrupted' "$tmp/flap.out")
	[ "$end" = true ] && ok "SIGTERM: the end record says interrupted" || bad "end record: '$end'"
	[ $((t1 - t0)) -le 1 ] && ok "idle for 1 s: $((t1 - t0)) ticks of CPU (poll)" ||
		bad "idle: $((t1 - t0)) ticks of CPU in 1 s"
	src=$(jq -r 'select(.netdev == "va") | .source' "$tmp/flap.out" | sort -u)
	cc=$(jq -r 'select(.netdev == "va" and .kind == "carrier_up") | .carrier_changes' "$tmp/flap.out")
	[ "$src" = rtnetlink ] && [ -n "$cc" ] && [ "$cc" -ge 2 ] &&
		ok "source rtnetlink, carrier_changes $cc" || bad "source '$src', carrier_changes '$cc'"
fi

if start onlyvb -d vb; then
	ip -n "$ns" link set va down
	upto onlyvb "vb:carrier_down "
	ip -n "$ns" link set va up
	upto onlyvb "vb:carrier_down vb:carrier_up "
	stop
	got=$(kinds onlyvb)
	[ "$got" = "vb:carrier_down vb:carrier_up " ] && ok "-d vb: $got" || bad "-d vb: '$got'"
fi

# issue 25 item 11: an MTU, an address and a master are events of their own
# (a bridge takes va, then lets it go; its own link changes are not va's)
if start settings -d va; then
	ip -n "$ns" link set va mtu 4000
	upto settings "va:mtu_changed "
	ip -n "$ns" link set va address 02:6d:6c:78:00:01
	upto settings "va:mtu_changed va:address_changed "
	ip -n "$ns" link add "br$$" type bridge
	ip -n "$ns" link set va master "br$$"
	wait_until 30 sh -c "jq -e 'select(.kind == \"master_changed\")' '$tmp/settings.out' >/dev/null" ||
		bad "no master_changed for va in 30 s: $(kinds settings)"
	ip -n "$ns" link set va nomaster
	wait_until 30 sh -c "[ \$(jq -s '[.[] | select(.kind == \"master_changed\")] | length' '$tmp/settings.out') -ge 2 ]" ||
		bad "no second master_changed for va in 30 s"
	stop
	m=$(jq -c 'select(.kind == "mtu_changed") | [.mtu, .message]' "$tmp/settings.out")
	[ "$m" = '[4000,"va: mtu 1500 -> 4000"]' ] && ok "mtu_changed $m" || bad "mtu_changed: $m"
	a=$(jq -r 'select(.kind == "address_changed") | .detail' "$tmp/settings.out")
	[ "$a" = 02:6d:6c:78:00:01 ] && ok "address_changed $a" || bad "address_changed: '$a'"
	b=$(jq -r 'select(.kind == "master_changed") | .message' "$tmp/settings.out" | tr '\n' '|')
	[ "$b" = "va: enslaved to br$$|va: released from br$$|" ] && ok "master_changed: $b" ||
		bad "master_changed: '$b'"
	ip -n "$ns" link del "br$$"
fi

# A storm: 2,000 down/up cycles of va in one `ip -batch` (about 10,000
# link changes a second here): every change reported, or the loss said
# (records_lost) - never silently dropped.
count() { jq -s '[.[] | select(.record == "event" and .netdev == "va")] | length' "$tmp/storm.out" 2>/dev/null; }
lost() { jq -s '[.[] | select(.kind == "records_lost")] | length' "$tmp/storm.out" 2>/dev/null; }
done_storm() { [ "$(count)" -ge 8000 ] || [ "$(lost)" -gt 0 ]; }
if start storm -d va; then
	i=0
	while [ $i -lt 2000 ]; do
		echo "link set va down"
		echo "link set va up"
		i=$((i + 1))
	done >"$tmp/storm.batch"
	t0=$(date +%s%N)
	ip -n "$ns" -batch "$tmp/storm.batch"
	t1=$(date +%s%N)
	wait_until 60 done_storm
	stop
	n=$(count)
	l=$(lost)
	rate=$((4000 * 1000 / ((t1 - t0) / 1000000 + 1)))
	if [ "$n" -eq 8000 ] || [ "$l" -gt 0 ]; then
		ok "storm of 4,000 changes (~$rate a second): $n events, $l loss reports"
	else
		bad "storm: $n of 8000 events and no loss reported"
	fi
fi
finish

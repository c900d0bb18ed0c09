#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli monitor` and the ethtool netlink "monitor" group against the real
# kernel (issue 16), in a private network namespace made here with a veth
# pair va <-> vb of 4 queues each (a veth is no ConnectX port: --any-netdev):
#   - `ethtool -K va tso off` is one features_changed event of va (detail
#     ETHTOOL_MSG_FEATURES_NTF, source ethtool), and `tso on` another;
#   - `ethtool -L va rx 2` is one channels_changed event with the new count
#     in its message;
#   - a request that changes nothing (tso off twice) sends nothing;
#   - with -d vb, va's changes are no events;
#   - the same veth without --any-netdev: no event (not a ConnectX port).
# Root only: 77 otherwise, and 77 without ethtool(8).

. "$(dirname "$0")/lib.sh"
need_root
need jq ethtool
make_netns mlxcli-mon-eth
if ! ip -n "$ns" link add va numtxqueues 4 numrxqueues 4 type veth peer name vb \
	numtxqueues 4 numrxqueues 4 2>"$tmp/veth.err"; then
	echo "SKIP: cannot create a veth pair: $(cat "$tmp/veth.err")"
	exit 77
fi
ip -n "$ns" link set va up && ip -n "$ns" link set vb up || { bad "veth up"; exit 1; }

# start NAME ARGS...: the monitor in the namespace; wait until its
# rtnetlink socket joined RTNLGRP_LINK (the source opens it last: the
# ethtool one is open then)
subscribed() {
	nsx awk -v p="$1" '$2 == 0 && $3 == p && $4 ~ /[13579bdf]$/ { f = 1 } END { exit !f }' /proc/net/netlink
}
start() {
	name=$1
	shift
	ip netns exec "$ns" "$MLXCLI" -j monitor "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	wait_until 30 subscribed $pid && return 0
	bad "$name: the monitor did not subscribe in 30 s: $(cat "$tmp/$name.err")"
	kill $pid 2>/dev/null
	return 1
}
stop() {
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
}
events() {   # NAME: the ethtool events, "netdev:kind:detail" in order
	jq -r 'select(.record == "event" and .source == "ethtool") | .netdev + ":" + .kind + ":" + .detail' \
		"$tmp/$1.out" 2>/dev/null | tr '\n' ' '
}
# has NAME N: N ethtool events or more (the test waits for them with a
# deadline: events come in order, so what should not be there would be
# before them)
has() { [ "$(jq -s '[.[] | select(.source == "ethtool")] | length' "$tmp/$1.out" 2>/dev/null)" -ge "$2" ]; }

if start feat --any-netdev; then
	nsx ethtool -K va tso off
	nsx ethtool -K va tso off 2>/dev/null    # no change: no notification
	nsx ethtool -K va tso on
	wait_until 30 has feat 2
	stop
	got=$(events feat)
	want="va:features_changed:ETHTOOL_MSG_FEATURES_NTF va:features_changed:ETHTOOL_MSG_FEATURES_NTF "
	[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok "ethtool -K va tso off, off, on: $got" ||
		bad "ethtool -K: exit $rc, '$got', expected '$want': $(cat "$tmp/feat.err")"
	m=$(jq -r 'select(.kind == "features_changed") | [.message, .ifindex > 0] | @text' "$tmp/feat.out" | head -1)
	[ "$m" = '["va: features changed",true]' ] && ok "its message and ifindex: $m" || bad "features message: $m"
fi

if start chan --any-netdev; then
	if nsx ethtool -L va rx 2 2>"$tmp/chan.set"; then
		wait_until 30 has chan 1
		stop
		got=$(jq -r 'select(.source == "ethtool") | .netdev + ":" + .kind + ":" + .message' "$tmp/chan.out" |
			tr '\n' ' ')
		[ "$got" = "va:channels_changed:va: channels changed: rx 2, tx 4 " ] &&
			ok "ethtool -L va rx 2: $got" || bad "ethtool -L: '$got'"
	else
		stop
		echo "# ethtool -L on a veth refused here ($(cat "$tmp/chan.set")): the channels check skipped"
	fi
fi

if start onlyvb --any-netdev -d vb; then
	nsx ethtool -K va tso off
	nsx ethtool -K vb tso off
	wait_until 30 has onlyvb 1
	stop
	got=$(events onlyvb)
	[ "$got" = "vb:features_changed:ETHTOOL_MSG_FEATURES_NTF " ] && ok "-d vb: $got" || bad "-d vb: '$got'"
fi

if start noany; then
	nsx ethtool -K va tso on
	# nothing to wait for: what is filtered out never shows (a slow
	# monitor stopped early only makes this check weaker, never wrong)
	sleep 0.3
	stop
	got=$(events noany)
	[ $rc -eq 0 ] && [ -z "$got" ] && ok "without --any-netdev a veth's change is no event" ||
		bad "without --any-netdev: exit $rc, '$got'"
fi
finish

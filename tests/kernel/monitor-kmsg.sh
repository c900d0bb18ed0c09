#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli monitor` and the real /dev/kmsg (issue 16), as root: the real mlx5
# lines of a captured TX timeout ($FIXTURES/dmesg) are written into
# /dev/kmsg.  The kernel files them with the user facility and no DEVICE=
# line, so:
#   - a monitor with the test option --accept-user-records classifies them:
#     tx_timeout, tx_timeout, eq_recover, with the device from the text; an
#     mlx5_ib line is an event of its RDMA device;
#   - a monitor without it, running at the same time, reports none of them
#     (a live monitor trusts kernel records only), and says once, with -v,
#     that it ignores what user space writes;
#   - --since boot reads them back from the kernel's buffer afterwards;
#   - a gap at the start is a gap (issue 29 item 6): a monitor stopped
#     before its first read while the log wraps reports records_lost before
#     the first record it reads.
# The host's log holds other lines, mlx5-looking ones too (another test,
# another run, a real ConnectX, issue 30): every line this test writes
# names a PCI address of its own, a 5-digit domain drawn for this run, and
# the test looks at those only; it waits for what it expects (a deadline,
# wait_until), never for a fixed time.  The gap check wraps the host's log
# buffer (about twice its size of lines of this run).
# Root only: 77 otherwise.  Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq python3
tx=$FIXTURES/dmesg/mlx5e-vf-tx-timeout-detected-sq-cons-0-eq-2025.txt
[ -f "$tx" ] || { echo "SKIP: no $tx (FIXTURES)"; exit 77; }
[ -w /dev/kmsg ] || { echo "SKIP: /dev/kmsg is not writable"; exit 77; }
make_netns mlxcli-kmsg      # the monitors' link events stay in here
kmsg() { python3 "$TOP_SRCDIR/tests/kernel/kmsg.py" "$@"; }

# subscribed PID: its rtnetlink socket joined RTNLGRP_LINK (it read the
# kernel log's backlog before that)
subscribed() {
	nsx awk -v p="$1" '$2 == 0 && $3 == p && $4 ~ /[13579bdf]$/ { f = 1 } END { exit !f }' /proc/net/netlink
}
# mine FILE: this run's events in FILE (a JSON stream), one kind a line
mine() { jq -r --arg a "$addr" 'select(.record == "event" and .pci_address == $a) | .kind' "$1" 2>/dev/null; }
has() { [ "$(mine "$1" | wc -l)" -ge "$2" ]; }

# this run's device: domain 1xxxx (five hex digits, as VMD's domains);
# its RDMA device mlx5_<the same digits>
tok=$(od -An -N2 -tx2 /dev/urandom | tr -d ' ')
addr=1$tok:af:00.2
rdev=mlx5_$tok
rdma() { jq -r --arg d "$rdev" 'select(.record == "event" and .rdma_device == $d) | .kind' "$1" 2>/dev/null; }

ip netns exec "$ns" "$MLXCLI" -j monitor --accept-user-records >"$tmp/test.out" 2>"$tmp/test.err" &
p1=$!
ip netns exec "$ns" "$MLXCLI" -v -j monitor >"$tmp/live.out" 2>"$tmp/live.err" &
p2=$!
wait_until 30 subscribed $p1 && wait_until 30 subscribed $p2 ||
	bad "the monitors did not start: $(cat "$tmp/test.err" "$tmp/live.err")"
sed -n 's/^.*\(mlx5_core [0-9a-f]\{4\}:\)/\1/p' "$tx" | sed "s/0000:af:00\.2/$addr/g" | kmsg write -p 3
# an mlx5_ib line (a real one, tests/unit/test-monitor-rdma.c) of this
# run's RDMA device (issue 25 item 10)
kmsg write -p 4 -n 1 "infiniband $rdev: destroy_qp_common:2367:(pid 73): mlx5_ib: modify QP 0x000724 to RESET failed"
wait_until 30 has "$tmp/test.out" 3 || bad "the test monitor did not see this run's three lines in 30 s"
wait_until 30 sh -c "[ -n \"\$(jq -r 'select(.rdma_device == \"$rdev\") | .kind' '$tmp/test.out')\" ]" ||
	bad "the test monitor did not see this run's RDMA line in 30 s"
kill -TERM $p1 $p2
wait $p1; r1=$?
wait $p2; r2=$?
k=$(mine "$tmp/test.out" | tr '\n' ' ')
[ $r1 -eq 0 ] && [ "$k" = "tx_timeout tx_timeout eq_recover " ] &&
	ok "--accept-user-records: $k" || bad "--accept-user-records: exit $r1, '$k': $(cat "$tmp/test.err")"
k=$(rdma "$tmp/test.out")
[ "$k" = rdma_qp_reset_failed ] && ok "live, an mlx5_ib line: $k of $rdev" || bad "the mlx5_ib line: '$k'"
# (whether the second monitor had read them when it was stopped, the test
# cannot know; tests/cli/monitor.sh holds the rule on a replay)
n=$(mine "$tmp/live.out" | wc -l)
[ $r2 -eq 0 ] && [ "$n" = 0 ] && ok "without it, user-space records are no events" ||
	bad "live monitor took $n user-space records (exit $r2)"
u=$(grep -c "records written by user space are not events" "$tmp/live.err")
[ "$u" -le 1 ] && ok "-v: user-space records said at most once ($u)" || bad "-v said it $u times: $(cat "$tmp/live.err")"

# --since boot: the kernel's buffer still holds them, unless the host (or
# another test) wrote enough since to overwrite them
first=$(jq -r --arg a "$addr" 'select(.record == "event" and .pci_address == $a) | .sequence' "$tmp/test.out" | head -1)
ip netns exec "$ns" "$MLXCLI" -j monitor --since boot --accept-user-records >"$tmp/boot.out" 2>"$tmp/boot.err" &
p3=$!
wait_until 30 has "$tmp/boot.out" 3
kill -TERM $p3
wait $p3; rc=$?
k=$(mine "$tmp/boot.out" | tr '\n' ' ')
if [ $rc -eq 0 ] && [ "$k" = "tx_timeout tx_timeout eq_recover " ]; then
	ok "--since boot reads the buffer: $k"
elif [ -n "$first" ] && [ "$(kmsg oldest)" -gt "$first" ]; then
	ok "--since boot: skipped, the log was overwritten past this run's lines (record $first) meanwhile"
else
	bad "--since boot: exit $rc, '$k': $(cat "$tmp/boot.err")"
fi

# a gap at the start: the monitor reads the log's end, then is stopped;
# twice the buffer of this run's lines is written (level 6: the console
# does not print them; the kernel overwrites the oldest); resumed, its
# first read finds them gone (EPIPE)
ip netns exec "$ns" "$MLXCLI" -j monitor --accept-user-records >"$tmp/gap.out" 2>"$tmp/gap.err" &
p4=$!
if wait_until 30 subscribed $p4; then
	size=$(kmsg size)
	lines=$((size / 30))
	kill -STOP $p4
	kmsg write -p 6 -n $lines "mlx5_core $addr: gap test {i}"
	kill -CONT $p4
	wait_until 60 sh -c "jq -r 'select(.record == \"event\") | .message' '$tmp/gap.out' 2>/dev/null |
		grep -q 'gap test $((lines - 1))\$'" || bad "the last line written never came"
	kill -TERM $p4
	wait $p4
	gap=$(jq -r --arg a "$addr" 'select(.record == "event") |
		if .kind == "records_lost" then "lost \(.records_lost)" elif .pci_address == $a then "mine" else empty end' \
		"$tmp/gap.out" | awk '$1 == "mine" { n++; next } !n && $1 == "lost" { lost += $2; gaps++ }
		END { print gaps + 0, lost + 0, n + 0 }')
	set -- $gap
	[ "$1" -ge 1 ] && [ $(($2 + $3)) -ge "$lines" ] &&
		ok "stopped before its first read: records_lost $2 before the first of the $3 it read ($lines written)" ||
		bad "a gap at the start: $1 records_lost events ($2 records) before the first of $3 read, $lines written"
else
	bad "the gap monitor did not start: $(cat "$tmp/gap.err")"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli monitor` and the real /dev/kmsg (issue 16), as root: the real mlx5
# lines of a captured TX timeout ($FIXTURES/dmesg) are written into
# /dev/kmsg.  The kernel files them with the user facility and no DEVICE=
# line, so:
#   - a monitor with the test option --accept-user-records classifies them:
#     tx_timeout, tx_timeout, eq_recover, with the device from the text;
#   - a monitor without it, running at the same time, reports none of them
#     (a live monitor trusts kernel records only);
#   - --since boot reads them back from the kernel's buffer afterwards.
# This writes three lines into the host's kernel log (user facility, so no
# live monitor takes them for the kernel's).
# Root only: 77 otherwise.  Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
need jq
tx=$FIXTURES/dmesg/mlx5e-vf-tx-timeout-detected-sq-cons-0-eq-2025.txt
[ -f "$tx" ] || { echo "SKIP: no $tx (FIXTURES)"; exit 77; }
[ -w /dev/kmsg ] || { echo "SKIP: /dev/kmsg is not writable"; exit 77; }
make_netns mlxcli-kmsg      # the monitors' link events stay in here

# wait_sub PID: its rtnetlink socket joined RTNLGRP_LINK (it opened
# /dev/kmsg before that)
wait_sub() {
	i=0
	while [ $i -lt 50 ]; do
		nsx awk -v p="$1" '$2 == 0 && $3 == p && $4 ~ /[13579bdf]$/ { f = 1 } END { exit !f }' \
			/proc/net/netlink && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

ip netns exec "$ns" "$MLXCLI" -j monitor --accept-user-records >"$tmp/test.out" 2>"$tmp/test.err" &
p1=$!
ip netns exec "$ns" "$MLXCLI" -j monitor >"$tmp/live.out" 2>"$tmp/live.err" &
p2=$!
wait_sub $p1 && wait_sub $p2 || bad "the monitors did not start: $(cat "$tmp/test.err" "$tmp/live.err")"
# The lines go in under a bus number of this run's own (the capture's
# 0000:af:00.2 becomes 0000:BB:00.2), so a run that overlaps on the same
# host (the kernel log is the host's) cannot be taken for this one.
bus=$(printf '%02x' $(($$ % 200 + 16)))
addr=0000:$bus:00.2
sed -n 's/^.*\(mlx5_core [0-9a-f]\{4\}:\)/\1/p' "$tx" | sed "s/0000:af:00\.2/$addr/g" | while IFS= read -r l; do
	printf '<3>%s\n' "$l" >/dev/kmsg
done
sleep 0.5
kill -TERM $p1 $p2
wait $p1; r1=$?
wait $p2; r2=$?
k=$(jq -r --arg a "$addr" 'select(.record == "event" and .pci_address == $a) | .kind' "$tmp/test.out" | tr '\n' ' ')
[ $r1 -eq 0 ] && [ "$k" = "tx_timeout tx_timeout eq_recover " ] &&
	ok "--accept-user-records: $k" || bad "--accept-user-records: exit $r1, '$k': $(cat "$tmp/test.err")"
n=$(jq -s --arg a "$addr" '[.[] | select(.record == "event" and .pci_address == $a)] | length' "$tmp/live.out")
[ $r2 -eq 0 ] && [ "$n" = 0 ] && ok "without it, user-space records are no events" ||
	bad "live monitor took $n user-space records (exit $r2)"
# --since boot: the kernel's buffer still holds them (these, or the same
# three of an earlier run: this host has no other mlx5 lines)
ip netns exec "$ns" timeout 5 "$MLXCLI" -j monitor --since boot --accept-user-records \
	--count 3 >"$tmp/boot.out" 2>"$tmp/boot.err" </dev/null
rc=$?
k=$(jq -r 'select(.record == "event" and .kind != "records_lost") | .kind' "$tmp/boot.out" | tr '\n' ' ')
[ $rc -eq 0 ] && [ "$k" = "tx_timeout tx_timeout eq_recover " ] && ok "--since boot reads the buffer: $k" ||
	bad "--since boot: exit $rc, '$k': $(cat "$tmp/boot.err")"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The bench's namespace set-up (tests/bench/run.sh with BENCH_VETHS=N: make
# the counters comparison's namespace and N veth pairs, then stop) ends, and
# says why when it cannot go on:
#   - pointed at a namespace that cannot be opened (BENCH_NS): exit 1 within
#     10 s, naming the pair and the kernel's answer (it used to retry `ip
#     link add` for ever, thousands of lines);
#   - SIGTERM while it adds pairs: exit 143 within 10 s, its namespace gone
#     (its TERM trap cleaned up and let the loop go on).
# Root only (namespaces): 77 otherwise.  Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
# can this machine make a veth pair at all?
make_netns mlxcli-bsetup
make_veth bva bvb
BENCH=$TOP_SRCDIR/tests/bench/run.sh

# ends PID SECONDS: whether PID ends within SECONDS (else it is killed)
ends() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		if [ $i -ge $(($2 * 10)) ]; then
			kill -KILL "$1" 2>/dev/null
			return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
}

BENCH_VETHS=3 BENCH_NS=mlxcli-nosuch-$$ sh "$BENCH" >"$tmp/out" 2>"$tmp/err" &
pid=$!
if ends $pid 10; then
	wait $pid
	rc=$?
	[ $rc -eq 1 ] && grep -q "cannot add the veth pair va0/vb0 in namespace mlxcli-nosuch-$$ (3 tries): .*namespace" "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" -eq 1 ] && ok "a namespace that cannot be opened: exit 1, $(cat "$tmp/err")" ||
		bad "a namespace that cannot be opened: exit $rc: $(head -c 600 "$tmp/err")"
else
	bad "a namespace that cannot be opened: still running after 10 s: $(head -c 300 "$tmp/err")"
fi

# SIGTERM once it is busy adding pairs (far more than it can add in 10 s)
BENCH_VETHS=1000000 sh "$BENCH" >"$tmp/out" 2>"$tmp/err" &
pid=$!
bns=mlxcli-bench-$pid
i=0
while [ "$(ip -n "$bns" -o link show 2>/dev/null | wc -l)" -lt 20 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ $i -lt 100 ] || bad "the set-up made no veth pairs in 10 s: $(cat "$tmp/err")"
kill -TERM $pid
if ends $pid 10; then
	wait $pid
	rc=$?
	[ $rc -eq 143 ] && ok "SIGTERM: exit 143" || bad "SIGTERM: exit $rc: $(cat "$tmp/err")"
else
	bad "SIGTERM: still running after 10 s"
fi
if ip netns list | grep -q "^$bns\\b"; then
	bad "SIGTERM: the namespace $bns is left"
	ip netns del "$bns"
else
	ok "SIGTERM: the namespace is removed"
fi
finish

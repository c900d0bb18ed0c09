#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A snapshot taken on a real kernel replays identically on another: the
# kernel lab's tests/vm/guest/rdma-live.sh took `mlxcli snapshot` on
# Debian 12's 6.1 with rdma_rxe devices holding live QPs, CM IDs, CQs, MRs,
# PDs, contexts and an SRQ, with the output of every rdma command beside it
# ($LAB_ARTIFACTS/rdma-live.tar: snap/, live/).  Here, on the host's kernel,
# `mlxcli --sysroot snap` must print the same bytes for each of them, text
# and JSON (stdout and stderr): rdma show/qp/cm-id/cq/mr/pd/ctx/srq/gids/
# stats and qp/cm-id --errors.  Run by tests/vm/tier.sh after the VM, in
# the same tier run; exit 77 when the guest test left no snapshot.

. "$TOP_SRCDIR/tests/cli/lib.sh"
tar -C "$tmp" -xf "${LAB_ARTIFACTS:?run by tests/vm/tier.sh}/rdma-live.tar" 2>/dev/null
art=$tmp/rdma-live
if [ ! -f "$art/snap/mlxcli-snapshot.json" ] || [ ! -f "$art/devices" ]; then
	echo "SKIP: tests/vm/guest/rdma-live.sh left no snapshot in $LAB_ARTIFACTS/rdma-live.tar (did it run and pass?)"
	exit 77
fi
devs=$(cat "$art/devices")
n=0
for dv in $devs; do
	for c in show qp cm-id cq mr pd ctx srq gids stats; do
		for f in json txt; do
			if [ "$f" = json ]; then run "$c.$f" --sysroot "$art/snap" -d "$dv" -j rdma "$c"
			else run "$c.$f" --sysroot "$art/snap" -d "$dv" rdma "$c"; fi
			if [ "$rc" -ne 0 ]; then
				bad "$dv: rdma $c ($f): exit $rc: $(head -n 2 "$tmp/$c.$f.err")"
			elif ! cmp -s "$tmp/$c.$f.out" "$art/live/$dv/$c.$f"; then
				bad "$dv: rdma $c ($f): the replay differs from the live output"
				diff "$art/live/$dv/$c.$f" "$tmp/$c.$f.out" | head -n 8
			elif ! cmp -s "$tmp/$c.$f.err" "$art/live/$dv/$c.$f.err"; then
				bad "$dv: rdma $c ($f): stderr differs: $(head -n 2 "$tmp/$c.$f.err")"
			else
				n=$((n + 1))
			fi
		done
	done
	for x in "qp-errors.json -j rdma qp --errors" "qp-errors.txt rdma qp --errors" \
		"cm-id-errors.json -j rdma cm-id --errors"; do
		set -- $x
		f=$1
		shift
		"$MLXCLI" --sysroot "$art/snap" -d "$dv" "$@" >"$tmp/$f" 2>&1
		if cmp -s "$tmp/$f" "$art/live/$dv/$f"; then n=$((n + 1)); else
			bad "$dv: $*: the replay differs"; diff "$art/live/$dv/$f" "$tmp/$f" | head -n 8; fi
	done
done
check "the 46 outputs of the live kernel (23 a device), byte for byte" "$n" 46
# not an empty equality: the outputs are of the test's devices, and the
# first device's QP in error is among them (replayed byte for byte above)
set -- $devs
check "the replayed QPs are the lab's devices' ($devs)" \
	"$(cat "$art/live/$1/qp.json" "$art/live/$2/qp.json" | jq -r '.qps[].rdma_device' | sort -u | tr '\n' ' ')" \
	"$(echo "$devs" | tr ' ' '\n' | sort | tr '\n' ' ')"
check "the first device has one QP in error" "$(jq '.qps | length' "$art/live/$1/qp-errors.json")" 1
finish

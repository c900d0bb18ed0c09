#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Concurrent writers on one device of a sample working copy (DESIGN.md
# "Writes": two mlxcli processes writing the same device are serialised by
# a lock).  Rounds of N=8 processes started together:
#   - `qosconfig dcqcn set` each with its own consistent tuple
#     (DcqcnRpgAiRate=i, DcqcnRpgHaiRate=10*i, DcqcnRpgTimeReset=100*i): the
#     end state is exactly one of the tuples, never a mix;
#   - QoS read-modify-writes of the DCB state (`qosconfig tc-bw TC RATE`,
#     one distinct TC each): every process's change survives (no lost
#     update from reading the state before another process wrote it);
#   - `sriov vf I set vlan V`, one VF each: every VF's setting survives.
# No process may fail with anything but a documented lock wait.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq

N=8
ROUNDS=${CONCURRENCY_ROUNDS:-3}
S=--sample=cx5-ofed
P0=enp94s0f0np0
RP=$MLXCLI_STATE_DIR/samples/cx5-ofed/sys/class/net/$P0/ecn/roce_rp
"$MLXCLI" $S devices >/dev/null || { bad "no working copy"; exit 1; }

# check_errs: every stderr empty or only the documented lock wait
# ("waiting for up to SEC s for the lock of ...", lib/core/lock.c).
check_errs() {
	for f in "$tmp"/err.*; do
		if grep -v -i 'waiting for\( up to [0-9]* s for\)\? the lock\|lock.*held' "$f" | grep -q .; then
			bad "$1: $(basename "$f"): $(head -c 300 "$f")"
		fi
	done
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	rm -f "$tmp"/err.* "$tmp"/rc.*
	i=1
	while [ "$i" -le "$N" ]; do
		( "$MLXCLI" $S qosconfig dcqcn set -d $P0 DcqcnRpgAiRate "$i" DcqcnRpgHaiRate "$((10 * i))" \
			DcqcnRpgTimeReset "$((100 * i))" >/dev/null 2>"$tmp/err.$i"; echo $? >"$tmp/rc.$i" ) &
		i=$((i + 1))
	done
	wait
	grep -L '^0$' "$tmp"/rc.* | while read -r f; do bad "dcqcn round $r: $(basename "$f") exit $(cat "$f")"; done
	check_errs "dcqcn round $r"
	a=$(cat "$RP/rpg_ai_rate") h=$(cat "$RP/rpg_hai_rate") t=$(cat "$RP/rpg_time_reset")
	if [ "$h" = "$((10 * a))" ] && [ "$t" = "$((100 * a))" ] && [ "$a" -ge 1 ] && [ "$a" -le "$N" ]; then
		ok "dcqcn round $r: one whole tuple ($a, $h, $t)"
	else
		bad "dcqcn round $r: a mix of tuples: ai=$a hai=$h time_reset=$t"
	fi
	r=$((r + 1))
done

# tc-bw: each process changes one TC's rate; all must be there at the end.
r=1
while [ "$r" -le "$ROUNDS" ]; do
	rm -f "$tmp"/err.* "$tmp"/rc.*
	"$MLXCLI" $S qosconfig tc-bw 0 0 1 0 2 0 3 0 4 0 5 0 6 0 7 0 -d $P0 >/dev/null 2>&1 ||
		bad "tc-bw reset"
	i=0
	while [ "$i" -lt "$N" ]; do
		( "$MLXCLI" $S qosconfig tc-bw "$i" "$(( (i + 1) * 1000 * r ))" -d $P0 >/dev/null \
			2>"$tmp/err.$i"; echo $? >"$tmp/rc.$i" ) &
		i=$((i + 1))
	done
	wait
	grep -L '^0$' "$tmp"/rc.* | while read -r f; do bad "tc-bw round $r: $(basename "$f") exit $(cat "$f")"; done
	check_errs "tc-bw round $r"
	"$MLXCLI" $S -j show qos -d $P0 >"$tmp/qos.json" 2>/dev/null
	# every TC was reset to unlimited (null or 0) and then given a rate
	missing=$(jq '[.ports[0].tcs[] | select(.max_rate_mbps == null or .max_rate_mbps == 0)] | length' \
		"$tmp/qos.json" 2>/dev/null || echo "$N")
	got=$(jq -c '[.ports[0].tcs[].max_rate_mbps]' "$tmp/qos.json" 2>/dev/null)
	[ "$missing" -eq 0 ] && ok "tc-bw round $r: all $N rates kept" ||
		bad "tc-bw round $r: $missing of $N concurrent rate changes lost $got"
	r=$((r + 1))
done

# SR-IOV: one VF each (the sample PF has 4 VFs: two processes per VF, both
# with the same value, and each VF must end with it).  The SR-IOV writes
# hold the device lock across their read-modify-write, and the emulator
# replaces getlink-vf.nl by rename, so no reader sees it empty ("the kernel
# sent no link message") and no update is lost.
rm -f "$tmp"/err.* "$tmp"/rc.*
i=0
while [ "$i" -lt "$N" ]; do
	vf=$((i % 4))
	( "$MLXCLI" $S sriov vf "$vf" set vlan "$((100 + vf))" -d $P0 >/dev/null 2>"$tmp/err.$i"
	  echo $? >"$tmp/rc.$i" ) &
	i=$((i + 1))
done
wait
grep -L '^0$' "$tmp"/rc.* | while read -r f; do bad "sriov: $(basename "$f") exit $(cat "$f")"; done
check_errs "sriov"
"$MLXCLI" $S -j sriov show -d 5e:00.0 >"$tmp/sriov.json" 2>/dev/null
lost=0
for vf in 0 1 2 3; do
	jq -e --argjson vf "$vf" --argjson v "$((100 + vf))" \
		'.pfs[0].vfs[] | select(.vf == $vf) | .vlan == $v' \
		"$tmp/sriov.json" >/dev/null 2>&1 || lost=$((lost + 1))
done
[ "$lost" -eq 0 ] && ok "sriov: all 4 VF settings kept" || bad "sriov: $lost of 4 VF settings lost"

exit $fail

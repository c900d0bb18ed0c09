#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fault injection at the backend boundary (tests/fault/fault-shim.c,
# preloaded): every write command runs on a sample working copy once with
# the shim only counting the calls of each class (open for writing, write,
# read, rename, mkdir) under the working copy, then once per call k = 1..n
# and per error (EIO, EACCES, ENOSPC, EINTR, a short read or write) with
# the k-th call failing.  Each run must end in one of two states, compared
# as a checksum of every file of the working copy but the lock files:
#   - exit 0 and the state of the run without a fault (EINTR retried, or a
#     read whose failure the command survives), or
#   - exit 1 (5 for EACCES/EPERM) with the state from before the command,
#     and an error that names what failed (the file, the parameter or the
#     object) after "mlxcli: error:".
# dump-me-now runs in a dump root of its own: a failed run leaves no
# incident and no temporary folder.  Prints the matrix size.
# Exit 0 pass, 1 fail, 77 skip.

# many small copies: on tmpfs if there is one ($tmp and the state directory
# lib.sh makes)
if [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi
. "$(dirname "$0")/lib.sh"
TOP_BUILDDIR=${TOP_BUILDDIR:-$(pwd)}
SHIM=$TOP_BUILDDIR/tests/fault/fault-shim.so
[ -f "$SHIM" ] || { echo "SKIP: $SHIM not built"; exit 77; }
# Under valgrind (check-valgrind) the preload would wrap valgrind itself.
[ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ] || { echo "SKIP: not under a wrapper"; exit 77; }
# A sanitizer build's runtime wants to be first; the shim has none.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
MLXCLI_CONFIG=/nonexistent/mlxcli.conf
export MLXCLI_CONFIG
runs=0
BAD_SHOW=40             # a broken build fails hundreds of runs: the first 40 say it

P0=enp94s0f0np0
# name | sample | setup (mlxcli args, or -) | command | read-path filter
cat >"$tmp/cmds" <<EOF
dcqcn-set|cx5-ofed|-|qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 20 DcqcnRpgHaiRate 40 DcqcnCnpDscp 26|/ecn/
dcqcn-restore|cx5-ofed|qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 20 DcqcnRpgHaiRate 40|qosconfig dcqcn restore -d $P0|/ecn/
dcqcn-enable|cx5-ofed|-|qosconfig dcqcn enable 5 -d $P0|/ecn/
dcqcn-set-debugfs|cx6dx-upstream|-|qosconfig dcqcn set -d enp59s0f0np0 rp_time_reset 131071 DcqcnCnpPrioMode 1|/cc_params/
dcqcn-prio-debugfs|cx6dx-upstream|qosconfig dcqcn set -d enp59s0f0np0 DcqcnCnpPrioMode 1|qosconfig dcqcn set -d enp59s0f0np0 np_cnp_prio 3 rp_time_reset 100|/cc_params/
trust|cx5-ofed|-|qosconfig trust pcp -d $P0|/netlink/
dscp2prio|cx5-ofed|-|qosconfig dscp2prio set 26 5 10 2 -d $P0|/netlink/
pfc|cx5-ofed|-|qosconfig pfc 3,4 -d $P0|/netlink/
ets|cx5-ofed|-|qosconfig ets prio-tc 3:1 -d $P0|/netlink/
tc-bw|cx5-ofed|-|qosconfig tc-bw 0 1000 1 2000 -d $P0|/netlink/
buffer|cx5-ofed|-|qosconfig buffer prio-buffer 4:1 -d $P0|/netlink/
dcbx|cx5-ofed|-|qosconfig dcbx firmware -d $P0|/netlink/
modify-tc-bw|cx5-ofed|-|modify tc-bw $P0 0 500|/netlink/
sriov-numvfs|cx5-ofed|-|sriov set numvfs 2 --yes -d 5e:00.0|/sriov
sriov-vf|cx5-ofed|-|sriov vf 0 set vlan 10 qos 2 spoofchk on -d $P0|/netlink/
sriov-eswitch|cx5-ofed|-|sriov eswitch switchdev -d 5e:00.0|/netlink/
link-pause|cx5-ofed|-|link set -d $P0 pause rx on tx on --yes|/netlink/
health-set|cx5-ofed|-|health set -d 5e:00.0 tx grace_period 1000 auto_recover off|/netlink/
vlan-add|cx5-ofed|-|vlan add -d $P0 200 name v200 egress-qos-map 3:3|/netlink/
vlan-del|cx5-ofed|-|vlan del -d $P0 100 --yes|/netlink/
EOF

# The full matrix (FAULT_MATRIX_FULL=1: every class, every error) takes
# minutes; make check runs opens for writing and writes with EIO, EACCES
# and a short write.
if [ -n "${FAULT_MATRIX_FULL:-}" ]; then
	errs="EIO EACCES ENOSPC EINTR short" classes="wopen write read rename mkdir"
else
	errs="EIO EACCES short" classes="wopen write"
fi

# run_shim CLASS K ERRNO PATHFILTER ARGS...: mlxcli under the shim.
run_shim() {
	cls=$1 k=$2 e=$3 pf=$4
	shift 4
	rm -f "$tmp/count" "$tmp/log"
	# shellcheck disable=SC2086
	LD_PRELOAD=$SHIM MLXCLI_FAULT_CALL=$cls MLXCLI_FAULT_NTH=$k MLXCLI_FAULT_ERRNO=$e \
		MLXCLI_FAULT_PATH=$pf MLXCLI_FAULT_COUNT=$tmp/count MLXCLI_FAULT_LOG=$tmp/log \
		"$MLXCLI" "$@" >"$tmp/out" 2>"$tmp/err"
}

while IFS='|' read -r name host setup cmd rfilter; do
	wc=$MLXCLI_STATE_DIR/samples/$host
	S="--sample=$host"
	"$MLXCLI" $S sample reset "$host" >/dev/null 2>&1
	"$MLXCLI" $S devices >/dev/null 2>&1 || { bad "$name: no working copy"; continue; }
	# shellcheck disable=SC2086
	[ "$setup" = - ] || "$MLXCLI" $S $setup >/dev/null 2>&1 || { bad "$name: setup failed"; continue; }
	rm -rf "$tmp/pristine"
	cp -a "$wc" "$tmp/pristine"
	# the state of the working copy: every file but the lock files
	before=$(tree_sum "$wc" ! -name '*.lock')
	# shellcheck disable=SC2086
	"$MLXCLI" $S $cmd >/dev/null 2>"$tmp/err" || { bad "$name: fails without a fault: $(cat "$tmp/err")"; continue; }
	after=$(tree_sum "$wc" ! -name '*.lock')
	[ "$before" != "$after" ] || bad "$name: changes nothing without a fault"
	restore() { rm -rf "$wc" && cp -a "$tmp/pristine" "$wc"; }
	cells=0
	for cls in $classes; do
		pf=$wc/
		[ "$cls" = read ] && pf=$rfilter
		restore
		# shellcheck disable=SC2086
		run_shim "$cls" 0 EIO "$pf" $S $cmd
		n=$(cat "$tmp/count" 2>/dev/null || echo 0)
		k=1
		while [ "$k" -le "$n" ]; do
			for e in $errs; do
				{ [ "$e" = short ] && [ "$cls" != read ] && [ "$cls" != write ]; } && continue
				[ "$(tree_sum "$wc" ! -name '*.lock')" = "$before" ] || restore
				# shellcheck disable=SC2086
				run_shim "$cls" "$k" "$e" "$pf" $S $cmd
				rc=$?
				runs=$((runs + 1)) cells=$((cells + 1))
				now=$(tree_sum "$wc" ! -name '*.lock')
				what="$name: $cls #$k/$n $e ($(sed -n "${k}p" "$tmp/log" | cut -d' ' -f3- | sed "s|$wc||"))"
				want=1
				{ [ "$e" = EACCES ] || [ "$e" = EPERM ]; } && want=5
				if [ "$rc" -ge 128 ]; then
					bad "$what: killed by signal $((rc - 128))"
				elif [ "$rc" -eq 0 ]; then
					[ "$now" = "$after" ] || bad "$what: exit 0 but not the state of a clean run"
				elif [ "$rc" -ne "$want" ] && ! { [ "$rc" -eq 1 ] && [ "$e" = EACCES ] && [ "$cls" = read ]; }; then
					bad "$what: exit $rc, want $want: $(head -c 300 "$tmp/err")"
				elif [ "$now" != "$before" ]; then
					bad "$what: exit $rc and the working copy changed (half-written): $(head -c 300 "$tmp/err")"
				elif ! head -1 "$tmp/err" | grep -q '^mlxcli: error: .*\(cannot\|failed\|could not\|error\)'; then
					bad "$what: the message does not say what failed: $(head -c 300 "$tmp/err")"
				fi
			done
			k=$((k + 1))
		done
	done
	restore
	echo "  $name: $cells runs"
done <"$tmp/cmds"

# dump-me-now: a failed incident leaves nothing in the dump root.
for host in cx5-ofed; do
	S="--sample=$host"
	"$MLXCLI" $S sample reset "$host" >/dev/null 2>&1
	dr=$tmp/dmn
	run_dmn() { run_shim "$1" "$2" "$3" "$dr/" $S dump-me-now -d 5e:00.0 --dir "$dr" --reason fault; }
	cells=0
	for cls in $classes rename mkdir; do
		[ "$cls" = read ] && continue
		rm -rf "$dr"
		run_dmn "$cls" 0 EIO
		n=$(cat "$tmp/count" 2>/dev/null || echo 0)
		k=1
		while [ "$k" -le "$n" ]; do
			for e in $errs; do
				[ "$e" = short ] && continue
				rm -rf "$dr"
				run_dmn "$cls" "$k" "$e"
				rc=$?
				runs=$((runs + 1)) cells=$((cells + 1))
				what="dump-me-now: $cls #$k/$n $e ($(sed -n "${k}p" "$tmp/log" | cut -d' ' -f3- | sed "s|$dr||"))"
				left=$(find "$dr" -mindepth 1 -maxdepth 1 -name 'dmn-*' 2>/dev/null | wc -l)
				tmps=$(find "$dr" -mindepth 1 -maxdepth 1 ! -name 'dmn-*' 2>/dev/null | wc -l)
				if [ "$rc" -ge 128 ]; then
					bad "$what: killed by signal $((rc - 128))"
				elif [ "$tmps" -ne 0 ]; then
					bad "$what: exit $rc left a temporary folder: $(ls "$dr")"
				elif [ "$rc" -eq 0 ]; then
					[ "$left" -eq 1 ] || bad "$what: exit 0 with $left incidents"
				elif [ "$left" -ne 0 ]; then
					# documented partial result: an incident with the failed item
					# recorded in its manifest
					m=$(find "$dr" -name manifest.json | head -1)
					grep -q '"error"' "$m" 2>/dev/null || bad "$what: exit $rc left an incident without the error recorded"
				elif ! grep -q '^mlxcli: error: ' "$tmp/err"; then
					bad "$what: exit $rc without an error message: $(head -c 300 "$tmp/err")"
				fi
			done
			# An incident writes a whole snapshot (some 1,500 files): every
			# call of the first 15 (the folder, the first items), then
			# about 10 evenly spaced through the rest (the snapshot, the
			# manifest, the rename), so the matrix stays minutes, not hours.
			if [ "$k" -lt 15 ]; then
				k=$((k + 1))
			else
				step=$((n / 10))
				[ "$step" -ge 1 ] || step=1
				k=$((k + step))
				[ "$k" -gt "$n" ] && [ "$((k - step))" -lt "$n" ] && k=$n
			fi
		done
	done
	echo "  dump-me-now: $cells runs"
done

echo "fault matrix: $runs runs (commands x calls x errors), $nbad failures"
exit $fail

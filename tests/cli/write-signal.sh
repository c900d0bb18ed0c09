#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# All or nothing under signals (issue 26): a SIGINT, SIGTERM or SIGHUP that
# arrives while a write command writes is held until the write engine can
# act on it; it then puts back what the transaction wrote, newest first,
# across subsystems, says so, and exits 130, 143 or 129.  strace delivers
# the signal at the k-th pwrite64/renameat of the run (the syscalls of a
# write to a captured system), so the signal lands between two writes of
# one apply (QoS, DCQCN, SR-IOV numvfs and VF settings, the RDMA CM) or
# inside a numvfs change; every k of the run is tried.  After each, the
# state is the old one byte for byte and no temporary file, VF directory
# put aside or journal is left.
set -u
. "$(dirname "$0")/lib.sh"
need jq strace
# LeakSanitizer cannot run under ptrace (strace): it stops the process
# with a fatal error at exit.  Leaks are the rest of the suite's to find.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; export ASAN_OPTIONS
S=$MLXCLI_SAMPLES_DIR
st() { "$MLXCLI" --sysroot "$tmp/$1" -j state; }
leftovers() { find "$tmp/$1" \( -name '.*.tmp' -o -name '*.removed.*' \) | wc -l; }
# strace cannot trace a wrapper's child the same way under valgrind
[ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ] || { echo "SKIP: under a wrapper"; exit 77; }
# a private runtime directory: the journals of captured systems live there
XDG_RUNTIME_DIR=$tmp/run; export XDG_RUNTIME_DIR
mkdir -m 700 "$XDG_RUNTIME_DIR"

fresh f cx5-ofed
st f >"$tmp/old.json"
# QoS and DCQCN (port 0), SR-IOV: numvfs 0 -> 2 with a VF's settings
# (port 1) and two VFs' settings (port 0), the RDMA CM's ToS (port 0)
jq '.ports[0].pfc.enabled_priorities = [3,4]
	| (.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value) = 7
	| .ports[0].sriov.vfs[1].vlan = 7 | .ports[0].sriov.vfs[3].trusted = false
	| .ports[0].roce.default_roce_tos = 96
	| .ports[1].sriov.num_vfs = 2 | .ports[1].sriov.vfs = [{"vf":1,"vlan":5,"trusted":true}]' \
	"$tmp/old.json" >"$tmp/multi.json"

# how many of the syscalls the signal is delivered at the apply makes
# (strace counts each syscall's invocations apart: when=K is the K-th of
# either)
strace -f -c -o "$tmp/count" -e trace=pwrite64,renameat "$MLXCLI" --sysroot "$tmp/f" apply \
	"$tmp/multi.json" >/dev/null 2>&1 || bad "the apply without a signal"
nren=$(awk '$NF == "renameat" { print $(NF-1) }' "$tmp/count")
npw=$(awk '$NF == "pwrite64" { print $(NF-1) }' "$tmp/count")
[ "${nren:-0}" -ge 10 ] && ok "the apply: ${nren:-0} renameat, ${npw:-0} pwrite64" ||
	bad "the apply: only ${nren:-0} renameat counted"

# the issue's reproduction, exactly
fresh f cx5-ofed
strace -f -o /dev/null -e inject=pwrite64,renameat:signal=INT:when=2 \
	"$MLXCLI" --sysroot "$tmp/f" apply "$tmp/multi.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "SIGINT at the second write of an apply: exit 130" "$rc" 130
grep -q "interrupted (SIGINT)" "$tmp/e" && ok "... says it was interrupted" || bad "message: $(cat "$tmp/e")"
grep -q "put back" "$tmp/e" && ok "... says what was put back" || bad "message: $(cat "$tmp/e")"
check "... the state as before" "$(st f | cmp -s - "$tmp/old.json" && echo same)" same
check "... no leftovers" "$(leftovers f)" 0

# every write of the run, SIGINT, SIGTERM and SIGHUP in turn
held=0 tried=0
for sc in "renameat ${nren:-0}" "pwrite64 ${npw:-0}"; do
	set -- $sc
	k=1
	while [ "$k" -le "$2" ]; do
		for sig in INT TERM HUP; do
			case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
			# a copy whose state held is the old one for the next run
			[ "$held" = "$tried" ] || fresh f cx5-ofed
			strace -f -o /dev/null -e inject=$1:signal=$sig:when=$k \
				"$MLXCLI" --sysroot "$tmp/f" apply "$tmp/multi.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
			tried=$((tried + 1))
			if [ "$rc" = "$want" ] && st f | cmp -s - "$tmp/old.json" && [ "$(leftovers f)" = 0 ] &&
				grep -q "interrupted (SIG$sig)" "$tmp/e" && [ ! -s "$tmp/o" ]; then
				held=$((held + 1))
			else
				bad "SIG$sig at $1 $k of $2: exit $rc (want $want), state $(st f | cmp -s - "$tmp/old.json" && echo old || echo changed), $(leftovers f) leftovers: $(tail -2 "$tmp/e")"
			fi
		done
		k=$((k + 3))
	done
done
check "a signal at every third write ($tried runs): exit 128+N, the old state, nothing left" "$held" "$tried"
check "no journal left behind" "$(find "$XDG_RUNTIME_DIR" -name '*journal*' | wc -l)" 0

# sriov set numvfs 4 -> 2 on cx5-ofed: a signal in the middle of the
# change (VF directories, links, the recorded VF table, config space)
fresh n cx5-ofed
st n >"$tmp/oldn.json"
strace -f -c -o "$tmp/countn" -e trace=renameat "$MLXCLI" --sysroot "$tmp/n" \
	sriov set numvfs 2 --yes -d 5e:00.0 >/dev/null 2>&1 || bad "numvfs without a signal"
totaln=$(awk '$NF == "renameat" { print $(NF-1) }' "$tmp/countn")
fresh n cx5-ofed
k=1 held=0 tried=0
while [ "$k" -le "${totaln:-0}" ]; do
	[ "$held" = "$tried" ] || fresh n cx5-ofed
	strace -f -o /dev/null -e inject=renameat:signal=TERM:when=$k \
		"$MLXCLI" --sysroot "$tmp/n" sriov set numvfs 2 --yes -d 5e:00.0 >"$tmp/o" 2>"$tmp/e"; rc=$?
	tried=$((tried + 1))
	if [ "$rc" = 143 ] && st n | cmp -s - "$tmp/oldn.json" && [ "$(leftovers n)" = 0 ]; then
		held=$((held + 1))
	else
		bad "numvfs, SIGTERM at renameat $k of $totaln: exit $rc, $(leftovers n) leftovers: $(tail -2 "$tmp/e")"
	fi
	k=$((k + 1))
done
check "numvfs 4 -> 2, SIGTERM at each of its $tried writes: exit 143, the old state (the VFs' settings too)" "$held" "$tried"
# the capture is not wedged: a numvfs change still works
"$MLXCLI" --sysroot "$tmp/n" sriov set numvfs 3 --yes -d 5e:00.0 >/dev/null 2>"$tmp/e"
check "a numvfs change after them: exit 0" "$?" 0
finish

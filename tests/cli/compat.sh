#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Windows syntax (cmd/compat.c) against its native equivalent on the
# cx5-ofed sample: each mlx5cmd line and the native line it stands for give
# the same stdout, stderr and exit status, step after step on two working
# copies of the sample (so "set then get" compares the written state too).
# The manuals' en dash (U+2013) and any letter case are taken.
set -u
. "$(dirname "$0")/lib.sh"
set -f
T=$tmp
IF=enp94s0f0np0
EN=$(printf '\342\200\223')
n=0
scen=0

# A fresh pair of working copies for the next scenario.
scenario() {
	scen=$((scen + 1))
	W=$T/w$scen
	N=$T/n$scen
	mkdir -p "$W" "$N"
	echo "# $*"
}

# in_copy STATE OUT WORDS: mlxcli WORDS --sample, in working copy STATE
in_copy() {
	st=$1
	out=$2
	shift 2
	MLXCLI_STATE_DIR=$st "$MLXCLI" "$@" --sample >"$out.out" 2>"$out.err"
	echo $? >"$out.rc"
}

# step "WINDOWS WORDS" "NATIVE WORDS": same stdout, stderr and exit status.
step() {
	n=$((n + 1))
	# shellcheck disable=SC2086
	in_copy "$W" "$T/$n.w" $1
	# shellcheck disable=SC2086
	in_copy "$N" "$T/$n.n" $2
	if cmp -s "$T/$n.w.out" "$T/$n.n.out" && cmp -s "$T/$n.w.err" "$T/$n.n.err" &&
	   cmp -s "$T/$n.w.rc" "$T/$n.n.rc"; then
		ok "$n: mlxcli $1 == mlxcli $2 (exit $(cat "$T/$n.w.rc"))"
	else
		bad "$n: mlxcli $1 (exit $(cat "$T/$n.w.rc")) != mlxcli $2 (exit $(cat "$T/$n.n.rc"))"
		diff "$T/$n.w.out" "$T/$n.n.out" | head -5
		diff "$T/$n.w.err" "$T/$n.n.err" | head -5
	fi
}

# want_rc RC: the last step exited RC (so a pair of equal failures is not
# mistaken for success, nor the reverse)
want_rc() {
	got=$(cat "$T/$n.w.rc")
	[ "$got" = "$1" ] || bad "$n: exit $got, wanted $1"
}

# changed: the last step's stdout differs from step $1's (the write landed)
changed() {
	if cmp -s "$T/$n.w.out" "$T/$1.w.out"; then
		bad "$n: output same as step $1: the write did not happen"
	fi
}

scenario get
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
want_rc 0
grep -q 'DcqcnRpgAiRate: ' "$T/$n.w.out" || bad "$n: no -Get block"
step "${EN}Qosconfig ${EN}Dcqcn ${EN}Name $IF ${EN}Get" "qosconfig dcqcn get -d $IF"
want_rc 0
step "-QOSCONFIG -dcqcn -name $IF -get" "qosconfig dcqcn get -d $IF"
step "-Qosconfig -Dcqcn -Get" "qosconfig dcqcn get"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get -j" "qosconfig dcqcn get -d $IF -j"

scenario set then get
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
first=$n
step "-Qosconfig -Dcqcn -Name $IF -Set -DcqcnRpgAiRate 7 -DcqcnCnpDscp 3" \
	"qosconfig dcqcn set -d $IF DcqcnRpgAiRate 7 DcqcnCnpDscp 3"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
changed $first
step "${EN}Qosconfig ${EN}Dcqcn ${EN}Name $IF ${EN}Set ${EN}DcqcnRpgHaiRate 200" \
	"qosconfig dcqcn set -d $IF DcqcnRpgHaiRate 200"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
grep -q 'DcqcnRpgHaiRate: 200' "$T/$n.w.out" || bad "$n: HaiRate not 200"
# A bad value: the same refusal, nothing written.
step "-Qosconfig -Dcqcn -Name $IF -Set -DcqcnRpgThreshold 99" \
	"qosconfig dcqcn set -d $IF DcqcnRpgThreshold 99"
want_rc 2

scenario enable and disable a priority
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
first=$n
step "-Qosconfig -Dcqcn -Name $IF -Disable 3" "qosconfig dcqcn disable -d $IF 3"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
changed $first
step "-Qosconfig -Dcqcn -Name $IF -Enable 5" "qosconfig dcqcn enable -d $IF 5"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
step "-Qosconfig -Dcqcn -Name $IF ${EN}Enable" "qosconfig dcqcn enable -d $IF"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
step "-Qosconfig -Dcqcn -Name $IF -Disable" "qosconfig dcqcn disable -d $IF"
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
step "-Qosconfig -Dcqcn -Name $IF -Enable 9" "qosconfig dcqcn enable -d $IF 9"
want_rc 2

scenario defaults and restore
step "-Qosconfig -Dcqcn -Name $IF -Defaults" "qosconfig dcqcn defaults -d $IF"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Set -DcqcnRpgAiRate 7" "qosconfig dcqcn set -d $IF DcqcnRpgAiRate 7"
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
first=$n
# The manual prints -Restore without -Qosconfig; both forms are taken.
step "-Dcqcn -Name $IF -Restore" "qosconfig dcqcn restore -d $IF"
want_rc 0
step "-Qosconfig -Dcqcn -Name $IF -Get" "qosconfig dcqcn get -d $IF"
changed $first
step "${EN}Qosconfig ${EN}Dcqcn ${EN}Name $IF ${EN}Restore" "qosconfig dcqcn restore -d $IF"

scenario default untagged priority
step "-QoSConfig -DefaultUntaggedPriority -Name $IF -Get" \
	"qosconfig default-untagged-priority get -d $IF"
step "-QoSConfig -DefaultUntaggedPriority -Name $IF -Set 3" \
	"qosconfig default-untagged-priority set -d $IF 3"
step "${EN}Qosconfig ${EN}DefaultUntaggedPriority ${EN}Name $IF ${EN}Set 3" \
	"qosconfig default-untagged-priority set -d $IF 3"
step "-QoSConfig -DefaultUntaggedPriority -Name $IF -Set 8" \
	"qosconfig default-untagged-priority set -d $IF 8"
want_rc 2

scenario mistakes
n=$((n + 1))
in_copy "$W" "$T/$n.w" -Qosconfig -Dcqcn -Name $IF -Gett
if [ "$(cat "$T/$n.w.rc")" = 2 ] && grep -q "did you mean '-Get'" "$T/$n.w.err"; then
	ok "$n: -Gett: exit 2, did you mean -Get"
else
	bad "$n: -Gett: exit $(cat "$T/$n.w.rc"): $(cat "$T/$n.w.err")"
fi
n=$((n + 1))
in_copy "$W" "$T/$n.w" "${EN}Qosconfg" -Dcqcn -Get
if [ "$(cat "$T/$n.w.rc")" = 2 ] && grep -q "did you mean '-Qosconfig'" "$T/$n.w.err"; then
	ok "$n: en-dash -Qosconfg: exit 2, did you mean -Qosconfig"
else
	bad "$n: en-dash -Qosconfg: exit $(cat "$T/$n.w.rc"): $(cat "$T/$n.w.err")"
fi

# mlxtool's "show qos B D F": the native command when there is one, else a
# clear "not available yet" (exit 2).
scenario mlxtool show qos
if "$MLXCLI" help show qos >/dev/null 2>&1; then
	step "show qos 94 0 0" "show qos -d 0000:5e:00.0"
else
	n=$((n + 1))
	in_copy "$W" "$T/$n.w" show qos 94 0 0
	if [ "$(cat "$T/$n.w.rc")" = 2 ] && grep -q "not available yet" "$T/$n.w.err"; then
		ok "$n: show qos 94 0 0: not available yet (exit 2)"
	else
		bad "$n: show qos 94 0 0: exit $(cat "$T/$n.w.rc"): $(cat "$T/$n.w.err")"
	fi
fi

# mlxtool's "<sub-tool> help <argument>" (seed 002 §1.1: "shows details about
# the sub-tool and its arguments with a usage example") is help's own
scenario mlxtool sub-tool help argument
step "dbg help mstdump" "help dbg mstdump"
want_rc 0
step "show help perfstats" "help show perfstats"
want_rc 0
step "modify help tc-bw" "help modify tc-bw"
want_rc 0

# mlxtool's "show nd connections" flags (seed 002 §1.3.3): -p is its process
# id there, not the global --pretty; -t (fetch every T seconds, with -e) has
# no Linux meaning: the kernel gives every QP in one dump
scenario mlxtool show nd connections
step "show nd connections -p 5926" "show nd connections --pid 5926"
want_rc 0
grep -q 5926/rping "$T/$n.w.out" || bad "$n: -p 5926 did not list pid 5926's QP"
grep -q 3141/ib_write_bw "$T/$n.w.out" && bad "$n: -p 5926 listed another pid's QP"
step "show nd connections -e -p 5927 -n 10" "show nd connections -e --pid 5927 -n 10"
want_rc 0
step "show nd connections -a 192.0.2.10 -p 5926 -j" "show nd connections -a 192.0.2.10 --pid 5926 -j"
want_rc 0
for t in "-e -t 2" "-e --time 2"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	in_copy "$W" "$T/$n.w" show nd connections $t
	if [ "$(cat "$T/$n.w.rc")" = 4 ] && [ ! -s "$T/$n.w.out" ] &&
	   grep -q "^mlxcli: error: mlxtool's 'show nd connections $t': .*one dump" "$T/$n.w.err"; then
		ok "$n: show nd connections $t: exit 4, what Linux has"
	else
		bad "$n: show nd connections $t: exit $(cat "$T/$n.w.rc"): $(cat "$T/$n.w.err")"
	fi
done
echo "$n checks"
finish

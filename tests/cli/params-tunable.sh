#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 27's params sources on both sample hosts: the PFC storm prevention
# timeout (the ethtool tunable, replayed from ioctl-gtunable-3.bin and
# written through the STUNABLE emulator, lib/emul/tunable-emul.c) and
# threaded NAPI (/sys/class/net/IF/threaded): show (text and JSON), set
# with --dry-run, auto (mlx5 stores 100 ms), mlx5's range (exit 2, nothing
# written), a device without them (exit 4), reset, and state -> apply ->
# diff round trips between copies.
set -u
. "$(dirname "$0")/lib.sh"
need jq

st() { "$MLXCLI" --sysroot "$tmp/$1" -j state; }
knob() { "$MLXCLI" --sysroot "$tmp/$1" -j params -d "$2" "$3" | jq -c '.params[0].knobs[0].current'; }

# ---- show: text and JSON, both samples
out=$("$MLXCLI" --sample=cx5-ofed -j params -d enp94s0f0np0 pfc_prevention_tout_msec threaded) ||
	bad "cx5: params -j"
check "cx5 PF: the timeout and threaded, typed, with unit, source and Windows key" \
	"$(echo "$out" | jq -c '[.params[0].knobs[] | [.name, .current, .unit, .source, .applies, .windows_key]]')" \
	'[["pfc_prevention_tout_msec",100,"milliseconds","tunable","runtime","DeviceRxStallTimeout"],["threaded",false,null,"napi","runtime","ThreadDpcEnable; AsyncReceiveIndicate (1: threaded DPC)"]]'
out=$("$MLXCLI" --sample=cx6dx-upstream -j params -d enp59s0f1np1 --source tunable,napi) ||
	bad "cx6dx: params --source tunable,napi"
check "cx6dx PF: off (0) and threaded off, the only knobs of those sources" \
	"$(echo "$out" | jq -c '[.params[0].knobs[] | [.name, .current]]')" \
	'[["pfc_prevention_tout_msec",0],["threaded",false]]'
"$MLXCLI" --sample=cx6dx-upstream params -d enp59s0f0np0 pfc_prevention_tout_msec >"$tmp/t" ||
	bad "cx6dx: params (text)"
grep -Eq '^pfc_prevention_tout_msec +0 +\? +0-65535 +milliseconds +tunable +runtime +DeviceRxStallTimeout$' "$tmp/t" &&
	ok "cx6dx text: the timeout's row" || bad "cx6dx text: $(cat "$tmp/t")"
out=$("$MLXCLI" --sample=cx5-ofed -j params -d enp94s0f2 --source tunable,napi) || bad "cx5 VF"
check "cx5 VF: no timeout (the driver's EOPNOTSUPP), threaded there" \
	"$(echo "$out" | jq -c '[.params[0].knobs[] | .name]')" '["threaded"]'

# ---- set on both samples: dry run, auto, a value, threaded on
for s in cx5-ofed:enp94s0f0np0:100 cx6dx-upstream:enp59s0f0np0:0; do
	sample=${s%%:*} rest=${s#*:}
	ifn=${rest%%:*} old=${rest#*:}
	fresh w "$sample"
	tree_sum "$tmp/w" >"$tmp/sum0"
	run dry --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=250 threaded=on --dry-run
	check "$sample: --dry-run exit 0" "$rc" 0
	check "$sample: --dry-run says old -> new" "$(grep -c -e "pfc_prevention_tout_msec: $old -> 250" -e 'threaded: off -> on' "$tmp/dry.out")" 2
	tree_sum "$tmp/w" | cmp -s - "$tmp/sum0" && ok "$sample: --dry-run wrote nothing" ||
		bad "$sample: --dry-run changed the capture"
	run set --sysroot "$tmp/w" -j params set -d "$ifn" pfc_prevention_tout_msec=250 threaded=on
	check "$sample: set exit 0, the change records" "$rc $(jq -c '[.changes[] | [.setting, .old, .new, .unit]]' "$tmp/set.out")" \
		"0 [[\"pfc_prevention_tout_msec\",$old,250,\"milliseconds\"],[\"threaded\",false,true,null]]"
	check "$sample: read back" "$(knob w "$ifn" pfc_prevention_tout_msec) $(knob w "$ifn" threaded)" "250 true"
	check "$sample: the threaded file as the kernel writes it" \
		"$(cat "$tmp/w"/sys/class/net/"$ifn"/threaded)" 1
	run auto --sysroot "$tmp/w" -j params set -d "$ifn" pfc_prevention_tout_msec=auto
	# mlx5 writes the same watermarks for auto and for 100 ms, and reads
	# back 100: auto is planned as 100, so a second auto is no change (an
	# apply of a state saying auto must not write on every run)
	check "$sample: auto: exit 0, planned as mlx5's 100 ms with the note" \
		"$rc $(jq -c '[.changes[] | [.old, .new, .note]]' "$tmp/auto.out")" \
		'0 [[250,100,"auto: mlx5'"'"'s auto is 100 ms"]]'
	check "$sample: auto reads back as mlx5's 100 ms" "$(knob w "$ifn" pfc_prevention_tout_msec)" 100
	run auto2 --sysroot "$tmp/w" -j params set -d "$ifn" pfc_prevention_tout_msec=auto
	check "$sample: auto again: nothing to change" "$rc $(jq -c '[.changes[].changed]' "$tmp/auto2.out")" "0 [false]"
	run auto3 --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=auto
	check "$sample: auto again, text: unchanged, and why" "$(cat "$tmp/auto3.out")" \
		"pfc_prevention_tout_msec: 100 -> 100 (unchanged; auto: mlx5's auto is 100 ms)"
	run off --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=off
	check "$sample: off: exit 0, 0" "$rc $(knob w "$ifn" pfc_prevention_tout_msec)" "0 0"
	# mlx5's range: 1..79, above 8000 (but 65535); out of a u16; not a word
	tree_sum "$tmp/w" >"$tmp/sum1"
	for v in 79 1 8001 65534; do
		run r --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=$v
		check "$sample: $v is outside mlx5's 0, 80..8000, auto: exit 2" "$rc" 2
	done
	grep -q "is not mlx5's: 0 (off), 80..8000 ms, or auto" "$tmp/r.err" && ok "$sample: the range in the message" ||
		bad "$sample: message: $(cat "$tmp/r.err")"
	run r --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=65536
	check "$sample: 65536: exit 2" "$rc" 2
	run r --sysroot "$tmp/w" params set -d "$ifn" pfc_prevention_tout_msec=soon
	check "$sample: 'soon': exit 2" "$rc" 2
	grep -q "it takes auto, off or milliseconds" "$tmp/r.err" && ok "$sample: says what it takes" ||
		bad "$sample: $(cat "$tmp/r.err")"
	run r --sysroot "$tmp/w" params set -d "$ifn" threaded=2
	check "$sample: threaded=2: exit 2" "$rc" 2
	tree_sum "$tmp/w" | cmp -s - "$tmp/sum1" && ok "$sample: the refused values wrote nothing" ||
		bad "$sample: a refused value changed the capture"
	# threaded: reset to the default (off, mlx5's and the kernel's)
	run rs --sysroot "$tmp/w" params reset -d "$ifn" threaded
	check "$sample: reset threaded: exit 0, off" "$rc $(knob w "$ifn" threaded)" "0 false"
	run rs --sysroot "$tmp/w" params reset -d "$ifn" pfc_prevention_tout_msec
	check "$sample: reset of the timeout: its default is unknown, exit 4" "$rc" 4
done

# ---- not supported: exit 4 with why
fresh w cx5-ofed
run ns --sysroot "$tmp/w" params set -d enp94s0f2 pfc_prevention_tout_msec=100
check "cx5 VF: the timeout: exit 4" "$rc" 4
grep -q "has no PFC storm prevention timeout: its driver answers ETHTOOL_GTUNABLE pfc-prevention-tout with 'Operation not supported'" "$tmp/ns.err" &&
	ok "cx5 VF: the message says why" || bad "cx5 VF: $(cat "$tmp/ns.err")"
fresh d cx6dx-upstream
printf '0x1002\n' >"$tmp/d/sys/class/net/enp59s0f1np1/flags"     # admin down: no NAPI
run ns --sysroot "$tmp/d" params set -d enp59s0f1np1 threaded=on
# the kernel refuses the write itself (modify_napi_threaded): a first
# write the driver refuses as not supported is exit 4 (cmd/cli-write.c
# cli_txn_exit), with the driver's reason
check "cx6dx port down: threaded: the write refused, exit 4" "$rc" 4
grep -q "the device has no NAPI instance now" "$tmp/ns.err" && ok "cx6dx port down: says why" ||
	bad "cx6dx port down: $(cat "$tmp/ns.err")"
check "cx6dx port down: nothing written" "$(cat "$tmp/d/sys/class/net/enp59s0f1np1/threaded")" 0

# ---- state -> apply -> diff: a changed copy's state applied to a pristine one
for s in cx5-ofed:enp94s0f1np1 cx6dx-upstream:enp59s0f1np1; do
	sample=${s%%:*} ifn=${s#*:}
	fresh a "$sample"
	fresh b "$sample"
	"$MLXCLI" --sysroot "$tmp/a" params set -d "$ifn" pfc_prevention_tout_msec=4000 threaded=on >/dev/null ||
		bad "$sample: set on a"
	st a >"$tmp/a.json"
	check "$sample: state has the values" \
		"$(jq -c --arg n "$ifn" '.ports[] | select(.netdev == $n) | .params | [.pfc_prevention_tout_msec, .threaded]' "$tmp/a.json")" \
		'[4000,true]'
	st b >"$tmp/b.json"
	"$MLXCLI" -j diff "$tmp/b.json" "$tmp/a.json" >"$tmp/d.json"
	check "$sample: diff names both settings" \
		"$(jq -c '[.. | strings | select(test("params\\.(pfc_prevention_tout_msec|threaded)"))] | unique | length' "$tmp/d.json")" 2
	run ap --sysroot "$tmp/b" -j apply "$tmp/a.json"
	check "$sample: apply: exit 0, the two changes" \
		"$rc $(jq -c '[.changes[] | select(.subsystem == "params") | [.setting, .new]]' "$tmp/ap.out")" \
		'0 [["pfc_prevention_tout_msec",4000],["threaded",true]]'
	st b >"$tmp/b2.json"
	"$MLXCLI" -j diff "$tmp/b2.json" "$tmp/a.json" >"$tmp/d2.json"
	check "$sample: diff after apply: nothing differs" \
		"$(jq -c '[.. | strings | select(test("params\\."))] | length' "$tmp/d2.json")" 0
	run ap2 --sysroot "$tmp/b" -j apply "$tmp/a.json"
	check "$sample: a second apply changes nothing" "$rc $(jq -c .changed "$tmp/ap2.out")" "0 false"
	# a desired state mlx5 refuses: exit 2 with the path, nothing written
	jq --arg n "$ifn" '(.ports[] | select(.netdev == $n) | .params.pfc_prevention_tout_msec) = 50' \
		"$tmp/a.json" >"$tmp/bad.json"
	tree_sum "$tmp/b" >"$tmp/sumb"
	run ab --sysroot "$tmp/b" apply "$tmp/bad.json"
	check "$sample: apply of 50 ms: exit 2" "$rc" 2
	tree_sum "$tmp/b" | cmp -s - "$tmp/sumb" && ok "$sample: apply of 50 ms wrote nothing" ||
		bad "$sample: apply of 50 ms changed the capture"
done

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli apply (issue 19), on writable copies of the sample hosts:
#  - the round trip: the state of a copy changed by the write verbs, applied
#    to a pristine copy, gives the same state (mlxcli diff empty);
#  - a second apply changes nothing ("changed": false, exit 0);
#  - --check and --dry-run write nothing and show the plan;
#  - bad files exit 2 naming the JSON path, nothing written;
#  - a port selector ("match") and a port that is not here (exit 3);
#  - a failure injected in the second subsystem (DCQCN, after QoS was
#    written) leaves the old state (tests/fault/fault-shim.c);
#  - the lint gate: a plan leaving a show qos --check error is refused
#    (exit 1, nothing written), --force applies it.
set -u
. "$(dirname "$0")/lib.sh"
need jq
S=$MLXCLI_SAMPLES_DIR
same() { "$MLXCLI" diff "$1" "$2" >"$tmp/same.out" 2>&1; }

# ---- the round trip, on both sample hosts
fresh host cx5-ofed
w() { "$MLXCLI" --sysroot "$tmp/host" "$@" >/dev/null 2>&1 || bad "write: $*"; }
w qosconfig pfc -d enp94s0f0np0 3,4
w qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 7
w qosconfig trust -d enp94s0f1np1 pcp
w qosconfig ets -d enp94s0f0np0 bw 0:10 1:10 2:10 3:60 4:5 5:5
"$MLXCLI" --sysroot "$tmp/host" -j state >"$tmp/want.json" || bad "state -j"
fresh pristine cx5-ofed
same "$tmp/host" "$tmp/pristine"; check "the changed copy differs from a pristine one" "$?" 1

"$MLXCLI" --sysroot "$tmp/pristine" -j apply --check "$tmp/want.json" >"$tmp/c.json"; rc=$?
check "--check: exit 0" "$rc" 0
check "--check: dry_run, changed" "$(jq -c '[.dry_run, .changed]' "$tmp/c.json")" '[true,true]'
check "--check: the plan, each change with its port" \
	"$(jq -c '[.changes[] | [.pci_address, .netdev, .setting]]' "$tmp/c.json")" \
	'[["0000:5e:00.0","enp94s0f0np0","tc_bw"],["0000:5e:00.0","enp94s0f0np0","pfc"],["0000:5e:00.1","enp94s0f1np1","dscp2prio"],["0000:5e:00.1","enp94s0f1np1","trust"],["0000:5e:00.0","enp94s0f0np0","rpg_ai_rate"]]'
same "$S/cx5-ofed" "$tmp/pristine"; check "--check wrote nothing" "$?" 0
# --diff: the plan as the unified diff `mlxcli diff` prints between the two
"$MLXCLI" --sysroot "$tmp/pristine" apply --diff "$tmp/want.json" >"$tmp/d.txt"; rc=$?
check "--diff: exit 0" "$rc" 0
check "--diff: headers" "$(head -2 "$tmp/d.txt" | tr '\n' ' ')" "--- current +++ planned "
"$MLXCLI" diff "$tmp/pristine" "$tmp/host" >"$tmp/dd.txt"
check "--diff: the lines mlxcli diff prints for the same change" "$(tail -n +3 "$tmp/d.txt")" \
	"$(tail -n +3 "$tmp/dd.txt")"
check "--diff -j: changed, the differences" \
	"$("$MLXCLI" --sysroot "$tmp/pristine" -j apply --diff "$tmp/want.json" | jq -c '[.changed, ([.differences[] | select(.setting == "dcqcn.rp.rpg_ai_rate") | [.old, .new]])]')" \
	'[true,[[5,7]]]'
same "$S/cx5-ofed" "$tmp/pristine"; check "--diff wrote nothing" "$?" 0
"$MLXCLI" --sysroot "$tmp/pristine" -n apply "$tmp/want.json" >/dev/null 2>&1
same "$S/cx5-ofed" "$tmp/pristine"; check "--dry-run wrote nothing" "$?" 0

"$MLXCLI" --sysroot "$tmp/pristine" -j apply "$tmp/want.json" >"$tmp/a.json"; rc=$?
check "apply: exit 0" "$rc" 0
check "apply: changed, not a dry run" "$(jq -c '[.changed, .dry_run, (.changes | length)]' "$tmp/a.json")" '[true,false,5]'
check "apply: old and new of rpg_ai_rate" \
	"$(jq -c '.changes[] | select(.setting == "rpg_ai_rate") | [.old, .new, .changed]' "$tmp/a.json")" '[5,7,true]'
same "$tmp/host" "$tmp/pristine"; check "round trip: the state applied is the state (diff empty)" "$?" 0
"$MLXCLI" --sysroot "$tmp/pristine" -j apply "$tmp/want.json" >"$tmp/b.json"; rc=$?
check "second apply: exit 0" "$rc" 0
check "second apply: changed false, no changes" "$(jq -c '[.changed, .changes]' "$tmp/b.json")" '[false,[]]'
check "second apply: text says so" "$("$MLXCLI" --sysroot "$tmp/pristine" apply "$tmp/want.json")" \
	"no change: the host already matches the file"

# a state applied to itself changes nothing, on the other layout too
fresh up cx6dx-upstream
"$MLXCLI" --sysroot "$tmp/up" -j state >"$tmp/up.json"
check "cx6dx-upstream: its own state changes nothing" \
	"$("$MLXCLI" --sysroot "$tmp/up" -j apply "$tmp/up.json" | jq -c .changed)" false
jq '.ports[0].dcqcn.rp.parameters |= map(if .name == "rpg_ai_rate" then .value = 9 else . end)' \
	"$tmp/up.json" >"$tmp/up2.json"
"$MLXCLI" --sysroot "$tmp/up" -j apply "$tmp/up2.json" >"$tmp/u.json" || bad "cx6dx-upstream: apply"
check "cx6dx-upstream: debugfs parameter applied" \
	"$("$MLXCLI" --sysroot "$tmp/up" -j state | jq -c '.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value')" 9

# ---- only what FILE names: a partial file, ports by selector
fresh sel cx5-ofed
cat >"$tmp/sel.json" <<'J'
{"ports": [{"match": {"product": "ConnectX-5", "function": "pf"}, "pfc": {"enabled_priorities": [3]}}]}
J
"$MLXCLI" --sysroot "$tmp/sel" -j apply "$tmp/sel.json" >"$tmp/s.json"; rc=$?
check "match selector: exit 0" "$rc" 0
check "match selector: both PFs, pfc only" \
	"$(jq -c '[.changes[] | [.pci_address, .setting, .new]]' "$tmp/s.json")" \
	'[["0000:5e:00.0","pfc",[3]],["0000:5e:00.1","pfc",[3]]]'
check "match: a product not here selects nothing" \
	"$(echo '{"ports":[{"match":{"product":"ConnectX-7"},"trust":"pcp"}]}' >"$tmp/x.json"; "$MLXCLI" --sysroot "$tmp/sel" -j apply "$tmp/x.json" | jq -c .changed)" false
echo '{"ports":[{"pci_address":"0000:99:00.0","trust":"pcp"}]}' >"$tmp/x.json"
"$MLXCLI" --sysroot "$tmp/sel" apply "$tmp/x.json" >/dev/null 2>"$tmp/e"; rc=$?
check "a port not on this host: exit 3" "$rc" 3
grep -q "0000:99:00.0" "$tmp/e" && ok "... named" || bad "no address in: $(cat "$tmp/e")"

# ---- SR-IOV: a numvfs change that takes VFs away needs --yes (exit 2, nothing
# written); apply-sriov.sh tests the rest
jq '.ports[0].sriov.num_vfs = 2' "$tmp/want.json" >"$tmp/sr.json"
"$MLXCLI" --sysroot "$tmp/sel" apply "$tmp/sr.json" >/dev/null 2>"$tmp/e"; rc=$?
check "numvfs 4 -> 2 without --yes: exit 2" "$rc" 2
grep -q "ports\[0\].sriov.num_vfs: 4 -> 2 .* takes its 4 VFs away" "$tmp/e" && ok "... says what it loses" ||
	bad "sriov: $(cat "$tmp/e")"

# ---- a directory (the boot unit's /etc/mlxcli/state.d): its *.json files
# in name order, all validated first, applied as one plan
fresh dir cx5-ofed
mkdir "$tmp/sd"
echo '{"ports":[{"netdev":"enp94s0f0np0","pfc":{"enabled_priorities":[3]}}]}' >"$tmp/sd/10-a.json"
echo '{"ports":[{"netdev":"enp94s0f1np1","pfc":{"enabled_priorities":[3,5]}}]}' >"$tmp/sd/20-b.json"
echo 'not json' >"$tmp/sd/README"
check "directory: both files applied" \
	"$("$MLXCLI" --sysroot "$tmp/dir" -j apply "$tmp/sd" | jq -c '[.changes[] | [.netdev, .new]]')" \
	'[["enp94s0f0np0",[3]],["enp94s0f1np1",[3,5]]]'
echo '{"ports":[{"netdev":"enp94s0f0np0","pfc":{"enabled_priorities":[4]}}]}' >"$tmp/sd/10-a.json"
echo '{"ports":[{"netdev":"enp94s0f1np1","pfcc":{}}]}' >"$tmp/sd/30-c.json"
"$MLXCLI" --sysroot "$tmp/dir" apply "$tmp/sd" >/dev/null 2>"$tmp/e"; rc=$?
check "directory with a bad file: exit 2" "$rc" 2
grep -q "30-c.json: ports\[0\]: unknown key 'pfcc'" "$tmp/e" && ok "... names the file and the path" || bad "dir: $(cat "$tmp/e")"
check "directory with a bad file: the good one not applied either" \
	"$("$MLXCLI" --sysroot "$tmp/dir" -j state | jq -c '.ports[0].pfc.enabled_priorities')" '[3]'
unit=$TOP_BUILDDIR/etc/mlxcli-apply.service
if [ -r "$unit" ] && command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|^ExecStart=[^ ]*|ExecStart=$MLXCLI_REAL|" "$unit" >"$tmp/mlxcli-apply.service"
	if systemd-analyze verify "$tmp/mlxcli-apply.service" 2>&1 | grep -v "man mlxcli-state" | grep -q .; then
		bad "systemd-analyze verify: $(systemd-analyze verify "$tmp/mlxcli-apply.service" 2>&1)"
	else
		ok "the boot unit verifies"
	fi
	grep -q "apply /etc/mlxcli/state.d$" "$unit" && ok "the unit applies /etc/mlxcli/state.d" || bad "unit ExecStart"
else
	echo "# SKIP the boot unit: not built or no systemd-analyze"
fi

# ---- bad files: exit 2, the JSON path, nothing written
fresh badh cx5-ofed
badfile() {
	printf '%s\n' "$2" >"$tmp/bad.json"
	"$MLXCLI" --sysroot "$tmp/badh" apply "$tmp/bad.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "bad file ($1): exit 2" "$rc" 2
	grep -qF "$3" "$tmp/e" && ok "bad file ($1): names $3" || bad "bad file ($1): '$3' not in: $(cat "$tmp/e")"
	check "bad file ($1): nothing on stdout" "$(cat "$tmp/o")" ""
}
# a valid first port: nothing of it is written either
P0='{"pci_address":"0000:5e:00.0","pfc":{"enabled_priorities":[1]}}'
badfile "unknown key" "{\"ports\":[$P0,{\"netdev\":\"enp94s0f1np1\",\"pfcc\":{}}]}" "ports[1]: unknown key 'pfcc'"
badfile "wrong type" "{\"ports\":[$P0,{\"netdev\":\"enp94s0f1np1\",\"trust\":3}]}" "ports[1].trust: expected a string"
badfile "out of range" "{\"ports\":[$P0,{\"netdev\":\"enp94s0f1np1\",\"pfc\":{\"enabled_priorities\":[2,9]}}]}" "ports[1].pfc.enabled_priorities[1]: 9 is out of range (0-7)"
badfile "dcqcn range" "{\"ports\":[$P0,{\"netdev\":\"enp94s0f1np1\",\"dcqcn\":{\"rp\":{\"parameters\":[{\"name\":\"rpg_gd\",\"value\":99}]}}}]}" "ports[1].dcqcn.rp.parameters[0].value"
badfile "dcqcn name" "{\"ports\":[{\"netdev\":\"enp94s0f1np1\",\"dcqcn\":{\"np\":{\"parameters\":[{\"name\":\"rpg_gd\",\"value\":1}]}}}]}" "ports[0].dcqcn.np.parameters[0]: no DCQCN parameter 'rpg_gd'"
badfile "tsa word" "{\"ports\":[{\"netdev\":\"enp94s0f1np1\",\"tcs\":[{\"tc\":0,\"tsa\":\"fair\"}]}]}" "ports[0].tcs[0].tsa"
badfile "no port named" '{"ports":[{"trust":"pcp"}]}' "ports[0]: names no port"
badfile "top level" '{"ports":[],"hosts":1}' "unknown key 'hosts'"
badfile "not JSON" '{"ports": [' "bad.json: line"
badfile "ETS shares (plan)" "{\"ports\":[$P0,{\"netdev\":\"enp94s0f1np1\",\"tcs\":[{\"tc\":0,\"bandwidth_pct\":90}]}]}" "ports[1].tcs"
same "$S/cx5-ofed" "$tmp/badh"; check "bad files: nothing written" "$?" 0

# ---- all or nothing: DCQCN (the second subsystem) fails after QoS was written
SHIM=$TOP_BUILDDIR/tests/fault/fault-shim.so
if [ -r "$SHIM" ] && [ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ]; then
	fresh f cx5-ofed
	# an ASan build: the shim is preloaded before its runtime, on purpose
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	LD_PRELOAD=$SHIM MLXCLI_FAULT_CALL=wopen MLXCLI_FAULT_NTH=1 MLXCLI_FAULT_ERRNO=EIO \
		MLXCLI_FAULT_PATH=rpg_ai_rate "$MLXCLI" --sysroot "$tmp/f" -j apply "$tmp/want.json" \
		>"$tmp/o" 2>"$tmp/e"; rc=$?
	check "fault in DCQCN: exit 1" "$rc" 1
	check "fault in DCQCN: nothing on stdout" "$(cat "$tmp/o")" ""
	grep -q "was put back: nothing was changed" "$tmp/e" && ok "fault in DCQCN: says the QoS changes were put back" ||
		bad "fault: no put-back message: $(cat "$tmp/e")"
	same "$S/cx5-ofed" "$tmp/f"; check "fault in DCQCN: the old state (QoS put back)" "$?" 0
else
	echo "# SKIP fault injection: $SHIM not built, or under a wrapper (valgrind)"
fi

# ---- the lint gate
fresh l cx5-ofed
"$MLXCLI" --sysroot "$tmp/l" -j state | jq '.ports[0].pfc.enabled_priorities = []' >"$tmp/nopfc.json"
"$MLXCLI" --sysroot "$tmp/l" apply "$tmp/nopfc.json" >/dev/null 2>"$tmp/e"; rc=$?
check "lint error after the plan: refused, exit 1" "$rc" 1
grep -q "pfc-off-roce-prio" "$tmp/e" && ok "lint: names the rule" || bad "lint: $(cat "$tmp/e")"
same "$S/cx5-ofed" "$tmp/l"; check "lint refusal: nothing written" "$?" 0
"$MLXCLI" --sysroot "$tmp/l" -j apply --force "$tmp/nopfc.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "--force: applied, exit 0" "$rc" 0
check "--force: changed" "$(jq -c .changed "$tmp/o")" true
grep -q "applied anyway" "$tmp/e" && ok "--force: warns" || bad "--force: no warning"
check "--force: PFC off" "$("$MLXCLI" --sysroot "$tmp/l" -j state | jq -c '.ports[0].pfc.enabled_priorities')" '[]'

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One validator per setting, whatever path sets it (issue 26's settings
# model; issue 29 item 5, issue 24's roce_mode), and one rule for a port a
# desired-state file names twice (issue 25 item 1), on writable copies of
# cx5-ofed:
#  - a multicast or broadcast VF MAC, a DCQCN parameter given twice, a PFC
#    priority listed twice: exit 2 in apply as in the write verbs, nothing
#    written;
#  - params set roce_mode: the kernel's two names and the Windows values
#    (1, 2), anything else exit 2 before any write; roce_tos 0-255; apply's
#    roce section takes the same;
#  - a port named twice (by netdev and by address, or by a selector and an
#    address): the entries are merged in file order, so one write, and
#    --check, --diff and apply agree; a second apply changes nothing;
#  - apply's messages for an empty address, a VF's address, a missing file.
set -u
. "$(dirname "$0")/lib.sh"
need jq
st() { "$MLXCLI" --sysroot "$tmp/c" -j state; }
fresh c cx5-ofed
st >"$tmp/before.json"

# ---- one validator per setting: apply refuses what the write verbs refuse
badfile() {   # NAME JSON TEXT
	printf '%s\n' "$2" >"$tmp/bad.json"
	"$MLXCLI" --sysroot "$tmp/c" apply "$tmp/bad.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "apply, $1: exit 2" "$rc" 2
	grep -qF -- "$3" "$tmp/e" && ok "apply, $1: says $3" || bad "apply, $1: $(cat "$tmp/e")"
}
P='{"ports":[{"pci_address":"0000:5e:00.0",'
badfile "multicast VF MAC" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"mac\":\"01:00:5e:00:00:01\"}]}}]}" \
	"ports[0].sriov.vfs[0].mac: a multicast address cannot be a VF's address"
badfile "broadcast VF MAC" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"mac\":\"ff:ff:ff:ff:ff:ff\"}]}}]}" \
	"ports[0].sriov.vfs[0].mac: a multicast address cannot be a VF's address"
badfile "DCQCN parameter twice" \
	"$P\"dcqcn\":{\"rp\":{\"parameters\":[{\"name\":\"rpg_ai_rate\",\"value\":7},{\"name\":\"rpg_ai_rate\",\"value\":9}]}}}]}" \
	"ports[0].dcqcn.rp.parameters[1]: rpg_ai_rate is given twice"
badfile "PFC priority twice" "$P\"pfc\":{\"enabled_priorities\":[3,3]}}]}" \
	"ports[0].pfc.enabled_priorities[1]: priority 3 is given twice"
badfile "RoCE mode" "$P\"roce\":{\"default_roce_mode\":\"bogus\"}}]}" \
	"ports[0].roce.default_roce_mode: 'bogus' is not a RoCE mode"
check "bad files: nothing written" "$(st | cmp -s - "$tmp/before.json" && echo same)" same

"$MLXCLI" --sysroot "$tmp/c" qosconfig pfc -d enp94s0f0np0 3,3 >"$tmp/o" 2>"$tmp/e"
check "qosconfig pfc 3,3: exit 2" "$?" 2
grep -q "priority 3 is given twice" "$tmp/e" && ok "... says so" || bad "pfc 3,3: $(cat "$tmp/e")"
"$MLXCLI" --sysroot "$tmp/c" sriov vf -d 5e:00.0 0 set mac ff:ff:ff:ff:ff:ff >"$tmp/o" 2>"$tmp/e"
check "sriov vf set mac broadcast: exit 2" "$?" 2
check "write verbs: nothing written" "$(st | cmp -s - "$tmp/before.json" && echo same)" same

# ---- roce_mode and roce_tos (issue 24): the kernel's names, the Windows values
"$MLXCLI" --sysroot "$tmp/c" params set -d enp94s0f0np0 roce_mode=bogus >"$tmp/o" 2>"$tmp/e"
check "params set roce_mode=bogus: exit 2" "$?" 2
grep -q "'bogus' is not a RoCE mode" "$tmp/e" && ok "... says so" || bad "roce_mode=bogus: $(cat "$tmp/e")"
"$MLXCLI" --sysroot "$tmp/c" params set -d enp94s0f0np0 roce_tos=256 >/dev/null 2>&1
check "params set roce_tos=256: exit 2" "$?" 2
check "... nothing written" "$(st | cmp -s - "$tmp/before.json" && echo same)" same
"$MLXCLI" --sysroot "$tmp/c" -j params set -d enp94s0f0np0 roce_mode=1 >"$tmp/o" 2>"$tmp/e"
check "params set roce_mode=1 (Windows): IB/RoCE v1" "$(jq -c '[.changes[] | [.setting, .new]]' "$tmp/o")" \
	'[["roce_mode","IB/RoCE v1"]]'
"$MLXCLI" --sysroot "$tmp/c" -j params set -d enp94s0f0np0 roce_mode=2 >"$tmp/o" 2>"$tmp/e"
check "params set roce_mode=2 (Windows): RoCE v2" "$(jq -c '[.changes[] | [.setting, .new]]' "$tmp/o")" \
	'[["roce_mode","RoCE v2"]]'
"$MLXCLI" --sysroot "$tmp/c" -j params set -d enp94s0f0np0 "roce_mode=IB/RoCE v1" >/dev/null 2>&1
check "params set roce_mode=IB/RoCE v1: exit 0" "$?" 0
check "... state" "$(st | jq -r '.ports[0].roce.default_roce_mode')" "IB/RoCE v1"
echo "$P\"roce\":{\"default_roce_mode\":\"2\"}}]}" >"$tmp/r.json"
"$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/r.json" >"$tmp/o" 2>"$tmp/e"
check "apply roce mode \"2\" (Windows): RoCE v2" "$(jq -c '[.changes[] | [.setting, .new]]' "$tmp/o")" \
	'[["default_roce_mode","RoCE v2"]]'
fresh c cx5-ofed

# ---- a port named twice: merged in file order, one write
echo '{"ports":[{"netdev":"enp94s0f0np0","params":{"mtu":9000}},{"pci_address":"0000:5e:00.0","params":{"mtu":4000}}]}' >"$tmp/twice.json"
"$MLXCLI" --sysroot "$tmp/c" -j apply --check "$tmp/twice.json" >"$tmp/k.json"; rc=$?
check "twice, --check: exit 0" "$rc" 0
check "twice, --check: one change, the later entry's" \
	"$(jq -c '[.changes[] | [.setting, .old, .new]]' "$tmp/k.json")" '[["mtu",1500,4000]]'
"$MLXCLI" --sysroot "$tmp/c" -j apply --diff "$tmp/twice.json" >"$tmp/d.json"
check "twice, --diff: the same" "$(jq -c '[.differences[] | [.setting, .old, .new]]' "$tmp/d.json")" \
	'[["params.mtu",1500,4000]]'
"$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/twice.json" >"$tmp/a.json"; rc=$?
check "twice, apply: exit 0, the plan of --check" "$rc $(jq -c '[.changes[] | [.setting, .old, .new]]' "$tmp/a.json")" \
	'0 [["mtu",1500,4000]]'
check "twice, the second apply: no change" \
	"$("$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/twice.json" | jq -c '[.changed, (.changes | length)]')" '[false,0]'
check "twice, state" "$(st | jq '.ports[0].params.mtu')" 4000
# a selector and an override of one of its ports: each setting once
echo '{"ports":[{"match":{"product":"ConnectX-5"},"pfc":{"enabled_priorities":[3]},"params":{"mtu":9000}},{"pci_address":"0000:5e:00.1","pfc":{"enabled_priorities":[3,4]}}]}' >"$tmp/sel.json"
"$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/sel.json" >"$tmp/a.json"; rc=$?
check "selector + override: exit 0" "$rc" 0
check "selector + override: one change per setting and port" \
	"$(jq -c '[.changes[] | [.pci_address, .setting, .new]]' "$tmp/a.json")" \
	'[["0000:5e:00.0","pfc",[3]],["0000:5e:00.1","pfc",[3,4]],["0000:5e:00.0","mtu",9000],["0000:5e:00.1","mtu",9000]]'
check "selector + override: a second apply changes nothing" \
	"$("$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/sel.json" | jq -c .changed)" false

# ---- clear messages (issue 29 item 11)
msg() {   # NAME FILE EXIT TEXT
	"$MLXCLI" --sysroot "$tmp/c" apply "$2" >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "$1: exit $3" "$rc" "$3"
	grep -qF -- "$4" "$tmp/e" && ok "$1: says $4" || bad "$1: $(cat "$tmp/e")"
}
echo '{"ports":[{"pci_address":"","pfc":{"enabled_priorities":[3]}}]}' >"$tmp/e1.json"
msg "an empty address" "$tmp/e1.json" 2 "ports[0].pci_address: an empty string names no port"
echo '{"ports":[{"pci_address":"0000:5e:00.2","pfc":{"enabled_priorities":[3]}}]}' >"$tmp/e2.json"
msg "a VF's address" "$tmp/e2.json" 4 "ports[0] names 0000:5e:00.2, a VF of 0000:5e:00.0"
msg "a missing file" "$tmp/nosuch.json" 2 "cannot read $tmp/nosuch.json: No such file or directory"
grep -q "line -1" "$tmp/e" && bad "a missing file: 'line -1'" || ok "a missing file: no 'line -1'"
finish

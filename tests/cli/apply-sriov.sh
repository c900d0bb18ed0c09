#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli apply of SR-IOV and the RDMA CM's RoCE defaults (issue 19), on
# writable copies of the sample hosts:
#  - the eswitch mode, then numvfs, then the VFs' settings: VFs made by the apply get them, the
#    plan (--check) shows them as changes from unknown, a second apply
#    changes nothing;
#  - a numvfs change that takes VFs away: refused without --yes (exit 2,
#    nothing written);
#  - VF settings and the RoCE mode/ToS of an existing configuration;
#    a port without the RDMA CM's configfs group: exit 4, nothing written;
#  - bad values: exit 2 with the JSON path, nothing written;
#  - all or nothing across subsystems: a failure injected at each write of
#    a QoS + DCQCN + SR-IOV + RDMA CM apply leaves `state -j` as it was
#    (tests/fault/fault-shim.c), also after numvfs went 4 -> 2.
set -u
. "$(dirname "$0")/lib.sh"
need jq
S=$MLXCLI_SAMPLES_DIR
st() { "$MLXCLI" --sysroot "$tmp/$1" -j state; }

# ---- numvfs 0 -> 2 and a VF's settings (cx6dx: no VFs yet)
fresh x cx6dx-upstream
cat >"$tmp/vf.json" <<'EOF'
{"ports":[{"pci_address":"0000:3b:00.0","sriov":{"num_vfs":2,"vfs":[
  {"vf":1,"mac":"02:AA:00:00:00:01","vlan":10,"qos":3,"max_tx_rate_mbps":5000,"trusted":true,
   "spoofchk":true,"link_state":"enable"}]}}]}
EOF
"$MLXCLI" --sysroot "$tmp/x" -j apply --check "$tmp/vf.json" >"$tmp/c.json"; rc=$?
check "--check numvfs + VF: exit 0" "$rc" 0
check "--check: numvfs first, then the VF's settings from unknown (the VF is not there yet)" \
	"$(jq -c '[.changes[] | [.subsystem, .vf, .setting, .old, .new]]' "$tmp/c.json")" \
	'[["sriov",null,"numvfs",0,2],["sriov",1,"mac",null,"02:aa:00:00:00:01"],["sriov",1,"vlan",null,10],["sriov",1,"qos",null,3],["sriov",1,"max_tx_rate",null,5000],["sriov",1,"spoofchk",null,true],["sriov",1,"trust",null,true],["sriov",1,"link_state",null,"enable"]]'
check "--check wrote nothing" "$(st x | jq -c '.ports[0].sriov.num_vfs')" 0
"$MLXCLI" --sysroot "$tmp/x" -j apply "$tmp/vf.json" >"$tmp/a.json"; rc=$?
check "apply numvfs + VF: exit 0" "$rc" 0
check "apply: the VF's old values are the defaults it came with" \
	"$(jq -c '[.changes[] | select(.vf == 1) | .old]' "$tmp/a.json")" '["00:00:00:00:00:00",0,0,0,false,false,"auto"]'
check "state: 2 VFs, VF 1 as the file says (MAC in the kernel's lower case)" \
	"$(st x | jq -c '.ports[0].sriov | [.num_vfs, (.vfs[1] | [.mac, .vlan, .qos, .max_tx_rate_mbps, .trusted, .spoofchk, .link_state])]')" \
	'[2,["02:aa:00:00:00:01",10,3,5000,true,true,"enable"]]'
"$MLXCLI" --sysroot "$tmp/x" -j apply "$tmp/vf.json" >"$tmp/b.json"; rc=$?
check "second apply: exit 0, changed false, no changes" "$rc $(jq -c '[.changed, (.changes | length)]' "$tmp/b.json")" "0 [false,0]"

# ---- numvfs 2 -> 3 takes the VFs away: --yes, else exit 2
jq '.ports[0].sriov.num_vfs = 3' "$tmp/vf.json" >"$tmp/vf3.json"
st x >"$tmp/before.json"
"$MLXCLI" --sysroot "$tmp/x" apply "$tmp/vf3.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "numvfs 2 -> 3 without --yes: exit 2" "$rc" 2
grep -q "ports\[0\].sriov.num_vfs: 2 -> 3 on 0000:3b:00.0 takes its 2 VFs away" "$tmp/e" &&
	ok "... says what goes" || bad "no --yes message: $(cat "$tmp/e")"
check "... nothing written" "$(st x | cmp -s - "$tmp/before.json" && echo same)" same
"$MLXCLI" --sysroot "$tmp/x" -j apply --yes "$tmp/vf3.json" >"$tmp/a.json"; rc=$?
check "with --yes: exit 0" "$rc" 0
check "with --yes: 3 VFs, VF 1's settings written again on the new VF 1" \
	"$(st x | jq -c '.ports[0].sriov | [.num_vfs, .vfs[1].vlan, .vfs[1].mac]')" '[3,10,"02:aa:00:00:00:01"]'

# ---- the eswitch mode, before numvfs (the other PF of cx6dx)
echo '{"ports":[{"pci_address":"0000:3b:00.1","sriov":{"eswitch_mode":"switchdev","num_vfs":1}}]}' >"$tmp/esw.json"
check "eswitch mode then numvfs: the changes in that order" \
	"$("$MLXCLI" --sysroot "$tmp/x" -j apply "$tmp/esw.json" | jq -c '[.changes[] | [.setting, .old, .new]]')" \
	'[["eswitch_mode","legacy","switchdev"],["numvfs",0,1]]'
check "... state" "$(st x | jq -c '.ports[1].sriov | [.eswitch_mode, .num_vfs]')" '["switchdev",1]'

# ---- VF settings and the RDMA CM's defaults on cx5 (VFs and configfs there)
fresh c cx5-ofed
st c | jq '.ports[0].sriov.vfs[2].max_tx_rate_mbps = 20000 | .ports[0].sriov.vfs[3].link_state = "disable"
	| .ports[0].roce.default_roce_tos = 96 | .ports[0].roce.default_roce_mode = "IB/RoCE v1"' >"$tmp/w.json"
"$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/w.json" >"$tmp/a.json"; rc=$?
check "VF + RoCE CM: exit 0" "$rc" 0
check "VF + RoCE CM: the changes" "$(jq -c '[.changes[] | [.subsystem, .vf, .setting, .old, .new]]' "$tmp/a.json")" \
	'[["sriov",2,"max_tx_rate",10000,20000],["sriov",3,"link_state","enable","disable"],["roce",null,"default_roce_mode","RoCE v2","IB/RoCE v1"],["roce",null,"default_roce_tos",106,96]]'
check "state after" "$(st c | jq -c '.ports[0] | [.sriov.vfs[2].max_tx_rate_mbps, .sriov.vfs[3].link_state, .roce.default_roce_mode, .roce.default_roce_tos]')" \
	'[20000,"disable","IB/RoCE v1",96]'
check "second apply: changed false" "$("$MLXCLI" --sysroot "$tmp/c" -j apply "$tmp/w.json" | jq -c .changed)" false

# the second port's RDMA device has no configfs group: exit 4, nothing written
st c >"$tmp/before.json"
echo '{"ports":[{"pci_address":"0000:5e:00.0","pfc":{"enabled_priorities":[3,4]}},{"pci_address":"0000:5e:00.1","roce":{"default_roce_tos":96}}]}' >"$tmp/r.json"
"$MLXCLI" --sysroot "$tmp/c" apply "$tmp/r.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "RoCE CM without its configfs group: exit 4" "$rc" 4
grep -q "mlx5_1 has no RDMA CM defaults in configfs" "$tmp/e" && ok "... says so" || bad "roce: $(cat "$tmp/e")"
check "... nothing written (not the first port's PFC either)" "$(st c | cmp -s - "$tmp/before.json" && echo same)" same

# ---- bad values: exit 2 with the path, nothing written
badfile() {
	printf '%s\n' "$2" >"$tmp/bad.json"
	"$MLXCLI" --sysroot "$tmp/c" apply "$tmp/bad.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "bad file ($1): exit 2" "$rc" 2
	grep -qF "$3" "$tmp/e" && ok "bad file ($1): names $3" || bad "bad file ($1): $(cat "$tmp/e")"
}
P='{"ports":[{"pci_address":"0000:5e:00.0",'
badfile "MAC" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"mac\":\"02:zz:00:00:00:01\"}]}}]}" "ports[0].sriov.vfs[0].mac"
badfile "VF twice" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"vlan\":1},{\"vf\":0,\"vlan\":2}]}}]}" "ports[0].sriov.vfs[1].vf: VF 0 is named twice"
badfile "VLAN range" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"vlan\":4096}]}}]}" "ports[0].sriov.vfs[0].vlan: 4096 is out of range"
badfile "link state" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"link_state\":\"up\"}]}}]}" "ports[0].sriov.vfs[0].link_state"
badfile "802.1ad" "$P\"sriov\":{\"vfs\":[{\"vf\":0,\"vlan_protocol\":\"0x88a8\"}]}}]}" "ports[0].sriov.vfs[0].vlan_protocol"
badfile "no such VF" "$P\"sriov\":{\"vfs\":[{\"vf\":4,\"vlan\":1}]}}]}" "ports[0].sriov.vfs[0]: 0000:5e:00.0 has no VF 4 (num_vfs 4)"
badfile "above TotalVFs" "$P\"sriov\":{\"num_vfs\":65535}}]}" "ports[0].sriov.num_vfs: 65535 is above"
badfile "eswitch mode" "$P\"sriov\":{\"eswitch_mode\":\"offload\"}}]}" "ports[0].sriov.eswitch_mode"
badfile "RoCE mode" "$P\"roce\":{\"default_roce_mode\":\"RoCE v3\"}}]}" "ports[0].roce.default_roce_mode"
check "bad files: nothing written" "$(st c | cmp -s - "$tmp/before.json" && echo same)" same

# ---- all or nothing across subsystems: a failure at each write
if fault_usable; then
	fresh f cx5-ofed
	# QoS and DCQCN (port 0), SR-IOV: numvfs 0 -> 2 with a VF's settings
	# (port 1) and two VFs' settings (port 0), the RDMA CM's ToS (port 0)
	st f | jq '.ports[0].pfc.enabled_priorities = [3,4]
		| (.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value) = 7
		| .ports[0].sriov.vfs[1].vlan = 7 | .ports[0].sriov.vfs[3].trusted = false
		| .ports[0].roce.default_roce_tos = 96
		| .ports[1].sriov.num_vfs = 2 | .ports[1].sriov.vfs = [{"vf":1,"vlan":5,"trusted":true}]' >"$tmp/multi.json"
	st f >"$tmp/old.json"
	# the dry run of the matrix: how many writes (opens for writing) it does
	fault 0 "" --sysroot "$tmp/f" -j apply "$tmp/multi.json"; total=$(cat "$tmp/count")
	check "the multi-subsystem apply: 8 changes" "$(jq -c '.changes | map(.subsystem) | unique' "$tmp/o")" '["dcqcn","qos","roce","sriov"]'
	# one holder for the whole apply: each device's lock taken once, before
	# any write (not once per subsystem)
	check "the locks: each device's once, first" \
		"$(awk '{ print ($3 ~ /\.lock$/) ? "lock" : "write" }' "$tmp/log" | uniq -c | awk '{ print $1 $2 }' | head -2 | tr '\n' ' ')" \
		"2lock $((total - 2))write "
	[ "$total" -ge 10 ] && ok "the matrix: $total writes" || bad "the matrix: only $total writes counted"
	fault_matrix f cx5-ofed "$total" "$tmp/old.json" --sysroot "$tmp/f" -j apply "$tmp/multi.json"
	# numvfs 4 -> 2 (--yes), then the RDMA CM write fails: numvfs goes
	# back to 4 and the four VFs get their settings back
	fresh f cx5-ofed
	st f | jq '.ports[0].sriov.num_vfs = 2 | .ports[0].sriov.vfs = [{"vf":0,"vlan":9}]
		| .ports[0].roce.default_roce_tos = 96 | {ports: [.ports[0]]}' >"$tmp/nv.json"
	fault 1 default_roce_tos --sysroot "$tmp/f" -j apply --yes "$tmp/nv.json"
	check "numvfs 4 -> 2, then a failure: exit 1" "$rc" 1
	grep -q "was put back: nothing was changed" "$tmp/e" && ok "... put back" || bad "no put-back: $(cat "$tmp/e")"
	check "... 4 VFs with their MACs, VLANs, rates, trust as before" \
		"$(st f | cmp -s - "$tmp/old.json" && echo same)" same
	# numvfs fails after the eswitch mode was written: the mode goes back
	fresh f cx6dx-upstream
	st f >"$tmp/old6.json"
	fault 1 sriov_numvfs --sysroot "$tmp/f" -j apply "$tmp/esw.json"
	check "numvfs fails after the eswitch mode: exit 1" "$rc" 1
	check "... the eswitch mode put back" "$(st f | cmp -s - "$tmp/old6.json" && echo same)" same
fi

finish

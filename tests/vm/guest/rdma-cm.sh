#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The RDMA CM's RoCE defaults through mlxcli's writers on a real kernel:
# configfs rdma_cm (drivers/infiniband/core/cma_configfs.c) of an rdma_rxe
# device on a veth, in the kernel lab.  The veth is no ConnectX port, so
# --any-netdev -d VETH names it, and its RDMA port is the rxe device's:
#   - params shows roce_mode/roce_tos as configfs has them; params set
#     roce_tos=106 roce_mode="IB/RoCE v1" is refused by the kernel (rxe has
#     only RoCE v2 GIDs: cma_set_default_gid_type() wants a GID type the
#     port supports): exit 1, and the ToS is put back; params set
#     roce_mode="RoCE v2" roce_tos=106 writes (read back from configfs),
#     rdma show and state say so;
#   - apply of a state's roce section (--check first: nothing written),
#     idempotent, and the state read back applies as no change; a section
#     whose mode the kernel refuses leaves nothing changed (rollback);
#   - refused before anything is written (exit 2, configfs unchanged):
#     params set roce_mode=bogus and roce_tos=256 (the kernel takes only
#     "IB/RoCE v1" and "RoCE v2", cma_configfs.c; a ToS is a byte), the
#     same in apply's roce section; a roce section for a netdev without an
#     RDMA device is exit 4.
# Runs in the kernel lab only (tests/vm); exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_lab
need rdma jq
[ -d /sys/module/rdma_rxe ] || { echo "SKIP: no rdma_rxe module here"; exit 77; }
v=rca$$ pv=rcb$$ d=rxc$$
cleanup() {
	rmdir "/sys/kernel/config/rdma_cm/$d" 2>/dev/null
	rdma link delete "$d" 2>/dev/null
	ip link del "$v" 2>/dev/null
}
on_exit="cleanup; $on_exit"
ip link add "$v" type veth peer name "$pv" && ip link set "$v" up && ip link set "$pv" up ||
	{ bad "cannot make the veth pair"; exit 1; }
rdma link add "$d" type rxe netdev "$v" || { bad "cannot add the rxe device"; exit 1; }
# configfs holds a device's defaults once its directory is made (as
# rdma-core's cma_roce_mode does)
cfs=/sys/kernel/config/rdma_cm/$d/ports/1
mkdir "/sys/kernel/config/rdma_cm/$d" 2>/dev/null
[ -f "$cfs/default_roce_mode" ] || { echo "SKIP: no configfs rdma_cm here (rdma_cm, configfs)"; exit 77; }
cm() { echo "$(cat "$cfs/default_roce_mode")/$(cat "$cfs/default_roce_tos")"; }
check "configfs: the kernel's defaults" "$(cm)" "RoCE v2/0"

run p0 -j params --any-netdev -d "$v"
check "params: exit 0" "$rc" 0
check "params: roce_mode and roce_tos as configfs has them" \
	"$(jq -c '[.params[0].knobs[] | select(.name == "roce_mode" or .name == "roce_tos") | .current]' \
	"$tmp/p0.out" 2>/dev/null)" '["RoCE v2",0]'

run v1 params set roce_tos=106 "roce_mode=IB/RoCE v1" --any-netdev -d "$v"
check "params set roce_mode=IB/RoCE v1 on rxe: the kernel's refusal, exit 1" \
	"$rc $(grep -c 'Invalid argument' "$tmp/v1.err")" "1 1"
check "params set: nothing left changed (the ToS put back)" "$(cm)" "RoCE v2/0"
run set params set "roce_mode=RoCE v2" roce_tos=106 --any-netdev -d "$v"
check "params set roce_mode roce_tos: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/set.err"
check "params set: configfs reads them back" "$(cm)" "RoCE v2/106"
run show -j rdma show -d "$d"
check "rdma show: the mode, its source and the ToS -> DSCP" \
	"$(jq -c '.rdma[0].ports[0] | [.default_roce_mode, .roce_mode_source, .default_roce_tos, .dscp]' \
	"$tmp/show.out" 2>/dev/null)" '["RoCE v2","configfs",106,26]'
run st -j state --any-netdev -d "$v"
check "state: the roce section" "$(jq -c '.ports[0].roce' "$tmp/st.out" 2>/dev/null)" \
	'{"default_roce_mode":"RoCE v2","default_roce_tos":106}'

# apply of a state's roce section
cat >"$tmp/want.json" <<EOF
{"schema_version": 2, "ports": [{"pci_address": null, "netdev": "$v",
 "roce": {"default_roce_mode": "RoCE v2", "default_roce_tos": 64}}]}
EOF
run chk -j apply --any-netdev --check "$tmp/want.json"
check "apply --check: exit 0, the ToS change planned (the mode is already so)" \
	"$rc $(jq -c '[.changes[] | [.subsystem, .setting, .new]]' "$tmp/chk.out" 2>/dev/null)" \
	'0 [["roce","default_roce_tos",64]]'
check "apply --check: configfs unchanged" "$(cm)" "RoCE v2/106"
run ap -j apply --any-netdev "$tmp/want.json"
check "apply: exit 0, changed" "$rc $(jq '.changed' "$tmp/ap.out" 2>/dev/null)" "0 true"
[ "$rc" -eq 0 ] || cat "$tmp/ap.err"
check "apply: configfs reads the state's values" "$(cm)" "RoCE v2/64"
run ap2 -j apply --any-netdev "$tmp/want.json"
check "apply again: no change" "$rc $(jq -c '[.changed, (.changes | length)]' "$tmp/ap2.out" 2>/dev/null)" \
	"0 [false,0]"
run st2 -j state --any-netdev -d "$v"
run ap3 -j apply --any-netdev "$tmp/st2.out"
check "the state read back applies as no change" "$rc $(jq '.changed' "$tmp/ap3.out" 2>/dev/null)" "0 false"

# the kernel refuses the mode half-way: apply puts the ToS back
cat >"$tmp/v1.json" <<EOF
{"ports": [{"netdev": "$v", "roce": {"default_roce_tos": 32, "default_roce_mode": "IB/RoCE v1"}}]}
EOF
run v1a -j apply --any-netdev "$tmp/v1.json"
check "apply of a mode rxe refuses: exit 1" "$rc" 1
check "apply: nothing left changed" "$(cm)" "RoCE v2/64"

# refused before anything is written
# what mlxcli refuses is what the kernel refuses: configfs itself says EINVAL
if echo bogus >"$cfs/default_roce_mode" 2>/dev/null; then bad "configfs took 'bogus'"; else
	ok "configfs refuses 'bogus' itself (cma_configfs.c)"; fi
run bogus params set roce_mode=bogus --any-netdev -d "$v"
check "params set roce_mode=bogus: exit 2, said" "$rc $(grep -c "roce_mode" "$tmp/bogus.err")" "2 1"
run tos256 params set roce_tos=256 --any-netdev -d "$v"
check "params set roce_tos=256: exit 2" "$rc" 2
check "params set: the refused values wrote nothing" "$(cm)" "RoCE v2/64"
for x in '"default_roce_mode": "bogus"' '"default_roce_tos": 256'; do
	cat >"$tmp/bad.json" <<EOF
{"ports": [{"netdev": "$v", "roce": {$x}}]}
EOF
	run bad -j apply --any-netdev "$tmp/bad.json"
	check "apply roce {$x}: exit 2, said" "$rc $(grep -c roce "$tmp/bad.err")" "2 1"
done
check "apply: the refused values wrote nothing" "$(cm)" "RoCE v2/64"
cat >"$tmp/nordma.json" <<EOF
{"ports": [{"netdev": "$pv", "roce": {"default_roce_tos": 32}}]}
EOF
run nordma -j apply --any-netdev "$tmp/nordma.json"
check "apply roce on a netdev without an RDMA device: exit 4" "$rc" 4
finish

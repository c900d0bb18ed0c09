#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli state (issue 19): the configurable state of both sample hosts as
# one document, keyed by PCI address; the same facts as show qos, qosconfig
# dcqcn get and sriov show give, with their keys; a write to a captured
# copy shows in it; the text form is one "path = value" line per setting.
set -u
. "$(dirname "$0")/lib.sh"
need jq python3

# the settings of a state document: leaves, a list of numbers or booleans
# being one setting (the ports' keys, the DCQCN layout and the buffers'
# source are facts about the port, not settings; dscp2prio is one line)
leaves='
import json, sys
def n(v):
    if isinstance(v, dict):
        return sum(1 if k == "dscp2prio" else 0 if k == "vfs" and not x else n(x)
                   for k, x in v.items() if k not in ("tc", "vf", "name", "layout", "source",
                                                   "reporter", "port_index"))
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return sum(n(x) for x in v)
    return 1
print(sum(n({k: x for k, x in p.items() if k not in ("pci_address", "netdev")})
          for p in json.load(sys.stdin)["ports"]))'

for s in cx5-ofed cx6dx-upstream; do
	m() { "$MLXCLI" --sample=$s "$@"; }
	st=$(m -j state) || bad "$s: state exits 0"
	check "$s: schema_version on top" "$(echo "$st" | jq '.schema_version')" 3
	check "$s: one port per PF, keyed by pci_address" \
		"$(echo "$st" | jq -c '[.ports[] | .pci_address]')" \
		"$(m -j show qos | jq -c '[.ports[] | .pci_address]')"
	# the same facts as the commands that show them, under their keys
	check "$s: trust, dscp2prio, pfc, ets as show qos" \
		"$(echo "$st" | jq -c '[.ports[] | [.trust, .dscp2prio, .pfc.enabled_priorities, .pfc.cable_length_m, .ets.prio_tc, .dcbx.mode]]')" \
		"$(m -j show qos | jq -c '[.ports[] | [.trust, .dscp2prio, .pfc.enabled_priorities, .pfc.cable_length_m, .ets.prio_tc, .dcbx.mode]]')"
	check "$s: tcs as show qos (0 = unlimited)" \
		"$(echo "$st" | jq -c '[.ports[].tcs[] | [.tc, .tsa, .bandwidth_pct, .max_rate_mbps]]')" \
		"$(m -j show qos | jq -c '[.ports[].tcs[] | [.tc, .tsa, .bandwidth_pct, (.max_rate_mbps // 0)]]')"
	check "$s: buffers as show qos" \
		"$(echo "$st" | jq -c '[.ports[].buffer | [.prio2buffer, .size_bytes]]')" \
		"$(m -j show qos | jq -c '[.ports[].buffer | [.prio2buffer, .size_bytes]]')"
	check "$s: DCQCN enables and values as dcqcn get" \
		"$(echo "$st" | jq -c '[.ports[].dcqcn | .rp.enable, .np.enable, [.rp.parameters[].value], [.np.parameters[].value]]')" \
		"$(m -j qosconfig dcqcn get | jq -c '[.ports[] | .rp.enable, .np.enable, [.rp.parameters[].value], [.np.parameters[].value]]')"
	check "$s: SR-IOV as sriov show" \
		"$(echo "$st" | jq -c '[.ports[].sriov | .num_vfs, .eswitch_mode, [.vfs[] | [.vf, .mac, .vlan, .qos, .min_tx_rate_mbps, .max_tx_rate_mbps, .spoofchk, .trusted, .link_state]]]')" \
		"$(m -j sriov show | jq -c '[.pfs[] | .num_vfs, .eswitch_mode, [.vfs[] | [.vf, .mac, .vlan, .qos, .min_tx_rate_mbps, .max_tx_rate_mbps, .spoofchk, .trusted, .link_state]]]')"
	# the RDMA CM defaults (configfs) as params reads them; a port with no
	# configfs entry (cx6dx-upstream has none) is unknown: null
	check "$s: RoCE defaults as params --source rdma, else null" \
		"$(echo "$st" | jq -c '[.ports[] | [.netdev, .roce.default_roce_mode, .roce.default_roce_tos]]')" \
		"$(m -j params --source rdma | jq -c --argjson st "$st" '([.params[] | select(any(.knobs[]; .name == "roce_mode")) | {(.netdev): [(.knobs[] | select(.name == "roce_mode") | .current), (.knobs[] | select(.name == "roce_tos") | .current)]}] | add // {}) as $p | [$st.ports[] | [.netdev] + ($p[.netdev] // [null, null])]')"
	# the link's settings as link -j reads them; each health reporter's
	# policy as health -j (issue 27)
	check "$s: link as link -j" \
		"$(echo "$st" | jq -c '[.ports[] | [.netdev, .link.autoneg, .link.duplex, .link.pause.autoneg, .link.pause.rx, .link.pause.tx]]')" \
		"$(m -j link | jq -c '[.port_links[] | [.netdev, .autoneg, .duplex, .pause.autoneg, .pause.rx, .pause.tx]]')"
	check "$s: health policy as health -j" \
		"$(echo "$st" | jq -c '[.ports[] | [.pci_address, [.health[] | [.reporter, .port_index, .grace_period_ms, .auto_recover, .auto_dump]]]]')" \
		"$(m -j health | jq -c '[.devices[] | [.pci_address, [.reporters[] | [.name, .port_index, .grace_period_ms, .auto_recover, .auto_dump]]]]')"
	# text: one line per JSON leaf, the same values
	m state >"$tmp/$s.txt" || bad "$s: text exits 0"
	check "$s: text lines = JSON settings" "$(grep -c ' = ' "$tmp/$s.txt")" \
		"$(echo "$st" | python3 -c "$leaves")"
done

# one port, by netdev or PCI address; a VF and a missing device refused
check "-d netdev = -d PCI address" "$("$MLXCLI" --sample -j state -d enp94s0f1np1 | jq -c .)" \
	"$("$MLXCLI" --sample -j state -d 5e:00.1 | jq -c .)"
"$MLXCLI" --sample state -d 5e:00.2 >/dev/null 2>&1; check "a VF: exit 4 (give its PF)" $? 4
"$MLXCLI" --sample state -d 99:00.0 >/dev/null 2>&1; check "no such device: exit 3" $? 3
# --any-netdev (a veth's params: tests/kernel/apply-netns.sh): a ConnectX
# port is still a ConnectX port; a netdev that is not there exits 3
check "--any-netdev -d a ConnectX port: its state" \
	"$("$MLXCLI" --sample -j state --any-netdev -d enp94s0f1np1 | jq -c .)" \
	"$("$MLXCLI" --sample -j state -d 5e:00.1 | jq -c .)"
"$MLXCLI" --sample state --any-netdev -d nosuch0 >/dev/null 2>&1
check "--any-netdev -d no netdev: exit 3" $? 3

# a write to a captured copy is in its state
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/host"
"$MLXCLI" --sysroot "$tmp/host" qosconfig pfc -d enp94s0f0np0 3,4 >/dev/null 2>&1 || bad "pfc write"
"$MLXCLI" --sysroot "$tmp/host" qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 7 >/dev/null 2>&1 ||
	bad "dcqcn write"
st=$("$MLXCLI" --sysroot "$tmp/host" -j state -d 5e:00.0)
check "written PFC read back" "$(echo "$st" | jq -c '.ports[0].pfc.enabled_priorities')" '[3,4]'
check "written DCQCN read back" \
	"$(echo "$st" | jq '.ports[0].dcqcn.rp.parameters[] | select(.name == "rpg_ai_rate") | .value')" 7
finish

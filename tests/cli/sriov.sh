#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli sriov on the sample hosts: show (text, JSON), numvfs 0 -> 4 -> 0 on
# a working copy, VF settings read back, bad values refused with exit 2 and
# nothing changed.
set -u
. "$(dirname "$0")/lib.sh"
need jq
m() { "$MLXCLI" --sample "$@"; }

# --- show, both samples
out=$(m -j sriov show) || bad "show exits 0"
check "cx5: two SR-IOV PFs" "$(echo "$out" | jq '.pfs | length')" 2
check "cx5 PF0: 4 of 8 VFs" "$(echo "$out" | jq -c '.pfs[0] | [.num_vfs, .total_vfs]')" "[4,8]"
check "cx5 PF0: capability" "$(echo "$out" | jq -c '.pfs[0].capability | [.offset, .vf_offset, .vf_stride, .vf_device_id]')" '["0x180",2,1,"0x1018"]'
check "cx5 PF0: eswitch legacy" "$(echo "$out" | jq -r '.pfs[0].eswitch_mode')" legacy
check "cx5 VFs from rtnetlink" "$(echo "$out" | jq -r '.pfs[0].vf_source')" rtnetlink
check "cx5 VF MACs = VF netdevs" "$(echo "$out" | jq -r '[.pfs[0].vfs[] | .mac] | join(",")')" \
	"02:c5:00:5e:01:02,02:c5:00:5e:01:03,02:c5:00:5e:01:04,02:c5:00:5e:01:05"
check "cx5 VF2 vlan/qos/rate" "$(echo "$out" | jq -c '.pfs[0].vfs[2] | [.pci_address, .netdev, .vlan, .qos, .min_tx_rate_mbps, .max_tx_rate_mbps]')" \
	'["0000:5e:00.4","enp94s0f4",200,3,1000,10000]'
check "cx5 VF3 trust/state" "$(echo "$out" | jq -c '.pfs[0].vfs[3] | [.spoofchk, .trusted, .link_state]')" '[false,true,"enable"]'
check "cx5 VF0 stats = netdev rx" "$(echo "$out" | jq '.pfs[0].vfs[0].stats.rx_packets')" \
	"$(cat "$MLXCLI_SAMPLES_DIR/cx5-ofed/sys/class/net/enp94s0f2/statistics/rx_packets")"
check "cx5 PF1 no VFs" "$(echo "$out" | jq '.pfs[1].vfs | length')" 0
txt=$(m sriov show -d enp94s0f0np0) || bad "text show"
echo "$txt" | grep -q '^2   0000:5e:00.4  enp94s0f4  mlx5_4  mlx5_core  02:c5:00:5e:01:04  200   3' \
	&& ok "text VF row" || bad "text VF row"
out=$("$MLXCLI" --sample=cx6dx-upstream -j sriov show -d 3b:00.1) || bad "cx6dx show"
check "cx6dx PF1: 0 of 8, VF DID 101e" "$(echo "$out" | jq -c '.pfs[0] | [.num_vfs, .total_vfs, .capability.vf_device_id, (.vfs|length)]')" '[0,8,"0x101e",0]'
m sriov show -d 99:00.0 2>/dev/null; check "missing device exit 3" $? 3

# --- bad values: exit 2, nothing changed
T=$MLXCLI_STATE_DIR
before=$(m -j sriov show -d 5e:00.0)
m sriov vf -d 5e:00.0 4 set vlan 5 2>/dev/null; check "VF index 4 of 4 refused" $? 2
m sriov vf -d 5e:00.0 1 set mac 02:00:00:00:00 2>/dev/null; check "short MAC refused" $? 2
m sriov vf -d 5e:00.0 1 set mac 01:00:5e:00:00:01 2>/dev/null; check "multicast MAC refused" $? 2
m sriov vf -d 5e:00.0 1 set mac 02:00:00:00:00:22 vlan 4096 2>/dev/null; check "VLAN 4096 refused" $? 2
m sriov vf -d 5e:00.0 1 set qos 8 2>/dev/null; check "QoS 8 refused" $? 2
m sriov vf -d 5e:00.0 1 set min-rate 5000 max-rate 1000 2>/dev/null; check "min > max refused" $? 2
m sriov vf -d 5e:00.0 2 set min-rate 20000 2>/dev/null; check "min above current max refused" $? 2
m sriov vf -d 5e:00.0 1 set trust maybe 2>/dev/null; check "trust maybe refused" $? 2
m sriov vf 1 set trust on 2>/dev/null; check "write without -d refused" $? 2
m sriov set -d 5e:00.0 numvfs 9 2>"$MLXCLI_STATE_DIR/err"; check "numvfs 9 refused" $? 2
grep -q 'the limit is 8' "$MLXCLI_STATE_DIR/err" && ok "limit in the message" || bad "limit in the message"
check "nothing changed" "$(m -j sriov show -d 5e:00.0)" "$before"

# --- VF settings, read back
m sriov vf -d 5e:00.0 1 set mac 02:00:00:00:00:11 vlan 42 qos 5 max-rate 5000 min-rate 100 \
	spoofchk off trust on state disable >/dev/null || bad "vf set"
check "VF1 read back" "$(m -j sriov show -d 5e:00.0 | jq -c '.pfs[0].vfs[1] | [.mac, .vlan, .qos, .min_tx_rate_mbps, .max_tx_rate_mbps, .spoofchk, .trusted, .link_state]')" \
	'["02:00:00:00:00:11",42,5,100,5000,false,true,"disable"]'
check "VF0 untouched" "$(m -j sriov show -d 5e:00.0 | jq -c '.pfs[0].vfs[0] | [.vlan, .trusted]')" '[0,false]'
out=$(m -j sriov vf -d 5e:00.0 0 set vlan 7 --dry-run)
check "dry-run reports" "$(echo "$out" | jq -c '[.dry_run, .changes[0].setting, .changes[0].old, .changes[0].new]')" '[true,"vlan",0,7]'
# One typed change record per setting (issue 14: "vlan 0 qos 0" strings)
out=$(m -j sriov vf -d 5e:00.0 2 set qos 1 max-rate 20000 spoofchk off state enable mac 02:C5:00:5E:01:04 --dry-run)
check "typed VF change records" "$(echo "$out" | jq -c '[.changes[] | [.setting, .old, .new, .unit, .changed]]')" \
	'[["qos",3,1,null,true],["max_tx_rate",10000,20000,"Mbit/s",true],["spoofchk",true,false,null,true],["link_state","auto","enable",null,true],["mac","02:c5:00:5e:01:04","02:c5:00:5e:01:04",null,false]]'
m sriov vf -d 5e:00.0 2 set qos 1 max-rate 20000 --dry-run >"$T/o" 2>"$T/e"
grep -qx 'qos: 3 -> 1' "$T/o" && grep -qx 'max_tx_rate: 10000 -> 20000' "$T/o" &&
	grep -qx '(dry run: nothing was written)' "$T/e" && ok "text: one line per setting, the dry-run line" ||
	bad "text: $(cat "$T/o" "$T/e")"
check "dry-run writes nothing" "$(m -j sriov show -d 5e:00.0 | jq '.pfs[0].vfs[0].vlan')" 0

# --- a numvfs change that loses VFs needs --yes or a terminal's answer and
# says what is lost (issue 15: 4 -> 2 went through 0 without a word)
before=$(m -j sriov show -d 5e:00.0)
m sriov set -d 5e:00.0 numvfs 2 </dev/null >"$T/o" 2>"$T/e"; check "4 -> 2 without --yes refused" $? 2
[ ! -s "$T/o" ] && ok "refusal: nothing on stdout" || bad "refusal: nothing on stdout"
grep -qF 'VF 2 (0000:5e:00.4 enp94s0f4) removed: mac 02:c5:00:5e:01:04, vlan 200 qos 3, rate min 1000 max 10000 Mb/s' "$T/e" &&
	grep -qF 'VF 1 (0000:5e:00.3 enp94s0f3) reset to defaults: mac 02:00:00:00:00:11, vlan 42 qos 5, rate min 100 max 5000 Mb/s' "$T/e" &&
	grep -qF 'VF 3 (0000:5e:00.5 enp94s0f5) removed' "$T/e" && grep -q 'add --yes' "$T/e" &&
	ok "refusal lists each VF lost with its settings and the hint" || bad "refusal message: $(cat "$T/e")"
check "refusal changed nothing" "$(m -j sriov show -d 5e:00.0)" "$before"
out=$(m -j sriov set -d 5e:00.0 numvfs 2 --dry-run </dev/null) || bad "dry-run needs no --yes"
check "dry-run: the VFs lost" "$(echo "$out" | jq -c '[.dry_run, [.vfs_lost[] | .fate], .vfs_lost[2].mac, .vfs_lost[2].vlan, .vfs_lost[2].qos, .vfs_lost[2].max_tx_rate_mbps, .vfs_lost[3].pci_address]')" \
	'[true,["reset","reset","removed","removed"],"02:c5:00:5e:01:04",200,3,10000,"0000:5e:00.5"]'
m sriov set -d 5e:00.0 numvfs 2 --dry-run </dev/null | grep -qF 'VF 2 (0000:5e:00.4 enp94s0f4) removed: mac 02:c5:00:5e:01:04' &&
	ok "dry-run text lists the VFs lost" || bad "dry-run text lists the VFs lost"
check "dry-run changed nothing" "$(m -j sriov show -d 5e:00.0)" "$before"
if script -qec true /dev/null >/dev/null 2>&1; then
	# A terminal is asked; anything but y is no.
	printf 'n\n' | script -qec "$MLXCLI --sample sriov set -d 5e:00.0 numvfs 3" /dev/null >"$T/tty" 2>&1
	rc=$?
	[ $rc -eq 1 ] && grep -q 'go ahead? \[y/N\]' "$T/tty" && grep -q 'not confirmed' "$T/tty" &&
		ok "terminal: asked, 'n' changes nothing" || bad "terminal: exit $rc: $(cat "$T/tty")"
	check "terminal 'n' changed nothing" "$(m -j sriov show -d 5e:00.0)" "$before"
fi
m sriov set -d 5e:00.0 numvfs 4 </dev/null >/dev/null; check "same count: nothing lost, no question" $? 0
"$MLXCLI" __complete sriov set numvfs -- | grep -qx -- --yes && ok "completion offers --yes" || bad "completion offers --yes"

# --- numvfs 4 -> 0 -> 4 -> 0
m sriov set -d 5e:00.0 numvfs 0 </dev/null >/dev/null 2>&1; check "numvfs 0 without --yes refused" $? 2
m -j sriov set -d 5e:00.0 numvfs 0 --yes >"$T/o" || bad "numvfs 0 --yes"
check "numvfs 0: four VFs removed" "$(jq -c '[.vfs_lost[] | .fate] | unique, length' "$T/o" | tr -d '\n')" '["removed"]4'
check "0 VFs: no VF functions" "$(m -j devices | jq '[.devices[] | select(.role == "vf")] | length')" 0
check "0 VFs: sysfs and config" "$(m -j sriov show -d 5e:00.0 | jq -c '.pfs[0] | [.num_vfs, .capability.num_vfs, .capability.vf_enable, (.vfs|length)]')" '[0,0,false,0]'
m sriov set -d 5e:00.0 numvfs 4 </dev/null >/dev/null || bad "numvfs 0 -> 4: nothing lost, no --yes needed"
check "4 VFs back" "$(m -j devices | jq -c '[.devices[] | select(.role == "vf") | .pci_address]')" \
	'["0000:5e:00.2","0000:5e:00.3","0000:5e:00.4","0000:5e:00.5"]'
check "new VFs: defaults" "$(m -j sriov show -d 5e:00.0 | jq -c '[.pfs[0].vfs[] | .mac] | unique')" '["00:00:00:00:00:00"]'
m sriov set -d 5e:00.0 numvfs 3 -y >/dev/null || bad "numvfs 4 -> 3 (through 0)"
check "3 VFs" "$(m -j sriov show -d 5e:00.0 | jq -c '.pfs[0] | [.num_vfs, (.vfs|length)]')" '[3,3]'
m sriov set -d 5e:00.0 numvfs 0 --yes >/dev/null || bad "numvfs 0 again"
check "0 VFs again" "$(m -j sriov show -d 5e:00.0 | jq '.pfs[0].num_vfs')" 0
test -e "$MLXCLI_SAMPLES_DIR/cx5-ofed/sys/bus/pci/devices/0000:5e:00.2" && ok "pristine sample untouched" || bad "pristine sample untouched"

# --- eswitch
m sriov eswitch -d 5e:00.0 switchdev >/dev/null || bad "eswitch switchdev"
check "eswitch read back" "$(m -j sriov eswitch -d 5e:00.0 | jq -r .eswitch_mode)" switchdev
m sriov eswitch -d 5e:00.0 bogus 2>/dev/null; check "bad eswitch mode" $? 2
# A read without -d covers every PF (issue 15: it said it "changes a device")
out=$(m -j sriov eswitch 2>"$T/e"); check "eswitch read without -d: exit 0" $? 0
check "eswitch read without -d: every PF" "$(echo "$out" | jq -c '[.eswitch[] | [.pci_address, .eswitch_mode]]')" \
	'[["0000:5e:00.0","switchdev"],["0000:5e:00.1","legacy"]]'
m sriov eswitch 2>&1 | grep -q '^0000:5e:00.1  *legacy' && ok "eswitch text without -d" || bad "eswitch text without -d"
m sriov eswitch legacy >/dev/null 2>"$T/e"; check "eswitch set without -d refused" $? 2
grep -q "'mlxcli sriov eswitch legacy' changes a device and will not guess which: give -d DEV" "$T/e" &&
	ok "set without -d: the message names the write" || bad "set without -d: $(cat "$T/e")"
"$MLXCLI" help sriov eswitch | grep -q 'so -d DEV is required' && bad "help: a read needs no -d" || ok "help: a read needs no -d"
finish

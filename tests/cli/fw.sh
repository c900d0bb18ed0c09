#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli fw query on both sample hosts: devlink replayed from the capture,
# sysfs fallback on a VF, VPD decoded, pending firmware detected.
set -u
. "$(dirname "$0")/lib.sh"
need jq

out=$("$MLXCLI" --sample -j fw) || bad "fw exits 0"
check "cx5: the two PFs" "$(echo "$out" | jq -c '[.firmware[] | .pci_address]')" '["0000:5e:00.0","0000:5e:00.1"]'
check "cx5: devlink versions" "$(echo "$out" | jq -c '.firmware[0] | [.running_version, .running_source, .stored_version, .reset_pending, .psid, .psid_source]')" \
	'["16.35.2000","devlink","16.35.2000",false,"MT_0000000008","devlink"]'
check "cx5: board serial from VPD" "$(echo "$out" | jq -c '.firmware[0] | [.board_serial_number, .board_serial_number_source]')" '["MT0000XSAMPLE","vpd"]'
check "cx5: VPD" "$(echo "$out" | jq -c '.firmware[0].vpd | [.product_name, .checksum, ([.fields[] | select(.keyword == "PN") | .text][0])]')" \
	'["CX556A - ConnectX-5 QSFP28","good","MCX556A-ECAT"]'
out2=$("$MLXCLI" --sample fw query -j) || bad "fw query exits 0"
check "'fw' = 'fw query'" "$out2" "$out"
out=$("$MLXCLI" --sample -j fw -d enp94s0f3)
check "VF: sysfs fallback" "$(echo "$out" | jq -c '.firmware[0] | [.role, .running_version, .running_source, .stored_version, .devlink.answered, .vpd.present]')" \
	'["vf","16.35.2000","sysfs",null,false,false]'
"$MLXCLI" --sample=cx6dx-upstream -j fw query -d 3b:00.0 >"$MLXCLI_STATE_DIR/o" 2>"$MLXCLI_STATE_DIR/e" || bad "cx6dx fw"
check "cx6dx: pending firmware" "$(jq -c '.firmware[0] | [.running_version, .stored_version, .reset_pending]' "$MLXCLI_STATE_DIR/o")" \
	'["22.39.1002","22.41.1000",true]'
grep -q 'takes effect after a firmware reset' "$MLXCLI_STATE_DIR/e" && ok "reset warning" || bad "reset warning"
check "cx6dx: VU" "$(jq -r '.firmware[0].vpd.fields[] | select(.keyword == "VU") | .text' "$MLXCLI_STATE_DIR/o")" MT0000XSAMPLEMLNXS0D0F0
"$MLXCLI" --sample fw -d 99:00.0 2>/dev/null; check "missing device exit 3" $? 3
"$MLXCLI" --sample fw flash 2>/dev/null; check "unknown verb exit 2" $? 2

# A capture without the devlink reply: fallback to sysfs, said so.
"$MLXCLI" --sample sample list >/dev/null 2>&1
wc="$MLXCLI_STATE_DIR/nodl"
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$wc" && rm -rf "$wc/netlink/devlink"
out=$("$MLXCLI" --sysroot "$wc" -j fw -d 5e:00.0) || bad "fw without devlink capture"
check "no devlink: sysfs" "$(echo "$out" | jq -c '.firmware[0] | [.running_version, .running_source, .psid_source, .devlink.answered]')" \
	'["16.35.2000","sysfs","sysfs",false]'
echo "$out" | jq -r '.firmware[0].devlink.error' | grep -q 'has no devlink' && ok "ENODATA message" || bad "ENODATA message"
# A corrupted VPD: fields kept, checksum bad, warned.
printf '\001' | dd of="$wc/sys/bus/pci/devices/0000:5e:00.0/vpd" bs=1 seek=5 conv=notrunc 2>/dev/null
"$MLXCLI" --sysroot "$wc" -j fw -d 5e:00.0 >"$MLXCLI_STATE_DIR/o" 2>"$MLXCLI_STATE_DIR/e"
check "bad VPD checksum" "$(jq -r '.firmware[0].vpd.checksum' "$MLXCLI_STATE_DIR/o")" bad
grep -q 'checksum is wrong' "$MLXCLI_STATE_DIR/e" && ok "checksum warning" || bad "checksum warning"

# issue 25 item 18: devices' fw_version and fw's running_version are one
# fact.  Released keys are never renamed (mlxcli-json(7)): both stay, the
# registry says which one names the fact (running_version: beside
# stored_version, and the Prometheus label), and the values agree.
for s in cx5-ofed cx6dx-upstream; do
	d=$("$MLXCLI" --sample=$s -j devices 2>/dev/null | jq -c '[.devices[] | select(.role == "pf") | [.pci_address, .fw_version]]')
	f=$("$MLXCLI" --sample=$s -j fw 2>/dev/null | jq -c '[.firmware[] | select(.role == "pf") | [.pci_address, .running_version]]')
	check "$s: devices' fw_version is fw's running_version" "$d" "$f"
done
reg=$TOP_SRCDIR/man/mlxcli-json.7
check "the registry: fw_version is running_version, kept where released" \
	"$(sed -n '/^\.B fw_version$/{n;p}' "$reg" | grep -c 'the same fact as \\fBrunning_version\\fR')" 1
check "the registry: the rule for a fact with two keys" \
	"$(grep -c '^One fact named by two keys' "$reg")" 1
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli pci show on both sample hosts: link capability vs status (the
# degraded x8 warning on cx6dx), payload sizes, AER, VSEC, SR-IOV cap.
set -u
. "$(dirname "$0")/lib.sh"
need jq

"$MLXCLI" --sample -j pci show >"$MLXCLI_STATE_DIR/o" 2>"$MLXCLI_STATE_DIR/e" || bad "pci show exits 0"
check "cx5: six functions" "$(jq '.pci | length' "$MLXCLI_STATE_DIR/o")" 6
check "cx5 PF0 link" "$(jq -c '.pci[0].pcie | [.capability.speed, .capability.width, .status.speed, .status.width, .degraded]' "$MLXCLI_STATE_DIR/o")" \
	'["8GT/s",16,"8GT/s",16,false]'
check "cx5 PF0 payload" "$(jq -c '.pci[0] | [.max_payload_supported_bytes, .max_payload_bytes, .max_read_request_bytes]' "$MLXCLI_STATE_DIR/o")" '[512,256,4096]'
check "cx5 PF0 AER" "$(jq -c '.pci[0].aer | [.offset, .correctable, .nonfatal, .fatal]' "$MLXCLI_STATE_DIR/o")" '["0x100",0,0,0]'
check "cx5 PF0 VSEC" "$(jq -c '.pci[0].vsec | [.present, .offset, .length_bytes]' "$MLXCLI_STATE_DIR/o")" '[true,"0xc0",24]'
check "cx5 PF0 SR-IOV cap" "$(jq -c '.pci[0].capability | [.total_vfs, .num_vfs]' "$MLXCLI_STATE_DIR/o")" '[8,4]'
check "cx5 VF: no AER, not degraded" "$(jq -c '.pci[2] | [.role, .aer.correctable, .pcie.degraded]' "$MLXCLI_STATE_DIR/o")" '["vf",null,false]'
test -s "$MLXCLI_STATE_DIR/e" && bad "cx5: no warning expected" || ok "cx5: no warning"

"$MLXCLI" --sample=cx6dx-upstream pci -d 3b:00.1 >"$MLXCLI_STATE_DIR/o" 2>"$MLXCLI_STATE_DIR/e" || bad "cx6dx pci"
grep -q '^  link status: 16GT/s x8$' "$MLXCLI_STATE_DIR/o" && ok "cx6dx text status" || bad "cx6dx text status"
grep -q '^  degraded: yes$' "$MLXCLI_STATE_DIR/o" && ok "cx6dx degraded" || bad "cx6dx degraded"
grep -q 'warning: 0000:3b:00.1: PCIe link trained at 16GT/s x8, below its capability 16GT/s x16' \
	"$MLXCLI_STATE_DIR/e" && ok "cx6dx warning" || bad "cx6dx warning"
"$MLXCLI" --sample pci show -d 99:00.0 2>/dev/null; check "missing device exit 3" $? 3
"$MLXCLI" --sample pci list 2>/dev/null; check "unknown verb exit 2" $? 2
finish

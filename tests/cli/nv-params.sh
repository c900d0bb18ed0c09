#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Firmware NV settings (issue 27): the devlink parameters with
# configuration mode permanent, which mlx5 registers for enable_sriov and
# total_vfs (Documentation/networking/devlink/mlx5.rst) and which take
# effect after a firmware reset.  No capture in ../shared/fixtures holds
# one (the KERNELDOC examples show runtime and driverinit parameters only)
# and netdevsim has none (drivers/net/netdevsim/dev.c: max_macs and test1,
# driverinit), so they are added to a copy of cx6dx-upstream's recorded
# DEVLINK_CMD_PARAM_GET dump, laid out as net/devlink sends them
# (gen/samples.py dl_param): enable_sriov true, total_vfs 8, both
# permanent, on the PF 0000:3b:00.0.  Then:
#   - params lists both with their values, applying at a firmware reset
#     (JSON applies "firmware-reset"; text APPLIES), the runtime and
#     driverinit parameters as before;
#   - params set of one is refused (exit 4) before anything is written,
#     naming devlink's command with cmode permanent and the firmware reset;
#   - state holds neither (it holds what changes at run time: apply
#     cannot make a permanent value take effect).

. "$(dirname "$0")/lib.sh"
need jq python3

fresh nv cx6dx-upstream
cap=$tmp/nv
python3 - "$cap" "$(dirname "$0")/../../gen" <<'EOF' || bad "adding the permanent parameters"
import os, struct, sys
sys.path.insert(0, sys.argv[2])
import samples as gs
path = os.path.join(sys.argv[1], 'netlink', 'devlink', 'all', 'param-dump.nl')
data = open(path, 'rb').read()
done = gs.nlmsg_done()
assert data.endswith(done), 'the dump ends with NLMSG_DONE'
PERMANENT = 2   # DEVLINK_PARAM_CMODE_PERMANENT
add = gs.dl_param('0000:3b:00.0', 'enable_sriov', True, gs.PT_BOOL, PERMANENT, True)
add += gs.dl_param('0000:3b:00.0', 'total_vfs', True, gs.PT_U32, PERMANENT, 8)
open(path, 'wb').write(data[:-len(done)] + add + done)
EOF

P() { "$MLXCLI" --sysroot "$cap" -j params -d enp59s0f0np0 --source devlink; }
run p -j --sysroot "$cap" params -d enp59s0f0np0 --source devlink
check "params: exit 0" "$rc" 0
[ "$rc" -eq 0 ] || cat "$tmp/p.err"
check "params: the permanent parameters, at a firmware reset" \
	"$(jq -c '[.params[0].knobs[] | select(.applies == "firmware-reset") | [.name, .current]]' "$tmp/p.out")" \
	'[["enable_sriov",true],["total_vfs",8]]'
check "params: the others as before" \
	"$(jq -c '[.params[0].knobs[] | select(.applies != "firmware-reset")] | length' "$tmp/p.out")" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j params -d enp59s0f0np0 --source devlink 2>/dev/null |
		jq -c '[.params[0].knobs[]] | length')"
run pt --sysroot "$cap" params -d enp59s0f0np0 --source devlink
grep -q '^enable_sriov  *true .*firmware-reset' "$tmp/pt.out" && ok "params (text): enable_sriov ... firmware-reset" ||
	bad "params (text): $(cat "$tmp/pt.out")"

before=$(P | md5sum)
run ps --sysroot "$cap" params set -d enp59s0f0np0 enable_sriov=false
check "params set of a permanent parameter: exit 4" "$rc" 4
grep -q "devlink dev param set pci/0000:3b:00.0 name enable_sriov value false cmode permanent, then a firmware reset" \
	"$tmp/ps.err" && ok "  ... naming devlink's command and the firmware reset" || bad "params set: $(cat "$tmp/ps.err")"
check "refused: nothing written" "$(P | md5sum)" "$before"

run st -j --sysroot "$cap" state -d enp59s0f0np0
check "state: exit 0" "$rc" 0
check "state: no permanent parameter in it" "$(grep -c '"enable_sriov"\|"total_vfs"' "$tmp/st.out")" 0
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli params (issue 17) on both sample hosts: the ethtool and devlink
# dumps replayed, private flags reproduced from the upstream capture
# ($FIXTURES/ethtool, skipped without it), --diff, --source, info,
# completion, exit codes, and a snapshot of a sample that shows the same.
set -u
. "$(dirname "$0")/lib.sh"
need jq
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (got '$2', want '$3')"; fi; }

# cx5-ofed: PF0 is tuned (dropless_rq, rx ring 8192, LRO, RoCE ToS): --diff says
# exactly that, and nothing for the other ports or the module
out=$("$MLXCLI" --sample=cx5-ofed -j params --diff) || bad "params --diff exits 0"
check "cx5: --diff" "$(echo "$out" | jq -c '[.params[] | {netdev, d: [.knobs[] | [.name, .current, .default_value]]}]')" \
	'[{"netdev":"enp94s0f0np0","d":[["dropless_rq",true,false],["rx_ring",8192,1024],["lro",true,false],["roce_tos",106,0]]}]'
check "cx5: --diff has no module object" "$(echo "$out" | jq -c '.kernel_module')" null
out=$("$MLXCLI" --sample=cx5-ofed -j params show -d enp94s0f0np0) || bad "params show -d"
check "cx5: rx ring with the device's maximum and Windows key" \
	"$(echo "$out" | jq -c '.params[0].knobs[] | select(.name == "rx_ring") | [.current, .default_value, .device_max, .unit, .source, .applies, .at_default, .windows_key]')" \
	'[8192,1024,8192,"entries","ring","runtime",false,"*ReceiveBuffers; RfdReservationFactor (packet burst)"]'
check "cx5: MLNX_OFED flags" "$(echo "$out" | jq -c '[.params[0].knobs[] | select(.source == "privflag") | .name][8:]')" \
	'["dropless_rq","per_channel_stats"]'
check "cx5: devlink cmodes" "$(echo "$out" | jq -c '[.params[0].knobs[] | select(.source == "devlink") | select(.name == "enable_roce" or .name == "flow_steering_mode") | [.name, .current, .applies]]')" \
	'[["enable_roce",true,"driver-reload"],["flow_steering_mode","dmfs","runtime"]]'
check "cx5: channels (unknown default)" "$(echo "$out" | jq -c '.params[0].knobs[] | select(.name == "combined_channels") | [.current, .default_value, .device_max, .at_default]')" \
	'[4,null,12,null]'
out=$("$MLXCLI" --sample=cx5-ofed -j params --source module) || bad "params --source module"
check "cx5: module parameters (the OFED capture's names)" "$(echo "$out" | jq -c '[(.params | length), (.kernel_module.knobs[] | [.name, .current])]')" \
	'[0,["debug_mask",0],["guids","(null)"],["num_of_groups",4],["out_ifname",""],["probe_vf",true],["prof_sel",2]]'
out=$("$MLXCLI" --sample=cx5-ofed -j params --source rdma) || bad "params --source rdma"
check "cx5: rdma_cm's RoCE knobs where configfs has them" "$(echo "$out" | jq -c '[.params[] | [.netdev, (.knobs[] | [.name, .current, .at_default])]]')" \
	'[["enp94s0f0np0",["roce_mode","RoCE v2",true],["roce_tos",106,false]]]'
out=$("$MLXCLI" --sample=cx5-ofed -j params --source devlink) || bad "params --source devlink"
check "devlink parameters on the PFs only" "$(echo "$out" | jq -c '[.params[] | .netdev]')" '["enp94s0f0np0","enp94s0f1np1"]'
check "'params' = 'params show'" "$("$MLXCLI" --sample=cx5-ofed params show 2>&1 | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed params 2>&1 | md5sum)"

# cx6dx-upstream: the private flags of the upstream capture, as ethtool
# printed them
out=$("$MLXCLI" --sample=cx6dx-upstream -j params -d enp59s0f0np0) || bad "cx6dx params"
cap=$FIXTURES/ethtool/cx5ex-upstream-6.4rc2-show-priv-flags-and-ethtool-i.txt
if [ -f "$cap" ]; then
	want=$(awk '/^Private flags/ {on = 1; next} on && /:/ {gsub(/ /, ""); split($0, a, ":"); printf "%s=%s\n", a[1], a[2]} on && !/:/ {on = 0}' "$cap")
	got=$(echo "$out" | jq -r '.params[0].knobs[] | select(.source == "privflag") | "\(.name)=\(if .current then "on" else "off" end)"')
	check "cx6dx: private flags as the upstream capture" "$got" "$want"
else
	echo "# $cap absent: private flags not compared"
fi
check "cx6dx: features" "$(echo "$out" | jq -c '[.params[0].knobs[] | select(.name == "lro" or .name == "gro_hw" or .name == "tso") | [.name, .current, .fixed]]')" \
	'[["tso",true,false],["lro",false,false],["gro_hw",false,true]]'
check "cx6dx: coalescing" "$(echo "$out" | jq -c '[.params[0].knobs[] | select(.source == "coalesce") | .current]')" \
	'[true,true,8,128,8,128,true,false]'
check "cx6dx: smfs, no MLNX_OFED module parameters" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j params | jq -c '[(.params[0].knobs[] | select(.name == "flow_steering_mode") | .current), [.kernel_module.knobs[].name]]')" \
	'["smfs",["debug_mask","prof_sel"]]'

# params info: the catalogue, no device needed
out=$("$MLXCLI" --sample -j params info) || bad "params info"
check "info: every knob with where its default comes from" \
	"$(echo "$out" | jq -c '[(.knobs | length > 50), ([.knobs[] | select(.default_from == null)] | length), (.knobs[] | select(.name == "tx_ring") | [.default_value, .min, .default_from])]')" \
	'[true,0,[1024,64,"drivers/net/ethernet/mellanox/mlx5/core/en.h MLX5E_PARAMS_DEFAULT_LOG_SQ_SIZE 0xa"]]'
check "info KNOB" "$("$MLXCLI" -j params info dropless_rq | jq -c '[.knobs[] | [.name, .windows_key]]')" '[["dropless_rq","DelayDropTimeout"]]'

# errors
run unknown --sample params show rx_rnig
check "unknown knob: exit 2" "$rc" 2
grep -q "did you mean 'rx_ring'" "$tmp/unknown.err" && ok "did you mean" || bad "did you mean: $(cat "$tmp/unknown.err")"
run badsrc --sample params --source ringz
check "unknown source: exit 2" "$rc" 2
run nodev --sample params -d 99:00.0
check "no such device: exit 3" "$rc" 3

# the mlx5cmd verbs are not mapped yet, but point at params
run regkeys --sample -RegKeys -Name enp94s0f0np0
check "-RegKeys: exit 2" "$rc" 2
grep -q "'mlxcli params' shows part of it" "$tmp/regkeys.err" && ok "-RegKeys points at params" ||
	bad "-RegKeys: $(cat "$tmp/regkeys.err")"
run features --sample -Features -Name enp94s0f0np0
grep -q "'mlxcli params --source feature,privflag' shows part of it" "$tmp/features.err" &&
	ok "-Features points at params" || bad "-Features: $(cat "$tmp/features.err")"

# completion of knob names from the catalogue
"$MLXCLI" __complete params show rx_ >"$tmp/c"
grep -qx rx_ring "$tmp/c" && grep -qx rx_cqe_moder "$tmp/c" && ok "knob names complete" || bad "completion: $(cat "$tmp/c")"

# a capture without the ethtool dumps: those knobs are missing, the MTU
# and devlink stay, exit 0
wc=$tmp/noeth
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$wc" && rm -rf "$wc/netlink/ethtool/all"
out=$("$MLXCLI" --sysroot "$wc" -j params -d enp94s0f0np0 2>"$tmp/noeth.err") || bad "params without the ethtool dumps"
check "no ethtool dumps: one warning a source" "$(grep -c 'the capture has no such replies' "$tmp/noeth.err")" 5
check "no ethtool dumps: mtu, devlink and rdma only" "$(echo "$out" | jq -c '[.params[0].knobs[].source] | unique')" '["devlink","mtu","rdma"]'

# a snapshot of the sample shows the same table
"$MLXCLI" --sample=cx5-ofed snapshot "$tmp/snap" >/dev/null 2>&1 || bad "snapshot"
check "snapshot: same params" "$("$MLXCLI" --sysroot "$tmp/snap" -j params | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params | md5sum)"
finish

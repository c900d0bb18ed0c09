#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli params (issue 17) on both sample hosts: the ethtool and devlink
# dumps replayed, private flags reproduced from the upstream capture
# ($FIXTURES/ethtool, skipped without it), --diff, --source, info,
# completion, exit codes, and a snapshot of a sample that shows the same.
set -u
. "$(dirname "$0")/lib.sh"
need jq python3

# cx5-ofed: PF0 is tuned (dropless_rq, rx ring 8192, LRO, RoCE ToS): --diff says
# exactly that, and nothing for the other ports or the module
out=$("$MLXCLI" --sample=cx5-ofed -j params --diff) || bad "params --diff exits 0"
check "cx5: --diff" "$(echo "$out" | jq -c '[.params[] | {netdev, d: [.knobs[] | [.name, .current, .default_value]]}]')" \
	'[{"netdev":"enp94s0f0np0","d":[["dropless_rq",true,false],["rx_ring",8192,1024],["lro",true,false],["roce_tos",106,0],["traffic_class",106,"unset"]]}]'
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
	'[["enp94s0f0np0",["roce_mode","RoCE v2",true],["roce_tos",106,false],["traffic_class",106,false]],["enp94s0f1np1",["traffic_class","unset",true]]]'
# MLNX_OFED's traffic class (/sys/class/infiniband/DEV/tc/PORT/traffic_class):
# set through the write engine, the file as mlx5_ib leaves it, read back
out=$("$MLXCLI" --sample=cx5-ofed -j -d enp94s0f1np1 params set traffic_class=160) || bad "set traffic_class"
check "traffic_class: the change record (old 'unset')" "$(echo "$out" | jq -c '[.changes[] | [.setting, .old, .new]]')" \
	'[["traffic_class","unset",160]]'
check "traffic_class: the file reads as mlx5_ib's" \
	"$(cat "$MLXCLI_STATE_DIR"/samples/cx5-ofed/sys/class/infiniband/mlx5_1/tc/1/traffic_class)" "Global tclass=160"
check "traffic_class: read back" \
	"$("$MLXCLI" --sample=cx5-ofed -j params -d enp94s0f1np1 traffic_class | jq -c '.params[0].knobs[0].current')" 160
run tcreset --sample=cx5-ofed -d enp94s0f1np1 params reset traffic_class
check "traffic_class: no write restores 'unset': exit 4" "$rc" 4
run tcrange --sample=cx5-ofed -d enp94s0f1np1 params set traffic_class=256
check "traffic_class 256: exit 2" "$rc" 2
run tcup --sample=cx6dx-upstream -d enp59s0f0np0 params set traffic_class=106
check "traffic_class on upstream (no such file): exit 4" "$rc" 4
"$MLXCLI" --sample=cx5-ofed sample reset >/dev/null 2>&1
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

# mlx5cmd -RegKeys [-DynamicKeys], -Features (seeds-mlx5cmd-dcqcn-qos.md
# §2.5, §2.6): the values params shows, as registry keys and feature states
p=$("$MLXCLI" --sample=cx5-ofed -j params -d enp94s0f0np0)
out=$("$MLXCLI" --sample=cx5-ofed -j -RegKeys -Name enp94s0f0np0) || bad "-RegKeys exits 0"
check "-RegKeys: the knobs with a Windows key, params' values" \
	"$(echo "$out" | jq -c '[.params[0].registry_keys[] | [.knob, .key, .current]]')" \
	"$(echo "$p" | jq -c '[.params[0].knobs[] | select(.windows_key) | [.name, .windows_key, .current]]')"
check "-RegKeys: the tuned PF's keys are there" \
	"$(echo "$out" | jq -c '[.params[0].registry_keys[] | select(.knob == "rx_ring" or .knob == "dropless_rq") | [.key, .current]]')" \
	'[["DelayDropTimeout",true],["*ReceiveBuffers; RfdReservationFactor (packet burst)",8192]]'
out=$("$MLXCLI" --sample=cx5-ofed -j -RegKeys -DynamicKeys -Name enp94s0f0np0) || bad "-DynamicKeys exits 0"
check "-DynamicKeys: only what applies at run time" \
	"$(echo "$out" | jq -c '[.params[0].registry_keys[] | .knob]')" \
	"$(echo "$p" | jq -c '[.params[0].knobs[] | select(.windows_key and .applies == "runtime") | .name]')"
check "-DynamicKeys leaves out enable_roce (driver reload)" \
	"$(echo "$out" | jq -c '[.params[0].registry_keys[] | select(.knob == "enable_roce")] | length')" 0
"$MLXCLI" --sample=cx5-ofed -RegKeys -Name enp94s0f0np0 >"$tmp/rk" || bad "-RegKeys text"
check "-RegKeys text: the heading and a TAB-indented KEY (knob): VALUE line" \
	"$(sed -n '1p;/(rx_ring)/p' "$tmp/rk")" "$(printf 'Registry keys for adapter "enp94s0f0np0":\n\t*ReceiveBuffers; RfdReservationFactor (packet burst) (rx_ring): 8192')"
check "mlx5cmd words: any case, en dash = params regkeys --dynamic" \
	"$("$MLXCLI" --sample=cx5-ofed -j –regkeys -dynamickeys | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params regkeys --dynamic | md5sum)"
out=$("$MLXCLI" --sample=cx5-ofed -j -Features -Name enp94s0f0np0) || bad "-Features exits 0"
check "-Features: the features and private flags, params' values" \
	"$(echo "$out" | jq -c '[.params[0].features[] | [.name, .source, .state == "enabled"]]')" \
	"$(echo "$p" | jq -c '[.params[0].knobs[] | select(.source == "feature" or .source == "privflag") | [.name, .source, .current]]')"
check "-Features JSON: a fixed-off feature is unsupported" \
	"$(echo "$out" | jq -c '.params[0].features[] | select(.name == "gro_hw") | [.state, .fixed]')" '["unsupported",true]'
"$MLXCLI" --sample=cx5-ofed -Features -Name enp94s0f0np0 >"$tmp/ft" || bad "-Features text"
check "-Features text: State lines (LRO on, unsupported gro_hw Disabled)" \
	"$(grep -A1 -x -e lro -e gro_hw "$tmp/ft")" "$(printf 'lro\n\tState: Enabled\ngro_hw\n\tState: Disabled')"
run dynalone --sample -DynamicKeys
check "-DynamicKeys alone: exit 2" "$rc" 2
run featextra --sample -Features -Get
check "-Features -Get: exit 2" "$rc" 2
run rkgroup --sample -Qosconfig -Dcqcn -RegKeys
check "-RegKeys with -Dcqcn: exit 2" "$rc" 2
check "-RegKeys completes, then its words" \
	"$("$MLXCLI" __complete -Reg; "$MLXCLI" __complete -RegKeys -)" "$(printf -- '-RegKeys\n-Name\n-DynamicKeys')"

# completion of knob names from the catalogue
"$MLXCLI" __complete params show rx_ >"$tmp/c"
grep -qx rx_ring "$tmp/c" && grep -qx rx_cqe_moder "$tmp/c" && ok "knob names complete" || bad "completion: $(cat "$tmp/c")"

# a capture without the ethtool dumps: those knobs are missing, the MTU,
# devlink, the tunable (an ioctl's recording) and threaded NAPI (sysfs)
# stay, exit 0
wc=$tmp/noeth
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$wc" && rm -rf "$wc/netlink/ethtool/all"
out=$("$MLXCLI" --sysroot "$wc" -j params -d enp94s0f0np0 2>"$tmp/noeth.err") || bad "params without the ethtool dumps"
check "no ethtool dumps: one warning a source" "$(grep -c 'the capture has no such replies' "$tmp/noeth.err")" 5
check "no ethtool dumps: mtu, devlink, rdma, tunable and napi only" "$(echo "$out" | jq -c '[.params[0].knobs[].source] | unique')" '["devlink","mtu","napi","rdma","tunable"]'

# a snapshot of the sample shows the same table
"$MLXCLI" --sample=cx5-ofed snapshot "$tmp/snap" >/dev/null 2>&1 || bad "snapshot"
check "snapshot: same params" "$("$MLXCLI" --sysroot "$tmp/snap" -j params | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params | md5sum)"
# params set and reset (the write engine) on the sample's working copy:
# the emulator takes the request bytes of the live path and changes the
# recorded dumps, which params show then replays
J() { "$MLXCLI" --sample=cx6dx-upstream -j params show -d enp59s0f0np0 "$@"; }
cur() { J | jq -c "[.params[0].knobs[] | select($1) | .current]"; }
"$MLXCLI" --sample=cx6dx-upstream sample reset >/dev/null 2>&1
before=$(J | md5sum)
out=$("$MLXCLI" --sample=cx6dx-upstream -j params set -n -d enp59s0f0np0 rx_ring=4096 tso=off) ||
	bad "set --dry-run exits 0"
check "set --dry-run: the change record" "$(echo "$out" | jq -c '[.dry_run, (.changes[] | [.setting, .old, .new, .changed])]')" \
	'[true,["rx_ring",1024,4096,true],["tso",true,false,true]]'
check "set --dry-run writes nothing" "$(J | md5sum)" "$before"
out=$("$MLXCLI" --sample=cx6dx-upstream -j params set -d enp59s0f0np0 rx_ring=4096 combined_channels=2 \
	adaptive_rx=off rx_usecs=64 tso=off lro=on rx_cqe_compress=on mtu=9000 flow_steering_mode=dmfs \
	esw_port_metadata=false 2>"$tmp/set.err") || bad "set ten knobs: $(cat "$tmp/set.err")"
check "set: ten changes" "$(echo "$out" | jq -c '[.changes[] | select(.changed)] | length')" 10
check "set: read back by params show" \
	"$(cur '.name == "rx_ring" or .name == "combined_channels" or .name == "adaptive_rx" or .name == "rx_usecs" or .name == "tso" or .name == "lro" or .name == "rx_cqe_compress" or .name == "mtu" or .name == "flow_steering_mode" or .name == "esw_port_metadata"')" \
	'[true,4096,2,false,64,false,true,9000,"dmfs",false]'
# refused before anything is written: a bad value (exit 2), above the
# device's maximum (exit 2), a fixed feature (exit 4)
after=$(J | md5sum)
run badval --sample=cx6dx-upstream params set -d enp59s0f0np0 rx_ring=abc
check "set a bad value: exit 2" "$rc" 2
run overmax --sample=cx6dx-upstream params set -d enp59s0f0np0 tx_ring=512 rx_ring=16384
check "set above the device's maximum: exit 2" "$rc" 2
grep -q "16384 is above the device's maximum 8192" "$tmp/overmax.err" && ok "the maximum is said" ||
	bad "maximum: $(cat "$tmp/overmax.err")"
run fixed --sample=cx6dx-upstream params set -d enp59s0f0np0 gro_hw=on
check "a fixed feature: exit 4" "$rc" 4
run notnv --sample=cx6dx-upstream params set -d enp59s0f0np0 rx_ring
check "not NAME=VALUE: exit 2" "$rc" 2
check "refused sets write nothing" "$(J | md5sum)" "$after"
# a driverinit devlink parameter is set for the next reload (it was
# refused until the kernel lab's netdevsim, tests/vm/guest/nsim-params.sh):
# read back in its driverinit row, the change record says the reload
run reload -j --sample=cx6dx-upstream params set -d enp59s0f0np0 enable_roce=false
check "a knob that needs a reload: exit 0" "$rc" 0
check "... the note says the reload" "$(jq -r '.changes[0].note' "$tmp/reload.out")" \
	"driverinit: takes effect at the next devlink reload (mlxcli dbg sw-reset)"
check "... read back in its driverinit row" \
	"$(J --source devlink | jq -c '[.params[0].knobs[] | select(.name == "enable_roce") | [.current, .applies]]')" \
	'[[false,"driver-reload"]]'
run reload2 --sample=cx6dx-upstream params set -d enp59s0f0np0 enable_roce=true
check "... and back: exit 0" "$rc" 0
check "... as it was" "$(J | md5sum)" "$after"

# all or nothing: the second write fails (the MTU file refuses, as a
# kernel can): the first is put back, exit 1.  A captured system's file
# is replaced, never written in place (issue 29): the write of the MTU
# is the rename of its new file over it, which the shim fails.
SHIM=${TOP_BUILDDIR:-$(pwd)}/tests/fault/fault-shim.so
if [ -f "$SHIM" ] && [ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD=$SHIM \
		MLXCLI_FAULT_CALL=rename MLXCLI_FAULT_PATH=enp59s0f0np0/mtu MLXCLI_FAULT_NTH=1 \
		MLXCLI_FAULT_ERRNO=EIO "$MLXCLI" --sample=cx6dx-upstream params set -d enp59s0f0np0 \
		tx_ring=2048 mtu=1500 >"$tmp/rb.out" 2>"$tmp/rb.err"
	check "the second write fails: exit 1" "$?" 1
	grep -q "cannot set mtu to 1500 on enp59s0f0np0: Input/output error; the 1 value(s) written were put back" \
		"$tmp/rb.err" && ok "the rollback is said" || bad "rollback: $(cat "$tmp/rb.err")"
	check "rolled back: nothing changed" "$(J | md5sum)" "$after"
else
	echo "# $SHIM absent (or a wrapped binary): rollback not checked"
fi

# reset: named knobs, then every knob with a known default; a default
# nobody knows is refused (exit 4)
out=$("$MLXCLI" --sample=cx6dx-upstream -j params reset -d enp59s0f0np0 rx_ring tso) || bad "reset two"
check "reset two: back to the catalogue's defaults" "$(cur '.name == "rx_ring" or .name == "tso"')" '[1024,true]'
run noreset --sample=cx6dx-upstream params reset -d enp59s0f0np0 combined_channels
check "reset of an unknown default: exit 4" "$rc" 4
grep -q "cannot reset combined_channels: its default is not known" "$tmp/noreset.err" &&
	ok "the unknown default is said" || bad "unknown default: $(cat "$tmp/noreset.err")"
run resetall --sample=cx6dx-upstream -j params reset -d enp59s0f0np0
check "reset: exit 0" "$rc" 0
check "reset: the known defaults are back" "$("$MLXCLI" --sample=cx6dx-upstream -j params --diff -d enp59s0f0np0 |
	jq -c '[.params[].knobs[] | .name]')" '[]'
check "reset: what it changed" "$(jq -c '[.changes[] | select(.changed) | [.setting, .new]]' "$tmp/resetall.out")" \
	'[["rx_cqe_compress",false],["adaptive_rx",true],["lro",false],["mtu",1500],["esw_port_metadata",true]]'
grep -q "stay as they are (no known default, or not changed at run time): combined_channels, rx_usecs" \
	"$tmp/resetall.err" && ok "reset names what it leaves" || bad "reset: $(cat "$tmp/resetall.err")"
check "reset: the unknown defaults keep their values" "$(cur '.name == "combined_channels" or .name == "rx_usecs"')" '[2,64]'
"$MLXCLI" --sample=cx6dx-upstream sample reset >/dev/null 2>&1
# every private flag the device reports (issue 25): the 13 of a real
# MLNX_OFED host (the three upstream lacks have their catalogue rows and
# defaults) and one no catalogue row knows, on a copy of cx5-ofed; each is
# shown, settable, read back, in state, applied
of=$tmp/ofed13
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$of" && chmod -R u+w "$of"
python3 "$(dirname "$0")/privflags-set.py" "$of" enp94s0f1np1 rx_cqe_moder=on tx_cqe_moder=off \
	rx_cqe_compress=off tx_cqe_compress=off rx_striding_rq=on rx_no_csum_complete=off \
	xdp_tx_mpwqe=on skb_tx_mpwqe=on tx_port_ts=off dropless_rq=off per_channel_stats=on \
	tx_xdp_hw_checksum=off skb_xmit_more=off sniffer=off || bad "privflags-set.py"
P() { "$MLXCLI" --sysroot "$of" -j params -d enp94s0f1np1 --source privflag; }
check "13 MLNX_OFED flags and an unknown one: all shown" "$(P | jq -c '[.params[0].knobs[].name] | length')" 14
check "the MLNX_OFED three: defaults known (off), at them" \
	"$(P | jq -c '[.params[0].knobs[] | select(.name == "tx_cqe_compress" or .name == "tx_xdp_hw_checksum" or .name == "skb_xmit_more") | [.name, .default_value, .at_default]]')" \
	'[["tx_cqe_compress",false,true],["tx_xdp_hw_checksum",false,true],["skb_xmit_more",false,true]]'
check "a flag no row knows: no default, said why" \
	"$(P | jq -c '.params[0].knobs[] | select(.name == "sniffer") | [.current, .default_value, .choices, (.default_from | test("not list"))]')" \
	'[false,null,["on","off"],true]'
out=$("$MLXCLI" --sysroot "$of" -j -d enp94s0f1np1 params set skb_xmit_more=on sniffer=on tx_xdp_hw_checksum=on 2>"$tmp/pf.err") ||
	bad "set three flags: $(cat "$tmp/pf.err")"
check "set skb_xmit_more, sniffer, tx_xdp_hw_checksum: the change record" \
	"$(echo "$out" | jq -c '[.changes[] | [.setting, .old, .new, .changed]]')" \
	'[["skb_xmit_more",false,true,true],["sniffer",false,true,true],["tx_xdp_hw_checksum",false,true,true]]'
check "... read back" "$(P | jq -c '[.params[0].knobs[] | select(.current) | .name] | map(select(. == "skb_xmit_more" or . == "sniffer" or . == "tx_xdp_hw_checksum"))')" \
	'["tx_xdp_hw_checksum","skb_xmit_more","sniffer"]'
check "in state, each one" "$("$MLXCLI" --sysroot "$of" -j state -d enp94s0f1np1 | jq -c '.ports[0].params | [.skb_xmit_more, .sniffer, .tx_cqe_compress]')" \
	'[true,true,false]'
echo '{"ports": [{"netdev": "enp94s0f1np1", "params": {"sniffer": false, "skb_xmit_more": false}}]}' >"$tmp/pf.json"
"$MLXCLI" --sysroot "$of" -j apply "$tmp/pf.json" >"$tmp/pfa.json" 2>"$tmp/pfa.err"
check "apply a state with a flag no row knows: exit 0" "$?" 0
check "... both written" "$(P | jq -c '[.params[0].knobs[] | select(.name == "sniffer" or .name == "skb_xmit_more") | .current]')" '[false,false]'
run pfnone --sysroot "$of" -d enp94s0f1np1 params set nosuch_flag=on
check "a flag the device does not report: exit 2" "$rc" 2
grep -q "no knob 'nosuch_flag': not in the catalogue, and enp94s0f1np1 reports no private flag of that name" \
	"$tmp/pfnone.err" && ok "... said so" || bad "nosuch_flag: $(cat "$tmp/pfnone.err")"
run pfval --sysroot "$of" -d enp94s0f1np1 params set nosuch_flag=5
check "an unknown name with a non-flag value: exit 2" "$rc" 2
echo '{"ports": [{"netdev": "enp94s0f1np1", "params": {"nosuch_flag": true}}]}' >"$tmp/pfn.json"
run pfapply --sysroot "$of" apply "$tmp/pfn.json"
check "apply of a flag the device lacks: exit 2, nothing written" "$rc" 2

# mlxtool's forms: show regkeys config|diff|info [IF], show driverparams IF,
# modify driverparams IF NAME=VALUE
check "show regkeys config = params" "$("$MLXCLI" --sample=cx5-ofed -j show regkeys config | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params | md5sum)"
check "show regkeys diff IF = params --diff -d IF" \
	"$("$MLXCLI" --sample=cx5-ofed -j show regkeys diff enp94s0f0np0 | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params --diff -d enp94s0f0np0 | md5sum)"
check "show regkeys info = params info" "$("$MLXCLI" --sample=cx5-ofed -j show regkeys info | md5sum)" \
	"$("$MLXCLI" --sample=cx5-ofed -j params info | md5sum)"
check "show driverparams IF: the data-path sources" \
	"$("$MLXCLI" --sample=cx5-ofed -j show driverparams enp94s0f0np0 | jq -c '[.params[0].knobs[].source] | unique')" \
	'["channel","coalesce","privflag","ring"]'
run tooltwice --sample=cx5-ofed show regkeys config enp94s0f0np0 -d enp94s0f1np1
check "an interface given twice: exit 2" "$rc" 2
out=$("$MLXCLI" --sample=cx5-ofed -j modify driverparams enp94s0f1np1 rx_ring=2048) || bad "modify driverparams"
check "modify driverparams: the change record" "$(echo "$out" | jq -c '[.changes[] | [.setting, .new]]')" '[["rx_ring",2048]]'
check "modify driverparams: read back" \
	"$("$MLXCLI" --sample=cx5-ofed -j params -d enp94s0f1np1 rx_ring | jq -c '.params[0].knobs[0].current')" 2048
run modnoval --sample=cx5-ofed modify driverparams enp94s0f1np1
check "modify driverparams without NAME=VALUE: exit 2" "$rc" 2
"$MLXCLI" --sample=cx5-ofed sample reset >/dev/null 2>&1
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 27's params sources against this machine's kernel, in a private
# network namespace made here with a veth pair va <-> vb:
#   - the PFC storm prevention timeout: the real SIOCETHTOOL
#     ETHTOOL_GTUNABLE on a veth, which has no get_tunable op: the kernel's
#     -EOPNOTSUPP (net/ethtool/ioctl.c ethtool_get_tunable), so no knob, and
#     `params set pfc_prevention_tout_msec=...` exits 4 saying why, as
#     `ethtool --get-tunable va pfc-prevention-tout` fails (where ethtool is);
#   - threaded NAPI (/sys/class/net/va/threaded, net-sysfs.c): read as the
#     file says; a write without NAPI (a veth without GRO or XDP) is the
#     kernel's -EOPNOTSUPP: exit 4, why, nothing changed; with GRO on (veth
#     adds its NAPI then, drivers/net/veth.c veth_set_features) a real write
#     and read back (the file, and params), --dry-run writing nothing, off
#     again, reset refused (the default is mlx5's and the kernel's, not a
#     veth driver's fact: exit 4), as uid 65534 exit 5 with nothing changed;
#   - state shows params.threaded; apply --any-netdev of threaded true
#     writes it, a second apply changes nothing, and an apply whose
#     threaded the kernel refuses (no NAPI) puts back the MTU written before.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
make_netns mlxcli-pfct
make_veth va vb
ip -n "$ns" link set va up && ip -n "$ns" link set vb up || { bad "veth up"; exit 1; }
thr() { nsx cat /sys/class/net/va/threaded; }
knob() { nsx "$MLXCLI" -j params --any-netdev -d va "$1" | jq -c '.params[0].knobs[0].current'; }

# ---- the tunable: the veth driver has none
nsx "$MLXCLI" -j params --any-netdev -d va >"$tmp/a.json" 2>"$tmp/a.err"
check "params -d va: exit 0" $? 0
check "no pfc_prevention_tout_msec on a veth, threaded as the file says" \
	"$(jq -c '[.params[0].knobs[] | select(.source == "tunable" or .source == "napi") | [.name, .current]]' "$tmp/a.json")" \
	"[[\"threaded\",$([ "$(thr)" = 1 ] && echo true || echo false)]]"
check "no warning for a tunable the driver lacks" "$(grep -c tunable "$tmp/a.err")" 0
if command -v ethtool >/dev/null 2>&1; then
	nsx ethtool --get-tunable va pfc-prevention-tout >/dev/null 2>&1
	check "ethtool --get-tunable fails on a veth too" "$([ $? -ne 0 ] && echo fails)" fails
fi
nsx "$MLXCLI" params set --any-netdev -d va pfc_prevention_tout_msec=100 >/dev/null 2>"$tmp/t.err"
check "params set pfc_prevention_tout_msec on a veth: exit 4" $? 4
grep -q "va has no PFC storm prevention timeout: its driver answers ETHTOOL_GTUNABLE pfc-prevention-tout with 'Operation not supported'" "$tmp/t.err" &&
	ok "the message says why" || bad "message: $(cat "$tmp/t.err")"
nsx "$MLXCLI" params set --any-netdev -d va pfc_prevention_tout_msec=50 >/dev/null 2>"$tmp/t.err"
check "a value outside mlx5's rule on a veth: still exit 4 (no tunable to set)" $? 4

# ---- threaded without NAPI: the kernel refuses the write
check "threaded starts 0" "$(thr)" 0
if command -v ethtool >/dev/null 2>&1; then
	nsx ethtool -K va gro off >/dev/null 2>&1
fi
nsx "$MLXCLI" params set --any-netdev -d va threaded=on >/dev/null 2>"$tmp/n.err"
check "threaded=on without NAPI: the kernel's refusal, nothing written: exit 4" $? 4
grep -q "cannot set threaded on va: the device has no NAPI instance now" "$tmp/n.err" &&
	ok "the refusal says why" || bad "message: $(cat "$tmp/n.err")"
check "threaded stays 0" "$(thr)" 0

# ---- with GRO the veth has NAPI: a real write and read back
if ! command -v ethtool >/dev/null 2>&1 || ! nsx ethtool -K va gro on >/dev/null 2>&1; then
	echo "# no ethtool, or no GRO on a veth: the threaded write checks skipped"
	finish
fi
nsx "$MLXCLI" params set --any-netdev -d va threaded=on --dry-run >"$tmp/d.out" 2>&1
check "--dry-run: exit 0, old -> new" "$? $(grep -c 'threaded: off -> on' "$tmp/d.out")" "0 1"
check "--dry-run: threaded stays 0" "$(thr)" 0
nsx "$MLXCLI" -j params set --any-netdev -d va threaded=on >"$tmp/s.json" 2>"$tmp/s.err"
check "threaded=on: exit 0, the change record" "$? $(jq -c '[.changes[] | [.setting, .old, .new]]' "$tmp/s.json")" \
	'0 [["threaded",false,true]]'
check "threaded=on: the kernel's file reads 1" "$(thr)" 1
check "threaded=on: params reads it back" "$(knob threaded)" true
priv_setup
nsx_nobody "$NOBODY_MLXCLI" params set --any-netdev -d va threaded=off >/dev/null 2>"$tmp/p.err"
check "as uid 65534: exit 5" $? 5
check "as uid 65534: threaded stays 1" "$(thr)" 1
nsx_nobody "$NOBODY_MLXCLI" -j params --any-netdev -d va threaded >"$tmp/p.json" 2>/dev/null
check "as uid 65534: the read works" "$(jq -c '.params[0].knobs[0].current' "$tmp/p.json")" true
nsx "$MLXCLI" params reset --any-netdev -d va threaded >/dev/null 2>"$tmp/r.err"
check "reset on a veth: the default is no veth fact, exit 4" $? 4
check "reset refused: threaded stays 1" "$(thr)" 1
nsx "$MLXCLI" params set --any-netdev -d va threaded=off >/dev/null 2>&1
check "threaded=off: exit 0, the file reads 0" "$? $(thr)" "0 0"

# ---- state and apply
nsx "$MLXCLI" -j state --any-netdev -d va >"$tmp/st.json" 2>/dev/null
check "state: params.threaded" "$(jq -c '.ports[0].params.threaded' "$tmp/st.json")" false
check "state: no pfc_prevention_tout_msec on a veth" "$(jq -c '.ports[0].params | has("pfc_prevention_tout_msec")' "$tmp/st.json")" false
echo '{"ports": [{"netdev": "va", "params": {"threaded": true}}]}' >"$tmp/want.json"
nsx "$MLXCLI" -j apply --any-netdev "$tmp/want.json" >"$tmp/ap.json" 2>"$tmp/ap.err"
check "apply threaded true: exit 0, written" "$? $(jq -c '[.changes[] | [.setting, .new]]' "$tmp/ap.json")" \
	'0 [["threaded",true]]'
check "apply: the file reads 1" "$(thr)" 1
nsx "$MLXCLI" -j apply --any-netdev "$tmp/want.json" >"$tmp/ap2.json" 2>/dev/null
check "a second apply changes nothing" "$? $(jq -c .changed "$tmp/ap2.json")" "0 false"
# a kernel refusal of threaded after the MTU was written (GRO off again:
# no NAPI) puts the MTU back
nsx "$MLXCLI" params set --any-netdev -d va threaded=off >/dev/null 2>&1
nsx ethtool -K va gro off >/dev/null 2>&1 || bad "gro off"
mtu0=$(nsx ip -j link show va | jq '.[0].mtu')
echo '{"ports": [{"netdev": "va", "params": {"mtu": 3000, "threaded": true}}]}' >"$tmp/bad.json"
nsx "$MLXCLI" -j apply --any-netdev "$tmp/bad.json" >/dev/null 2>"$tmp/b.err"
check "apply: threaded refused by the kernel after the MTU: exit 1" $? 1
check "the MTU put back" "$(nsx ip -j link show va | jq '.[0].mtu')" "$mtu0"
check "threaded stays 0" "$(thr)" 0
grep -q "no NAPI instance" "$tmp/b.err" && ok "apply says why" || bad "apply: $(cat "$tmp/b.err")"

finish

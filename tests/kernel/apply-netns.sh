#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli state` and `apply` against the real kernel (issue 19), inside a
# private network namespace made here with a veth pair va <-> vb of 4
# queues each.  A veth is no ConnectX port: with --any-netdev it has the
# "params" section (ethtool netlink, RTM_SETLINK), and null for everything
# else (no DCB, DCQCN, RDMA CM, SR-IOV).
#   - state --any-netdev -d va: params read as `ip -j link` says, the other
#     sections null;
#   - apply a file changing the MTU, a feature (tso off) and the channels:
#     read back by independent readers (ip -j link, ethtool -k, sysfs);
#     a second apply is "changed": false; --check writes nothing; state -j
#     applied back changes nothing;
#   - --diff: the plan as a unified diff of the veth's state; -d picks one
#     port of a file naming two;
#   - mlxcli diff of two states pairs the veth by its netdev; apply waits
#     for the lock params set --any-netdev takes (/run/mlxcli/va.lock);
#   - a failure in the middle leaves the old values: with scatter-gather off
#     the kernel keeps TSO off (netdev_fix_features), so a file setting
#     rx_channels (planned first: channels before features) and tso6 on fails
#     at the read-back, and the channels are put back; across two ports, the
#     first port's MTU is put back when the second fails.  (tso6, one
#     feature: the tso group reads on as ethtool -k's line does while a
#     member the kernel leaves alone, 6.18's tx-tcp-accecn-segmentation, is
#     on);
#   - the link section (issue 27): a veth's speed and duplex, no pause or
#     FEC (null); applied back it changes nothing; pause or FEC asked of a
#     veth: exit 4, nothing written;
#   - a DCB (trust, pfc) or sriov section for the veth: exit 4, nothing
#     written, the message names the JSON path;
#   - without --any-netdev the veth is not this host's port: exit 3.
# Root only (a namespace needs CAP_SYS_ADMIN): 77 otherwise.
. "$(dirname "$0")/lib.sh"
need_root
need jq
need_no_connectx
make_netns mlxcli-apl
if ! ip -n "$ns" link add va numtxqueues 4 numrxqueues 4 type veth peer name vb \
	numtxqueues 4 numrxqueues 4 2>"$tmp/veth.err"; then
	echo "SKIP: cannot create a veth pair: $(cat "$tmp/veth.err")"
	exit 77
fi
ip -n "$ns" link set va up && ip -n "$ns" link set vb up || { bad "veth up"; exit 1; }
mtu_of() { nsx ip -j link show "$1" | jq '.[0].mtu'; }
chan() { nsx "$MLXCLI" -j params --any-netdev -d va --source channel | jq -c \
	'[.params[0].knobs[] | select(.name == "rx_channels" or .name == "tx_channels") | .current]'; }
tso_of() {
	if command -v ethtool >/dev/null 2>&1; then
		nsx ethtool -k "$1" | sed -n 's/^[[:space:]]*tx-tcp-segmentation: \([a-z]*\).*/\1/p'
	else   # no ethtool: mlxcli's own reader
		nsx "$MLXCLI" -j params --any-netdev -d "$1" tso |
			jq -r '.params[0].knobs[0].current | if . then "on" else "off" end'
	fi
}
tso6_of() {
	if command -v ethtool >/dev/null 2>&1; then
		nsx ethtool -k "$1" | sed -n 's/^[[:space:]]*tx-tcp6-segmentation: \([a-z]*\).*/\1/p'
	else
		nsx "$MLXCLI" -j params --any-netdev -d "$1" tso6 |
			jq -r '.params[0].knobs[0].current | if . then "on" else "off" end'
	fi
}

# ---- state ----
nsx "$MLXCLI" -j state --any-netdev -d va >"$tmp/s.json" 2>"$tmp/s.err"
check "state --any-netdev -d va: exit 0" $? 0
check "state: one port, the netdev, no PCI address" \
	"$(jq -c '[.ports | length, .[0].netdev, .[0].pci_address]' "$tmp/s.json")" '[1,"va",null]'
check "state: the MTU ip link reports" "$(jq '.ports[0].params.mtu' "$tmp/s.json")" "$(mtu_of va)"
check "state: tso on" "$(jq '.ports[0].params.tso' "$tmp/s.json")" true
check "state: the channels" "$(jq -c '.ports[0].params | [.rx_channels, .tx_channels]' "$tmp/s.json")" '[4,4]'
check "state: no DCB, DCQCN, RDMA CM or SR-IOV (null)" \
	"$(jq -c '.ports[0] | [.dcbx, .trust, .dscp2prio, .pfc, .ets, .tcs, .buffer, .dcqcn, .roce, .sriov]' "$tmp/s.json")" \
	'[null,null,null,null,null,null,null,null,null,null]'
# the link section (issue 27) as ethtool netlink gives it: a veth reports
# 10G full without autonegotiation, and has no pause nor FEC (null); no
# devlink health
check "state: the veth's link, no pause or FEC, no health" \
	"$(jq -c '.ports[0] | [.link.autoneg, .link.speed_mbps, .link.duplex, .link.fec, .link.pause.rx, .health]' "$tmp/s.json")" \
	'[false,10000,"full",null,null,null]'
nsx "$MLXCLI" state --any-netdev -d va >"$tmp/s.txt" 2>&1
grep -q "^  params.mtu = 1500$" "$tmp/s.txt" && ok "state text: params.mtu line" || bad "text: $(head -5 "$tmp/s.txt")"
nsx "$MLXCLI" state -d va >/dev/null 2>"$tmp/e"
check "state -d va without --any-netdev: exit 3" $? 3

# ---- apply ----
cat >"$tmp/want.json" <<'EOF'
{"ports": [{"netdev": "va", "params": {"mtu": 3000, "tso": false, "rx_channels": 2, "tx_channels": 3}}]}
EOF
nsx "$MLXCLI" -j apply --any-netdev --check "$tmp/want.json" >"$tmp/c.json" 2>"$tmp/c.err"
check "apply --check: exit 0" $? 0
check "apply --check: the plan" "$(jq -c '[.changed, .dry_run, [.changes[] | [.netdev, .subsystem, .setting, .new]]]' "$tmp/c.json")" \
	'[true,true,[["va","params","rx_channels",2],["va","params","tx_channels",3],["va","params","tso",false],["va","params","mtu",3000]]]'
check "apply --check: the MTU stays" "$(mtu_of va)" 1500
check "apply --check: tso stays" "$(tso_of va)" on
nsx "$MLXCLI" apply --any-netdev --diff "$tmp/want.json" >"$tmp/d.txt" 2>"$tmp/d.err"
check "apply --diff: exit 0" $? 0
check "apply --diff: the MTU and tso as a unified diff" \
	"$(grep -c '^-params.mtu = 1500$\|^+params.mtu = 3000$\|^-params.tso = yes$\|^+params.tso = no$\|^@@ - va @@$' "$tmp/d.txt")" 5
check "apply --diff: the MTU stays" "$(mtu_of va)" 1500
nsx "$MLXCLI" -j apply "$tmp/want.json" >"$tmp/a.json" 2>"$tmp/a.err"
check "apply without --any-netdev: exit 3" $? 3
nsx "$MLXCLI" -j apply --any-netdev "$tmp/want.json" >"$tmp/a.json" 2>"$tmp/a.err"
check "apply --any-netdev: exit 0" $? 0
check "apply: changed" "$(jq '.changed' "$tmp/a.json")" true
check "apply: the MTU (ip -j link)" "$(mtu_of va)" 3000
check "apply: tso off (ethtool -k)" "$(tso_of va)" off
check "apply: the channels" "$(chan)" '[2,3]'
nsx "$MLXCLI" -j apply --any-netdev "$tmp/want.json" >"$tmp/a2.json" 2>"$tmp/a2.err"
check "second apply: exit 0" $? 0
check "second apply: changed false, no change" "$(jq -c '[.changed, (.changes | length)]' "$tmp/a2.json")" '[false,0]'
nsx "$MLXCLI" -j state --any-netdev -d va >"$tmp/s2.json"
check "state after apply" "$(jq -c '.ports[0].params | [.mtu, .tso, .rx_channels, .tx_channels]' "$tmp/s2.json")" '[3000,false,2,3]'
nsx "$MLXCLI" -j apply --any-netdev "$tmp/s2.json" >"$tmp/a3.json" 2>"$tmp/a3.err"
check "state -j applied back: exit 0, changed false" "$? $(jq '.changed' "$tmp/a3.json")" "0 false"

# -d: of a file naming both veths, the one -d names
cat >"$tmp/both.json" <<'EOF'
{"ports": [{"netdev": "va", "params": {"mtu": 1400}}, {"netdev": "vb", "params": {"mtu": 2500}}]}
EOF
nsx "$MLXCLI" -j apply --any-netdev -d vb "$tmp/both.json" >"$tmp/b.json" 2>"$tmp/b.err"
check "apply -d vb: exit 0, vb only" "$? $(jq -c '[.changes[] | [.netdev, .new]]' "$tmp/b.json")" '0 [["vb",2500]]'
check "apply -d vb: vb's MTU" "$(mtu_of vb)" 2500
check "apply -d vb: va's MTU stays" "$(mtu_of va)" 3000
nsx ip link set vb mtu 1500

# mlxcli diff pairs two states of a veth by its netdev (no address)
"$MLXCLI" -j diff "$tmp/s.json" "$tmp/s2.json" >"$tmp/df.json" 2>"$tmp/df.err"
check "diff of the states before and after: exit 1" $? 1
check "diff: the MTU by the netdev" \
	"$(jq -c '[.differences[] | select(.setting == "params.mtu") | [.pci_address, .netdev, .old, .new]]' "$tmp/df.json")" \
	'[[null,"va",1500,3000]]'

# the lock params set --any-netdev takes (the netdev's): apply waits for it
if command -v flock >/dev/null 2>&1; then
	echo '{"ports": [{"netdev": "va", "params": {"mtu": 2900}}]}' >"$tmp/lk.json"
	mkdir -p -m 755 /run/mlxcli
	flock /run/mlxcli/va.lock sh -c 'while [ ! -e "$0" ]; do sleep 0.1; done' "$tmp/release" &
	holder=$!
	sleep 0.3
	nsx "$MLXCLI" -j apply --any-netdev "$tmp/lk.json" >"$tmp/lk.out" 2>"$tmp/lk.err" &
	writer=$!
	sleep 1
	check "apply waits for the netdev's lock" "$(mtu_of va)" 3000
	: >"$tmp/release"
	wait $holder
	wait $writer
	check "after the lock: exit 0, the MTU" "$? $(mtu_of va)" "0 2900"
	nsx ip link set va mtu 3000
else
	echo "# no flock(1): the lock check skipped"
fi

# ---- a failure in the middle: the kernel keeps TSO off without SG ----
nsx "$MLXCLI" params set --any-netdev -d va scatter_gather=off >/dev/null 2>"$tmp/sg.err" ||
	bad "scatter_gather off: $(cat "$tmp/sg.err")"
cat >"$tmp/mid.json" <<'EOF'
{"ports": [{"netdev": "va", "params": {"rx_channels": 1, "tso6": true}}]}
EOF
nsx "$MLXCLI" -j apply --any-netdev "$tmp/mid.json" >"$tmp/m.json" 2>"$tmp/m.err"
check "tso6 on without SG: exit 1" $? 1
grep -q "tso6" "$tmp/m.err" && ok "the message names tso6" || bad "stderr: $(cat "$tmp/m.err")"
check "the channels written first are put back" "$(chan)" '[2,3]'
check "tso6 stays off" "$(tso6_of va)" off
# across ports: vb's MTU written, then va's run fails, vb's MTU put back
cat >"$tmp/two.json" <<'EOF'
{"ports": [{"netdev": "vb", "params": {"mtu": 2222}}, {"netdev": "va", "params": {"tso6": true}}]}
EOF
nsx "$MLXCLI" -j apply --any-netdev "$tmp/two.json" >"$tmp/t.json" 2>"$tmp/t.err"
check "two ports, the second fails: exit 1" $? 1
check "the first port's MTU is put back" "$(mtu_of vb)" 1500
grep -q "put back" "$tmp/t.err" && ok "the message says it was put back" || bad "stderr: $(cat "$tmp/t.err")"

# ---- a section a veth cannot have: exit 4 before any write ----
cat >"$tmp/qos.json" <<'EOF'
{"ports": [{"netdev": "va", "params": {"mtu": 1600}, "trust": "dscp", "pfc": {"enabled_priorities": [3]}}]}
EOF
nsx "$MLXCLI" -j apply --any-netdev "$tmp/qos.json" >"$tmp/q.json" 2>"$tmp/q.err"
check "trust and pfc for a veth: exit 4" $? 4
grep -q "ports\[0\]\.trust" "$tmp/q.err" && ok "the message names ports[0].trust" || bad "stderr: $(cat "$tmp/q.err")"
check "nothing written (the MTU stays)" "$(mtu_of va)" 3000
cat >"$tmp/sr.json" <<'EOF'
{"ports": [{"netdev": "va", "sriov": {"num_vfs": 2}}]}
EOF
nsx "$MLXCLI" apply --any-netdev --check "$tmp/sr.json" >/dev/null 2>"$tmp/sr.err"
check "sriov for a veth, even with --check: exit 4" $? 4
grep -q "ports\[0\]\.sriov" "$tmp/sr.err" && ok "the message names ports[0].sriov" || bad "stderr: $(cat "$tmp/sr.err")"

# the link (issue 27): the veth's state applied back changes nothing (its
# link is read back equal, the nulls left alone); pause or FEC, which a
# veth lacks, exit 4 at the plan's read, nothing written
nsx "$MLXCLI" -j state --any-netdev -d va >"$tmp/ls.json"
check "the veth's link section applied back: changed false" \
	"$(nsx "$MLXCLI" -j apply --any-netdev "$tmp/ls.json" | jq -c '[.changed, (.changes | length)]')" '[false,0]'
mtu0=$(mtu_of va)
for f in '.link.pause.rx = true' '.link.fec = "rs"'; do
	jq ".ports[0] |= ($f | .params.mtu = 1400)" "$tmp/ls.json" >"$tmp/lp.json"
	nsx "$MLXCLI" apply --any-netdev "$tmp/lp.json" >/dev/null 2>"$tmp/lp.err"
	check "$f for a veth: exit 4" $? 4
	grep -q "'va' has no .* setting (not supported by the driver); nothing was changed" "$tmp/lp.err" &&
		ok "... says the driver lacks it" || bad "stderr: $(cat "$tmp/lp.err")"
	check "... nothing written (the MTU stays)" "$(mtu_of va)" "$mtu0"
done

cat >"$tmp/none.json" <<'EOF'
{"ports": [{"netdev": "nosuch0", "params": {"mtu": 1600}}]}
EOF
nsx "$MLXCLI" apply --any-netdev "$tmp/none.json" >/dev/null 2>"$tmp/n.err"
check "a netdev that does not exist: exit 3" $? 3
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 24: `mlxcli rdma` on both sample hosts, text and JSON, against what
# their recorded RDMA netlink replies hold (gen/samples_rdma.py, README of
# each host): the devices and ports, the RoCE view (cx5-ofed: ToS 106 from
# configfs -> DSCP 26 -> priority 3 with PFC; cx6dx-upstream: the kernel's
# default ToS 0 on priority 0 without PFC), the resources and their joins
# (a QP's CM addresses, the owners' names), --errors, --pid, --state, the
# GID table with its VLAN and the RoCE v2 IPv4 flag, the counters next to
# hw_counters, the Windows spellings; a reply as the kernel gives a user
# without CAP_NET_ADMIN (no MR keys) says so; garbage in a reply is a clear
# failure; a snapshot of a snapshot answers the same; nobody gets the same.
. "$(dirname "$0")/lib.sh"
need jq python3

m() { "$MLXCLI" "$@"; }
S1="--sample=cx5-ofed" S2="--sample=cx6dx-upstream"

# ---- rdma show -----------------------------------------------------------
run show1 $S1 -j rdma show
if [ "$rc" -eq 0 ] && [ "$(jq -r '[.rdma[].rdma_device] | join(",")' "$tmp/show1.out")" = \
	"mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5" ]; then
	ok "cx5-ofed: rdma show lists the six RDMA devices (2 PFs, 4 VFs)"
else
	bad "cx5-ofed rdma show: rc $rc $(cat "$tmp/show1.out" "$tmp/show1.err")"
fi
got=$(jq -c '.rdma[0] | {pci_address, driver_version, fw_version, p: .ports[0] | {state, physical_state,
	netdev, mtu, active_mtu_bytes, default_roce_mode, roce_mode_source, default_roce_tos, dscp, trust,
	roce_priority, roce_lossless}, r: .resources}' "$tmp/show1.out")
want='{"pci_address":"0000:5e:00.0","driver_version":"23.10-1.1.9","fw_version":"16.35.2000","p":{"state":"ACTIVE","physical_state":"LINK_UP","netdev":"enp94s0f0np0","mtu":1500,"active_mtu_bytes":1024,"default_roce_mode":"RoCE v2","roce_mode_source":"configfs","default_roce_tos":106,"dscp":26,"trust":"dscp","roce_priority":3,"roce_lossless":true},"r":{"pd":5,"cq":5,"qp":5,"cm_id":2,"mr":5,"ctx":3,"srq":2,"qps_in_error":1}}'
[ "$got" = "$want" ] && ok "cx5-ofed mlx5_0: ToS 106 -> DSCP 26 -> priority 3 with PFC, counts, 1 QP in error" ||
	bad "cx5-ofed mlx5_0: got $got"
got=$(jq -c '.rdma[1] | [.ports[0].state, .ports[0].physical_state, .roce_findings]' "$tmp/show1.out")
case $got in *'"DOWN","DISABLED"'*'port 1 is DOWN (DISABLED)'*) ok "cx5-ofed mlx5_1: the down port is a finding" ;;
*) bad "cx5-ofed mlx5_1: $got" ;; esac
run show2 $S2 rdma show -d enp59s0f0np0
if grep -q "RoCE v2 (kernel default), ToS 0 -> DSCP 0 -> priority 0 (trust pcp, untagged), no PFC: lossy" \
	"$tmp/show2.out" && grep -q "finding: RoCE traffic (ToS 0, DSCP 0) lands on priority 0, which has no PFC" \
	"$tmp/show2.out" && ! grep -q mlx5_1 "$tmp/show2.out"; then
	ok "cx6dx-upstream: -d NETDEV selects mlx5_0; the default ToS lands on priority 0 without PFC, said"
else
	bad "cx6dx-upstream rdma show -d enp59s0f0np0: $(cat "$tmp/show2.out" "$tmp/show2.err")"
fi
# the same view by every spelling of the device, and by mlxtool's and mlx5cmd's
for d in mlx5_0 0000:3b:00.0 "59 0 0"; do
	run sel $S2 -j rdma show -d "$d"
	[ "$(jq -r '[.rdma[].rdma_device] | join(",")' "$tmp/sel.out")" = mlx5_0 ] ||
		bad "rdma show -d '$d': $(cat "$tmp/sel.out" "$tmp/sel.err")"
done
ok "-d takes the RDMA device, the PCI address and mlxtool's decimal triple"
run dr $S2 -j dbg resources 59 0 0
run st $S2 -j -Stat -Name mlx5_0
if cmp -s "$tmp/dr.out" "$tmp/sel.out" && cmp -s "$tmp/st.out" "$tmp/sel.out"; then
	ok "mlxtool's 'dbg resources 59 0 0' and mlx5cmd's '-Stat -Name mlx5_0' are rdma show"
else
	bad "dbg resources / -Stat differ from rdma show: $(head -c 300 "$tmp/dr.out") $(cat "$tmp/dr.err" "$tmp/st.err")"
fi

# ---- resources -----------------------------------------------------------------
run qp $S1 rdma qp -d mlx5_0
if [ "$rc" -eq 0 ] && grep -q "^mlx5_0  1     enp94s0f0np0  423   RC    RTS    981   192.0.2.10:36245  192.0.2.20:7174     5926/rping" \
	"$tmp/qp.out" && grep -q "  1     GSI   RTS .*\[ib_core\]" "$tmp/qp.out"; then
	ok "rdma qp: a QP with its CM ID's addresses and its owner's name; kernel owners in brackets"
else
	bad "rdma qp: $(cat "$tmp/qp.out" "$tmp/qp.err")"
fi
run qpe $S1 -j rdma qp --errors
got=$(jq -c '[.qps[] | {lqpn, state, in_error, comm, dst_address, cm_idn, active_mtu_bytes}]' "$tmp/qpe.out")
[ "$got" = '[{"lqpn":425,"state":"ERR","in_error":true,"comm":"rping","dst_address":"198.51.100.21:7174","cm_idn":1,"active_mtu_bytes":1024}]' ] &&
	ok "rdma qp --errors: the QP in ERR, nothing else" || bad "rdma qp --errors: $got"
run cme $S1 -j rdma cm-id --errors
[ "$(jq -c '[.cm_ids[] | [.cm_idn, .state, .qp_state]]' "$tmp/cme.out")" = '[[1,"DISCONNECT","ERR"]]' ] &&
	ok "rdma cm-id --errors: the CM ID whose QP is in ERR" || bad "cm-id --errors: $(cat "$tmp/cme.out")"
run pid $S1 -j rdma qp --pid 5926
run st $S1 -j rdma qp --state RTS
run addr $S1 -j rdma cm-id --address 192.0.2.20
if [ "$(jq -c '[.qps[].lqpn]' "$tmp/pid.out")" = '[423]' ] &&
	[ "$(jq -c '[.qps[].lqpn]' "$tmp/st.out")" = '[1,261,420,423,1,2309,1,139,1,140,1,141,1,142]' ] &&
	[ "$(jq -c '[.cm_ids[].cm_idn]' "$tmp/addr.out")" = '[0]' ]; then
	ok "--pid, --state and --address filter"
else
	bad "filters: pid $(jq -c '[.qps[].lqpn]' "$tmp/pid.out") state $(jq -c '[.qps[].lqpn]' "$tmp/st.out") addr $(cat "$tmp/addr.out")"
fi
run nd $S1 -j show nd connections -e -a 198.51.100.21
[ "$(jq -c '[.connections[].lqpn]' "$tmp/nd.out")" = '[425]' ] &&
	ok "mlxtool's 'show nd connections -e -a IP': the connected QP in error of that address" ||
	bad "show nd connections: $(cat "$tmp/nd.out" "$tmp/nd.err")"
run nds $S1 -j -NdStat -Name mlx5_0
[ "$(jq -c '[.qps[].lqpn]' "$tmp/nds.out")" = '[1,261,420,423,425]' ] &&
	ok "mlx5cmd's '-NdStat -Name mlx5_0' is rdma qp" || bad "-NdStat: $(cat "$tmp/nds.out" "$tmp/nds.err")"
for k in cq mr pd ctx srq cm-id; do
	run k $S1 -j rdma $k -d mlx5_0
	[ "$rc" -eq 0 ] && jq -e . "$tmp/k.out" >/dev/null || bad "rdma $k: rc $rc $(cat "$tmp/k.err")"
done
got=$(m $S1 -j rdma cq -d mlx5_0 | jq -c '[.cqs[] | [.cqn, .cqe, .users, .poll_ctx, .comm]][:2]')
[ "$got" = '[[1,1023,4,"UNBOUND_WORKQUEUE","ib_core"],[2,255,2,"SOFTIRQ","mlx5_ib"]]' ] &&
	ok "rdma cq: the kernel CQs as the fixture shows them (ib_core, mlx5_ib)" || bad "rdma cq: $got"
got=$(m $S1 -j rdma mr -d mlx5_0 | jq -c '[.mrs[0] | .mrn, .length_bytes, .rkey, .pdn, .pid, .comm], .restricted')
[ "$got" = '[1,65536,110835,3,3141,"ib_write_bw"]
false' ] && ok "rdma mr: keys present in a root capture, restricted false" || bad "rdma mr: $got"
got=$(m $S1 -j rdma srq -d mlx5_0 | jq -c '[.srqs[] | [.srqn, .srq_type, .cqn]]')
[ "$got" = '[[1,"XRC",2],[2,"BASIC",null]]' ] && ok "rdma srq: types and the XRC SRQ's CQ" || bad "rdma srq: $got"

# ---- gids ------------------------------------------------------------------------
run g $S1 -j rdma gids -d mlx5_0
got=$(jq -c '[.gids[] | [.gid_index, .ipv4, .gid_type, .netdev, .vlan, .roce_v2_ipv4]]' "$tmp/g.out")
want='[[0,null,"RoCE v1","enp94s0f0np0",0,false],[1,null,"RoCE v2","enp94s0f0np0",0,false],[2,"192.0.2.10","RoCE v1","enp94s0f0np0",0,false],[3,"192.0.2.10","RoCE v2","enp94s0f0np0",0,true],[4,"198.51.100.10","RoCE v1","vlan100",100,false],[5,"198.51.100.10","RoCE v2","vlan100",100,true]]'
[ "$got" = "$want" ] && ok "rdma gids: empty slots skipped, IPv4 of mapped GIDs, VLAN 100, the RoCE v2 IPv4 entries flagged" ||
	bad "rdma gids: $got"
run gt $S1 rdma gids -d mlx5_0
grep -q "^mlx5_0  1     3      0000:0000:0000:0000:0000:ffff:c000:020a  192.0.2.10     RoCE v2  enp94s0f0np0  -     <- rdma_cm" \
	"$tmp/gt.out" && ok "rdma gids text: show_gids' columns" || bad "rdma gids text: $(cat "$tmp/gt.out")"

# ---- stats -----------------------------------------------------------------------
run s2 $S2 -j rdma stats -d mlx5_0
got=$(jq -c '.rdma_stats[0] | [.counter_mode, .counter_auto_criteria,
	(.counters[] | select(.name == "rx_write_requests" or .name == "cc_rx_ce_pkts" or .name == "cc_tx_cnp_pkts")
	 | [.name, .value, .sysfs_value, .optional, .group]), (.qp_counters[0] | [.counter_id, .qp_type, .lqpns])]' "$tmp/s2.out")
want='["auto",["qp_type"],["rx_write_requests",52341,52341,false,"rdma"],["cc_rx_ce_pkts",88,null,true,"congestion"],["cc_tx_cnp_pkts",null,null,true,"congestion"],[0,"RC",[310,311]]]'
[ "$got" = "$want" ] && ok "rdma stats: netlink next to hw_counters, optional counters, auto mode, a bound counter" ||
	bad "rdma stats cx6dx: $got"
run s1 $S1 -j rdma stats -d mlx5_0
got=$(jq -c '.rdma_stats[0] | [.counter_mode, ([.counters[].optional] | unique), .qp_counters]' "$tmp/s1.out")
[ "$got" = '["none",[null],[]]' ] &&
	ok "rdma stats on a kernel without STAT_GET_STATUS: optional unknown (null), not failed" || bad "rdma stats cx5: $got"

# ---- Prometheus ----------------------------------------------------------------------
run prom $S1 counters --format prometheus
if grep -q '^mlxcli_rdma_resources{rdma_device="mlx5_0",pci_address="0000:5e:00.0",type="qp"} 5$' "$tmp/prom.out" &&
	grep -q '^mlxcli_rdma_qps_in_error{rdma_device="mlx5_0",pci_address="0000:5e:00.0"} 1$' "$tmp/prom.out" &&
	grep -q '^mlxcli_rdma_qps_in_error{rdma_device="mlx5_1",pci_address="0000:5e:00.1"} 0$' "$tmp/prom.out"; then
	ok "counters --format prometheus: resources per device and type, QPs in error"
else
	bad "prometheus rdma gauges: $(grep rdma_res "$tmp/prom.out" | head -3) $(cat "$tmp/prom.err")"
fi
if command -v promtool >/dev/null; then
	promtool check metrics <"$tmp/prom.out" >"$tmp/pt" 2>&1
	grep -q "rdma_resources\|qps_in_error" "$tmp/pt" && bad "promtool: $(cat "$tmp/pt")" ||
		ok "promtool finds nothing to say about the RDMA gauges"
fi

# ---- a user's view: no keys (nldev.c has_cap_net_admin) -----------------------
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/user"
python3 - "$tmp/user/netlink/rdma/mlx5_0/res-mr-get.nl" <<'EOF'
# The MR dump as the kernel answers a reader without CAP_NET_ADMIN: the
# same entries without RDMA_NLDEV_ATTR_RES_RKEY (42) and _LKEY (43).
import struct, sys
path = sys.argv[1]
b = open(path, 'rb').read()
def attrs(buf):
    o = 0
    while o + 4 <= len(buf):
        l, t = struct.unpack_from('<HH', buf, o)
        yield t, buf[o + 4:o + l]
        o += (l + 3) & ~3
def nla(t, p):
    a = struct.pack('<HH', 4 + len(p), t) + p
    return a + b'\0' * ((4 - len(a) % 4) % 4)
out = b''
o = 0
while o < len(b):
    ln, typ, fl, seq, pid = struct.unpack_from('<IHHII', b, o)
    body = b[o + 16:o + ln]
    if typ >= 16 and typ & 0x3ff == 13:     # RES_MR_GET
        nb = b''
        for t, p in attrs(body):
            if t == 40:                       # RES_MR table
                ents = b''.join(nla(et & 0x7fff, b''.join(nla(ft, fp) for ft, fp in attrs(ep) if ft not in (42, 43)))
                                for et, ep in attrs(p))
                nb += nla(t, ents)
            else:
                nb += nla(t, p)
        body = nb
    out += struct.pack('<IHHII', 16 + len(body), typ, fl, seq, pid) + body
    o += (ln + 3) & ~3
open(path, 'wb').write(out)
EOF
run u --sysroot "$tmp/user" -j rdma mr -d mlx5_0
if [ "$rc" -eq 0 ] && [ "$(jq -c '[.mrs[0].rkey, .mrs[0].lkey, .mrs[0].length_bytes, .restricted]' "$tmp/u.out")" = '[null,null,65536,true]' ] &&
	grep -q "not root: the kernel withholds the MR and PD keys" "$tmp/u.err"; then
	ok "a user's MR dump (no keys): shown, restricted, said on stderr, exit 0"
else
	bad "user MR dump: rc $rc $(cat "$tmp/u.out" "$tmp/u.err")"
fi

# ---- garbage and absence ---------------------------------------------------------
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/bad"
# a QP entry nest whose length runs past its table
printf '\064\000\000\000\012\024\002\000\001\000\000\000\222\020\000\000\010\000\001\000\000\000\000\000\013\000\002\000mlx5_0\000\000\020\000\023\000\040\000\024\000\010\000\025\000\001\000\000\000' \
	>"$tmp/bad/netlink/rdma/mlx5_0/res-qp-get.nl"
run b --sysroot "$tmp/bad" rdma qp -d mlx5_0
grep -q "malformed RDMA qp reply" "$tmp/b.err" && [ "$rc" -eq 0 ] &&
	ok "a truncated QP entry: said (malformed RDMA qp reply), no crash, the others still listed" ||
	bad "garbage QP reply: rc $rc $(cat "$tmp/b.out" "$tmp/b.err")"
rm -rf "$tmp/bad/netlink/rdma"
run n --sysroot "$tmp/bad" rdma show
[ "$rc" -eq 0 ] && grep -q "no RDMA device was found: the capture has no RDMA netlink replies" "$tmp/n.err" &&
	ok "a capture without RDMA replies: exit 0, said why" || bad "no rdma capture: rc $rc $(cat "$tmp/n.err")"
run x $S1 rdma qp -d nosuch0
[ "$rc" -eq 3 ] && ok "-d naming nothing: exit 3" || bad "-d nosuch0: rc $rc"
run x $S1 rdma qp --state BOGUS
[ "$rc" -eq 2 ] && ok "--state BOGUS: exit 2" || bad "--state BOGUS: rc $rc"
run x $S1 rdma qp --pid abc
[ "$rc" -eq 2 ] && grep -q "invalid value 'abc' for '--pid'" "$tmp/x.err" && ok "--pid abc: exit 2" ||
	bad "--pid abc: rc $rc $(cat "$tmp/x.err")"
run x $S1 rdma qp -d 0000:5d:00.0
[ "$rc" -eq 3 ] && ok "-d a function without an RDMA device: exit 3" || bad "no-rdma function: rc $rc $(cat "$tmp/x.err")"

# ---- params set roce_mode: the kernel's two names only (issue 24) -----------------
# cma_configfs.c's default_roce_mode_store takes what ib_cache_gid_parse_type_str
# knows ("IB/RoCE v1", "RoCE v2"); anything else is refused before a write
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/w"
cm=$tmp/w/sys/kernel/config/rdma_cm/mlx5_0/ports/1
before=$(cat "$cm/default_roce_mode" "$cm/default_roce_tos")
for v in bogus "RoCE v3" "" "roce v2"; do
	m --sysroot "$tmp/w" params set -d enp94s0f0np0 "roce_mode=$v" >"$tmp/rm.out" 2>"$tmp/rm.err"
	r=$?
	[ $r -eq 2 ] && grep -q "^mlxcli: error: .*roce_mode" "$tmp/rm.err" ||
		bad "params set roce_mode='$v': exit $r, want 2: $(cat "$tmp/rm.err")"
done
check "params set roce_mode=<not a RoCE mode>: exit 2, said, nothing written" \
	"$(cat "$cm/default_roce_mode" "$cm/default_roce_tos")" "$before"
m --sysroot "$tmp/w" params set -d enp94s0f0np0 "roce_mode=IB/RoCE v1" >/dev/null 2>"$tmp/rm.err"
check "params set roce_mode='IB/RoCE v1': written" "$? $(cat "$cm/default_roce_mode")" "0 IB/RoCE v1"

# ---- a snapshot replays the same --------------------------------------------------
run snap $S1 snapshot "$tmp/snap"
for c in "rdma show" "rdma qp" "rdma cm-id" "rdma mr" "rdma gids" "rdma stats"; do
	# shellcheck disable=SC2086
	a=$(m $S1 -j $c) b=$(m --sysroot "$tmp/snap" -j $c)
	[ -n "$a" ] && [ "$a" = "$b" ] || bad "snapshot of cx5-ofed: '$c' differs"
done
ok "a snapshot of the sample answers rdma show/qp/cm-id/mr/gids/stats the same (owners' names included)"

# ---- nobody ------------------------------------------------------------------------
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	priv_setup cx5-ofed
	for c in "rdma show" "rdma qp" "rdma mr" "rdma gids" "rdma stats"; do
		# shellcheck disable=SC2086
		as_nobody "$NOBODY_MLXCLI" --sysroot "$PRIV/samples/cx5-ofed" -j $c >"$tmp/nb.out" 2>"$tmp/nb.err"
		r=$?
		# shellcheck disable=SC2086
		[ $r -eq 0 ] && [ "$(cat "$tmp/nb.out")" = "$(m $S1 -j $c)" ] ||
			bad "as nobody '$c': rc $r $(cat "$tmp/nb.err")"
	done
	ok "as nobody the capture answers the same"
	as_nobody "$NOBODY_MLXCLI" -j rdma qp >"$tmp/nb.out" 2>"$tmp/nb.err"
	r=$?
	[ $r -eq 0 ] && jq -e . "$tmp/nb.out" >/dev/null &&
		ok "as nobody on this machine's kernel: exit 0, valid JSON ($(head -1 "$tmp/nb.err"))" ||
		bad "as nobody live: rc $r $(cat "$tmp/nb.err")"
fi
finish

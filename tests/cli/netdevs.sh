#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 27's child netdevs on the sample hosts (the recorded link dump and
# lib/emul/netdevs-emul.c): `vlan show` (vlan100 on PF0 of both hosts, with
# its protocol and egress QoS map; a snapshot replays the same), `vlan add`
# and `vlan del` through the write engine (--dry-run writes nothing; the
# change record; the VLAN listed after, deleted after; the refusals: an id
# the port has, a name taken, a name that does not fit, bad words: exit 2
# and the working copy byte for byte as before), and `ipoib add|del` on the
# IPoIB variant of cx5-ofed (gen/samples_views.py ipoib-overlay): a
# partition child made, shown in the link dump, deleted; a parent that is
# no IPoIB interface (exit 4), a child as parent, a pkey there (exit 2).
. "$(dirname "$0")/lib.sh"
need jq python3

j() {   # j NAME JQ: a jq expression on $tmp/NAME.out
	jq -c "$2" "$tmp/$1.out" 2>/dev/null
}
P0=enp94s0f0np0

echo "== vlan show"
for s in cx5-ofed cx6dx-upstream; do
	run vs-$s --sample=$s -j vlan
	check "$s: exit 0" "$rc" 0
	check "$s: vlan100 on PF0 as the capture has it" \
		"$(j vs-$s '[.ports[0].vlans[] | [.netdev, .vlan, .vlan_protocol, .operstate, .mtu, .egress_qos_map]]')" \
		'[["vlan100",100,"802.1Q","up",1500,[{"skb_priority":3,"pcp":3}]]]'
	check "$s: no VLAN on the other ports" "$(j vs-$s '[.ports[1:][] | .vlans | length] | add')" 0
done
run vt --sample=cx5-ofed vlan -d $P0
grep -q 'egress QoS map (priority:PCP): 3:3' "$tmp/vt.out" && grep -q 'protocol: 802.1Q' "$tmp/vt.out" &&
	ok "text: protocol and egress map" || bad "text: $(cat "$tmp/vt.out")"
run vt1 --sample=cx5-ofed vlan -d enp94s0f1np1
grep -q 'VLANs: none' "$tmp/vt1.out" && ok "text: a port without VLANs says none" || bad "none: $(cat "$tmp/vt1.out")"
# a snapshot of the sample records the link dump: the same view
run snap --sample=cx5-ofed snapshot "$tmp/snap"
check "snapshot: exit 0" "$rc" 0
run vsnap --sysroot "$tmp/snap" -j vlan
check "the snapshot's vlan view is the sample's" "$(j vsnap '.ports')" "$(j vs-cx5-ofed '.ports')"

echo "== vlan add, del"
fresh h cx5-ofed
sum0=$(tree_sum "$tmp/h")
run dry --sysroot "$tmp/h" -j vlan add -d $P0 200 name v200 egress-qos-map 3:3 0:1 --dry-run
check "--dry-run: exit 0" "$rc" 0
check "--dry-run: the change" "$(j dry '[.dry_run, [.changes[] | [.setting, .old, .new, .changed]]]')" \
	'[true,[["vlan.200",null,"v200",true]]]'
check "--dry-run: nothing written" "$(tree_sum "$tmp/h")" "$sum0"
run add --sysroot "$tmp/h" vlan add -d $P0 200 name v200 protocol 802.1ad egress-qos-map 3:3 0:1
check "add: exit 0" "$rc" 0
check "add: the change record" "$(cat "$tmp/add.out")" "vlan.200: none -> v200"
run after --sysroot "$tmp/h" -j vlan -d $P0
check "add: listed, down, with its protocol and egress map (the kernel's bucket order)" \
	"$(j after '[.ports[0].vlans[] | [.netdev, .vlan, .vlan_protocol, .operstate, [.egress_qos_map[] | [.skb_priority, .pcp]]]]')" \
	'[["vlan100",100,"802.1Q","up",[[3,3]]],["v200",200,"802.1ad","down",[[0,1],[3,3]]]]'
sum1=$(tree_sum "$tmp/h")
run dup --sysroot "$tmp/h" vlan add -d $P0 100 name x100
check "an id the port has: exit 2" "$rc" 2
grep -q "VLAN 100 already exists on $P0: 'vlan100'; nothing was changed" "$tmp/dup.err" &&
	ok "said: already exists, its name" || bad "dup: $(cat "$tmp/dup.err")"
run taken --sysroot "$tmp/h" vlan add -d $P0 300 name vlan100
check "a name taken: exit 2" "$rc" 2
grep -q "a netdev named 'vlan100' already exists" "$tmp/taken.err" && ok "said: the name is taken" ||
	bad "taken: $(cat "$tmp/taken.err")"
run long --sysroot "$tmp/h" vlan add -d $P0 300
check "the default name does not fit: exit 2" "$rc" 2
grep -q "the default name $P0.300 does not fit in 15 bytes: give one with 'name NAME'" "$tmp/long.err" &&
	ok "said: give a name" || bad "long: $(cat "$tmp/long.err")"
for bad_args in "0" "4095" "abc" "5 egress-qos-map 3:8" "5 protocol 802.1x" "5 nmae x" "5 name a/b" \
	"5 name 0123456789abcdef"; do
	# shellcheck disable=SC2086
	run bad --sysroot "$tmp/h" vlan add -d $P0 $bad_args
	check "vlan add $bad_args: exit 2" "$rc" 2
done
run hint --sysroot "$tmp/h" vlan add -d $P0 5 nmae x
grep -q "did you mean 'name'" "$tmp/hint.err" && ok "a misspelt word: did you mean" || bad "hint: $(cat "$tmp/hint.err")"
run dnt --sysroot "$tmp/h" vlan del -d $P0 201 --yes
check "del of no such VLAN: exit 2" "$rc" 2
check "the refusals wrote nothing" "$(tree_sum "$tmp/h")" "$sum1"
run del0 --sysroot "$tmp/h" vlan del -d $P0 200 </dev/null
check "del without --yes: exit 2" "$rc" 2
grep -q "deleting VLAN 200 of $P0 drops the traffic on it: confirm with --yes" "$tmp/del0.err" &&
	ok "said: confirm with --yes" || bad "del0: $(cat "$tmp/del0.err")"
check "del without --yes wrote nothing" "$(tree_sum "$tmp/h")" "$sum1"
run del --sysroot "$tmp/h" -j vlan del -d $P0 200 --yes
check "del: exit 0" "$rc" 0
check "del: the change record" "$(j del '[.changes[] | [.setting, .old, .new, .note]]')" \
	'[["vlan.200","v200",null,"deleting it drops the traffic on it"]]'
check "add then del: the working copy as it was" "$(tree_sum "$tmp/h")" "$sum0"
run del2 --sysroot "$tmp/h" vlan del -d $P0 200 --yes
check "a second del: exit 2" "$rc" 2
# a VF's netdev is a port too: the VLAN goes on it
run vf --sysroot "$tmp/h" vlan add -d enp94s0f2 7
check "on a VF's netdev (default name enp94s0f2.7): exit 0" "$rc" 0
check "its change" "$(cat "$tmp/vf.out")" "vlan.7: none -> enp94s0f2.7"

echo "== ipoib add, del (the IPoIB overlay)"
fresh ib cx5-ofed
python3 "$TOP_SRCDIR/gen/samples_views.py" ipoib-overlay "$tmp/ib" || bad "the IPoIB overlay"
ibsum0=$(tree_sum "$tmp/ib")
run ia --sysroot "$tmp/ib" -j ipoib add -d ib0 2 mode connected
check "ipoib add: exit 0" "$rc" 0
check "ipoib add: the full-member pkey, the kernel's default name" \
	"$(j ia '[.netdev, [.changes[] | [.setting, .old, .new]]]')" '["ib0",[["ipoib.0x8002",null,"ib0.8002"]]]'
python3 - "$tmp/ib/netlink/route/all/getlink-dump.nl" >"$tmp/ibdump" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
o = 0
while o + 16 <= len(d):
    ln, typ = struct.unpack_from('<IH', d, o)
    if typ == 16:
        a, name, link, kind, data = o + 32, '', 0, '', {}
        while a + 4 <= o + ln:
            al, at = struct.unpack_from('<HH', d, a)
            if at == 3:
                name = d[a + 4:a + al].rstrip(b'\0').decode()
            elif at == 5:
                link = struct.unpack_from('<I', d, a + 4)[0]
            elif at & 0x7fff == 18:
                b = a + 4
                while b + 4 <= a + al:
                    bl, bt = struct.unpack_from('<HH', d, b)
                    if bt == 1:
                        kind = d[b + 4:b + bl].rstrip(b'\0').decode()
                    elif bt & 0x7fff == 2:
                        c = b + 4
                        while c + 4 <= b + bl:
                            cl, ct = struct.unpack_from('<HH', d, c)
                            data[ct] = struct.unpack_from('<H', d, c + 4)[0]
                            c += (cl + 3) & ~3
                    b += (bl + 3) & ~3
            a += (al + 3) & ~3
        if kind == 'ipoib':
            print(name, link, hex(data.get(1, 0)), data.get(2))
    o += (ln + 3) & ~3
EOF
check "the link dump: the child on ib0 (index 20), pkey 0x8002, connected" \
	"$(grep '^ib0.8002 ' "$tmp/ibdump")" "ib0.8002 20 0x8002 1"
run ia2 --sysroot "$tmp/ib" ipoib add -d ib0 0x8002
check "a pkey ib0 has: exit 2" "$rc" 2
grep -q "IPoIB partition 0x8002 already exists on ib0: 'ib0.8002'" "$tmp/ia2.err" && ok "said: already exists" ||
	bad "ia2: $(cat "$tmp/ia2.err")"
run ic --sysroot "$tmp/ib" ipoib add -d ib0.8001 3
check "a child as parent: exit 2" "$rc" 2
run ie --sysroot "$tmp/ib" ipoib add -d $P0 3
check "an Ethernet port as parent: exit 4" "$rc" 4
grep -q "not supported on $P0: it is no IPoIB interface" "$tmp/ie.err" && ok "said: no IPoIB interface" || bad "ie: $(cat "$tmp/ie.err")"
run iv --sysroot "$tmp/ib" vlan add -d ib0 3 name ib0v3
check "a VLAN on IPoIB: exit 4" "$rc" 4
for bad_args in "0" "0x8000" "0x10000" "3 mode fast" "3 name"; do
	# shellcheck disable=SC2086
	run ib --sysroot "$tmp/ib" ipoib add -d ib0 $bad_args
	check "ipoib add $bad_args: exit 2" "$rc" 2
done
run id --sysroot "$tmp/ib" ipoib del -d ib0 0x8002 --yes
check "ipoib del: exit 0" "$rc" 0
check "ipoib del: the change" "$(cat "$tmp/id.out")" "ipoib.0x8002: ib0.8002 -> none (deleting it drops the traffic on it)"
check "add then del: the overlay as it was" "$(tree_sum "$tmp/ib")" "$ibsum0"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli diff (issue 19): a state or a captured system against itself is
# empty (exit 0) whatever form each side has (state -j file, --sysroot
# directory, snapshot, dump-me-now incident); a working copy changed by
# write commands differs in exactly the settings written (exit 1), in text
# and JSON; ports are matched by PCI address, or with --match by position
# (two hosts port by port) or netdev; bad inputs exit 2.
set -u
. "$(dirname "$0")/lib.sh"
need jq
S=$MLXCLI_SAMPLES_DIR

# the same system in every form: no difference
for s in cx5-ofed cx6dx-upstream; do
	"$MLXCLI" --sample=$s -j state >"$tmp/$s.json" || bad "$s: state -j"
	mkdir "$tmp/inc-$s"
	"$MLXCLI" --sample=$s snapshot "$tmp/inc-$s/snapshot" >/dev/null 2>&1 || bad "$s: snapshot"
	for pair in "$S/$s $S/$s" "$tmp/$s.json $tmp/$s.json" "$tmp/$s.json $S/$s" \
		"$S/$s $tmp/inc-$s" "$tmp/inc-$s/snapshot $tmp/$s.json"; do
		# shellcheck disable=SC2086
		out=$("$MLXCLI" diff $pair); rc=$?
		check "$s: diff $(echo "$pair" | sed "s#$tmp/##g; s#$S/##g"): exit 0" "$rc" 0
		check "$s: ... and prints nothing" "$out" ""
	done
	check "$s: -j: an empty list" "$("$MLXCLI" -j diff "$S/$s" "$tmp/$s.json" | jq -c .differences)" '[]'
done

# a working copy changed by the write commands: exactly what was written
cp -a "$S/cx5-ofed" "$tmp/host"
w() { "$MLXCLI" --sysroot "$tmp/host" "$@" >/dev/null 2>&1 || bad "write: $*"; }
w qosconfig pfc -d enp94s0f0np0 3,4
w qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 7
w sriov vf -d 5e:00.0 1 set vlan 5
w qosconfig trust -d enp94s0f1np1 pcp
"$MLXCLI" -j diff "$S/cx5-ofed" "$tmp/host" >"$tmp/d.json"; rc=$?
check "changed copy: exit 1 (as diff(1))" "$rc" 1
check "changed copy: the settings written, old and new" \
	"$(jq -c '[.differences[] | select(.setting | startswith("dscp2prio.") | not) | [.pci_address, .setting, .old, .new]]' "$tmp/d.json")" \
	'[["0000:5e:00.0","pfc.enabled_priorities.4",false,true],["0000:5e:00.0","pfc.enabled_priorities.6",true,false],["0000:5e:00.0","dcqcn.rp.rpg_ai_rate",5,7],["0000:5e:00.0","sriov.vfs.1.vlan",100,5],["0000:5e:00.1","trust","dscp","pcp"]]'
# trust pcp removes the DSCP APP entries: each one is a difference of its own
check "trust pcp: the 64 DSCP entries gone" \
	"$(jq '[.differences[] | select(.setting | startswith("dscp2prio.")) | select(.pci_address == "0000:5e:00.1" and .new == null)] | length' "$tmp/d.json")" 64
check "netdev carried with each difference" "$(jq -r '[.differences[].netdev] | unique | join(",")' "$tmp/d.json")" \
	"enp94s0f0np0,enp94s0f1np1"
"$MLXCLI" diff "$S/cx5-ofed" "$tmp/host" >"$tmp/d.txt"
check "text: unified-diff headers" "$(head -3 "$tmp/d.txt")" \
	"$(printf -- '--- %s\n+++ %s\n@@ 0000:5e:00.0 enp94s0f0np0 @@' "$S/cx5-ofed" "$tmp/host")"
check "text: old and new lines" "$(grep -A1 '^-dcqcn.rp.rpg_ai_rate' "$tmp/d.txt" | tr '\n' ' ')" \
	"-dcqcn.rp.rpg_ai_rate = 5 +dcqcn.rp.rpg_ai_rate = 7 "
check "text: one -/+ pair per difference" "$(grep -c '^[-+][a-z]' "$tmp/d.txt")" \
	"$(($(jq '.differences | length' "$tmp/d.json") * 2))"
"$MLXCLI" -j diff "$tmp/host" "$S/cx5-ofed" >"$tmp/r.json"
check "B A is A B reversed" "$(jq -c '[.differences[] | [.setting, .new, .old]] | sort' "$tmp/r.json")" \
	"$(jq -c '[.differences[] | [.setting, .old, .new]] | sort' "$tmp/d.json")"

# two hosts: ports are matched by PCI address, so none matches here
"$MLXCLI" -j diff "$S/cx5-ofed" "$S/cx6dx-upstream" >"$tmp/x.json"; rc=$?
check "two hosts: exit 1" "$rc" 1
check "two hosts: A's ports only in A, B's only in B" \
	"$(jq -c '[.differences[] | {p: .pci_address, a: (.old != null), b: (.new != null)}] | unique | map(select(.a or .b)) | group_by(.p) | map([.[0].p, (map(.a) | any), (map(.b) | any)])' "$tmp/x.json")" \
	'[["0000:3b:00.0",false,true],["0000:3b:00.1",false,true],["0000:5e:00.0",true,false],["0000:5e:00.1",true,false]]'

# --match: two hosts compared port by port whatever their PCI addresses
"$MLXCLI" -j diff --match position "$S/cx5-ofed" "$S/cx6dx-upstream" >"$tmp/p.json"; rc=$?
check "--match position: exit 1" "$rc" 1
check "--match position: the Nth port of A with the Nth of B, both named" \
	"$(jq -c '[.differences[] | [.pci_address, .netdev, .new_pci_address, .new_netdev]] | unique' "$tmp/p.json")" \
	'[["0000:5e:00.0","enp94s0f0np0","0000:3b:00.0","enp59s0f0np0"],["0000:5e:00.1","enp94s0f1np1","0000:3b:00.1","enp59s0f1np1"]]'
check "--match position: a setting both have, A's and B's value" \
	"$(jq -c '[.differences[] | select(.pci_address == "0000:5e:00.0" and .setting == "trust") | [.old, .new]]' "$tmp/p.json")" \
	"$(printf '[["%s","%s"]]' "$(jq -r '.ports[0].trust' "$tmp/cx5-ofed.json")" "$(jq -r '.ports[0].trust' "$tmp/cx6dx-upstream.json")")"
check "--match position: no port only in A or B (two PFs each)" \
	"$(jq '[.differences[] | select(.new_pci_address == null)] | length' "$tmp/p.json")" 0
"$MLXCLI" diff --match position "$S/cx5-ofed" "$S/cx6dx-upstream" >"$tmp/p.txt"
check "--match position: text hunk names A's port and B's" "$(sed -n 3p "$tmp/p.txt")" \
	"@@ -0000:5e:00.0 enp94s0f0np0 +0000:3b:00.0 enp59s0f0np0 @@"
check "--match position: one -/+ pair per difference" "$(grep -c '^[-+][a-z]' "$tmp/p.txt")" \
	"$(($(jq '.differences | length' "$tmp/p.json") * 2))"
# a host whose ports moved to other PCI addresses, same settings: by
# position nothing differs, by address everything does
jq '.ports |= map(.pci_address |= sub("^0000:5e"; "0000:af"))' "$tmp/cx5-ofed.json" >"$tmp/moved.json"
out=$("$MLXCLI" diff --match position "$tmp/cx5-ofed.json" "$tmp/moved.json"); rc=$?
check "moved ports, --match position: equal (exit 0, nothing)" "$rc:$out" "0:"
"$MLXCLI" diff "$tmp/cx5-ofed.json" "$tmp/moved.json" >/dev/null; check "moved ports, by address: differ" "$?" 1
"$MLXCLI" -j diff --match pci "$tmp/cx5-ofed.json" "$tmp/moved.json" >"$tmp/m.json"
check "--match pci is the default (no new_ keys)" "$(jq -c '[.differences[] | has("new_pci_address")] | unique' "$tmp/m.json")" '[false]'
# by netdev: a renamed port (same address) is two ports; the others match
jq '.ports[1].netdev = "rdma1" | .ports[0].pfc.enabled_priorities = [3]' "$tmp/cx5-ofed.json" >"$tmp/ren.json"
"$MLXCLI" -j diff --match netdev "$tmp/cx5-ofed.json" "$tmp/ren.json" >"$tmp/n.json"; rc=$?
check "--match netdev: exit 1" "$rc" 1
check "--match netdev: the same netdev compared, the renamed one only in A and only in B" \
	"$(jq -c '[.differences[] | [.netdev, .new_netdev]] | unique' "$tmp/n.json")" \
	'[["enp94s0f0np0","enp94s0f0np0"],["enp94s0f1np1",null],["rdma1","rdma1"]]'
check "--match netdev: the PFC change" \
	"$(jq -c '[.differences[] | select(.netdev == "enp94s0f0np0") | [.setting, .old, .new]]' "$tmp/n.json")" \
	'[["pfc.enabled_priorities.6",true,false]]'
"$MLXCLI" diff --match slot "$S/cx5-ofed" "$S/cx5-ofed" >"$tmp/o" 2>"$tmp/e"
check "--match slot: exit 2" "$?" 2

# bad inputs: exit 2, nothing on stdout
"$MLXCLI" diff "$tmp/nonexistent.json" "$S/cx5-ofed" >"$tmp/o" 2>"$tmp/e"
check "missing file: exit 2" "$?" 2
echo '{"devices": []}' >"$tmp/notstate.json"
"$MLXCLI" diff "$tmp/notstate.json" "$S/cx5-ofed" >"$tmp/o" 2>"$tmp/e"
check "not a state: exit 2" "$?" 2
grep -q 'is not a state' "$tmp/e" && ok "not a state: says so" || bad "message: $(cat "$tmp/e")"
check "... nothing on stdout" "$(cat "$tmp/o")" ""
mkdir "$tmp/empty"
"$MLXCLI" diff "$S/cx5-ofed" "$tmp/empty" >"$tmp/o" 2>"$tmp/e"
check "a directory that is no captured system: exit 2" "$?" 2
grep -q 'is not a captured system' "$tmp/e" && ok "... says so" || bad "message: $(cat "$tmp/e")"
"$MLXCLI" diff "$S/cx5-ofed" >/dev/null 2>&1
check "one argument: exit 2" "$?" 2
finish

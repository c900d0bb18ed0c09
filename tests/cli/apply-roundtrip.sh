#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The round trip of issue 19 across hosts: `state -j` of each sample host,
# its ports put on the other host's ports (position by position: addresses
# and netdevs are per host), applied to a pristine copy of the other host,
# gives that state where the hardware allows.  What it does not allow is
# left out of the file (null: apply leaves it alone), each for a reason:
#  - DCQCN per-priority enables the target does not expose (upstream mlx5:
#    a firmware mask, mlxconfig ROCE_CC_PRIO_MASK), and DCQCN parameters
#    one layout has and the other lacks (np_cnp_prio_mode: debugfs only);
#  - the RDMA CM's defaults where the target has no configfs group (apply
#    does not mkdir one);
#  - buffers shown from sysfs on one host and from DCB on the other;
#  - the DCQCN layout (a fact of the driver, not a setting);
#  - driver knobs (params) the target does not report: cx5-ofed's
#    MLNX_OFED private flags dropless_rq and per_channel_stats, which
#    upstream mlx5 on cx6dx lacks (apply refuses a knob the device does not
#    report, exit 4).
# There the target keeps its own values (its knobs FILE leaves out too),
# and the comparison expects them.
# cx6dx -> cx5 needs --force: cx5 keeps DCQCN enabled on priority 3 (the
# cx6dx file cannot say otherwise) while cx6dx's PFC is off, which the
# lint gate refuses (pfc-off-roce-prio) - tested first.  It needs --yes
# too: numvfs 4 -> 0.
set -u
. "$(dirname "$0")/lib.sh"
need jq
S=$MLXCLI_SAMPLES_DIR

roundtrip() {   # A B [apply options]
	a=$1 b=$2; shift 2
	rm -rf "$tmp/b"; cp -a "$S/$b" "$tmp/b"; chmod -R u+w "$tmp/b"
	"$MLXCLI" --sysroot "$S/$a" -j state >"$tmp/a.json" || bad "state of $a"
	"$MLXCLI" --sysroot "$tmp/b" -j state >"$tmp/b0.json" || bad "state of $b"
	jq --slurpfile b "$tmp/b0.json" '
	  def strip($have): map(.name as $n | if ([$have[] | select(.name == $n) | .value][0]) == null
	                                      then .value = null else . end);
	  .ports |= [to_entries[] | .key as $i | $b[0].ports[$i] as $bp | .value
	    | .pci_address = $bp.pci_address | .netdev = $bp.netdev
	    | .dcqcn.layout = $bp.dcqcn.layout
	    | .dcqcn.rp.enable |= [to_entries[] | if $bp.dcqcn.rp.enable[.key] == null then null else .value end]
	    | .dcqcn.np.enable |= [to_entries[] | if $bp.dcqcn.np.enable[.key] == null then null else .value end]
	    | .dcqcn.rp.parameters |= strip($bp.dcqcn.rp.parameters)
	    | .dcqcn.np.parameters |= strip($bp.dcqcn.np.parameters)
	    | if $bp.roce.default_roce_mode == null then .roce = null else . end
	    | if .buffer.source != $bp.buffer.source then .buffer = $bp.buffer else . end
	    | .params |= with_entries(select(.key as $k | $bp.params | has($k)))]' \
		"$tmp/a.json" >"$tmp/want.json"
	"$MLXCLI" --sysroot "$tmp/b" -j apply "$@" "$tmp/want.json" >"$tmp/apply.json" 2>"$tmp/e"
	check "$a -> $b: apply exits 0" "$?" 0
	"$MLXCLI" --sysroot "$tmp/b" -j state >"$tmp/b1.json"
	# what the file left alone (null in DCQCN, RoCE CM, the link) is the
	# target's own
	jq --slurpfile b "$tmp/b0.json" '. as $w | reduce ([paths(. == null)][]
		| select(.[2] == "dcqcn" or .[2] == "roce" or .[2] == "link" or .[2] == "health")) as $p ($w; setpath($p; $b[0] | getpath($p)))
		| .ports |= [to_entries[] | .key as $i | .value | .params = $b[0].ports[$i].params + .params]' \
		"$tmp/want.json" | jq -S . >"$tmp/expect.s"
	jq -S . "$tmp/b1.json" >"$tmp/got.s"
	if diff "$tmp/expect.s" "$tmp/got.s" >"$tmp/d"; then
		ok "$a -> $b: the state is $a's where the hardware allows"
	else
		bad "$a -> $b: the state differs: $(head -20 "$tmp/d")"
	fi
	"$MLXCLI" --sysroot "$tmp/b" -j apply "$@" "$tmp/want.json" | jq -c .changed >"$tmp/c"
	check "$a -> $b: a second apply changes nothing" "$(cat "$tmp/c")" false
}

roundtrip cx5-ofed cx6dx-upstream
check "cx5 -> cx6dx: it wrote QoS, knobs and SR-IOV (the DCQCN parameters are equal)" \
	"$(jq -c '.changes | map(.subsystem) | unique' "$tmp/apply.json")" '["params","qos","sriov"]'
# (issue 27: the PFC prevention timeout, 100 ms on cx5-ofed and off on
# cx6dx-upstream, goes through the ETHTOOL_STUNABLE emulator)
check "cx5 -> cx6dx: the knobs that differ" \
	"$(jq -c '[.changes[] | select(.subsystem == "params") | [.netdev, .setting, .old, .new]]' "$tmp/apply.json")" \
	'[["enp59s0f0np0","rx_ring",1024,8192],["enp59s0f0np0","lro",false,true],["enp59s0f0np0","flow_steering_mode","smfs","dmfs"],["enp59s0f0np0","pfc_prevention_tout_msec",0,100],["enp59s0f1np1","flow_steering_mode","smfs","dmfs"],["enp59s0f1np1","pfc_prevention_tout_msec",0,100]]'

# cx6dx -> cx5, with --force; without it the lint gate refuses (below)
roundtrip cx6dx-upstream cx5-ofed --yes --force
"$MLXCLI" --sysroot "$S/cx5-ofed" -j state >"$tmp/pristine.json"
rm -rf "$tmp/b"; cp -a "$S/cx5-ofed" "$tmp/b"; chmod -R u+w "$tmp/b"
"$MLXCLI" --sysroot "$tmp/b" apply --yes "$tmp/want.json" >/dev/null 2>"$tmp/e"; rc=$?
check "cx6dx -> cx5 without --force: the lint gate refuses, exit 1" "$rc" 1
grep -q "pfc-off-roce-prio" "$tmp/e" && ok "... names the rule" || bad "lint: $(cat "$tmp/e")"
check "... nothing written" "$("$MLXCLI" --sysroot "$tmp/b" -j state | cmp -s - "$tmp/pristine.json" && echo same)" same

finish

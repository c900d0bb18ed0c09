#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The driver's knobs in the desired state (issue 19 with issue 17's params):
#  - `state` shows each port's knobs that change at run time per port
#    (ethtool, MTU, devlink runtime), typed as `params -j` prints them, on
#    both sample hosts; not the module's, not rdma_cm's (those are `roce`),
#    not a fixed feature;
#  - `apply` of a knob change on a writable copy changes it, a second apply
#    changes nothing, --check and --diff write nothing;
#  - bad name, type, range: exit 2 naming the JSON path, nothing written;
#  - a failure injected at each write of a QoS + params + SR-IOV + RDMA CM
#    apply leaves `state -j` byte-identical (tests/fault/fault-shim.c);
#  - `state -j` of a host applied to itself changes nothing.
set -u
. "$(dirname "$0")/lib.sh"
need jq
S=$MLXCLI_SAMPLES_DIR
st() { "$MLXCLI" --sysroot "$tmp/$1" -j state; }

# ---- state: the knobs, typed
check "cx5 state: port 0's knobs, typed" \
	"$("$MLXCLI" --sample=cx5-ofed -j state | jq -c '.ports[0].params | [type, .rx_ring, .rx_cqe_compress, .dropless_rq, .rx_usecs, .mtu, .flow_steering_mode, .esw_port_metadata]')" \
	'["object",8192,false,true,8,1500,"dmfs",true]'
check "cx6dx state: port 0's knobs, typed" \
	"$("$MLXCLI" --sample=cx6dx-upstream -j state | jq -c '.ports[0].params | [type, .rx_ring, .lro, .combined_channels, .flow_steering_mode]')" \
	'["object",1024,false,4,"smfs"]'
check "state: no module parameter, no rdma_cm knob (roce), no fixed feature" \
	"$("$MLXCLI" --sample=cx5-ofed -j state | jq -c '[.ports[].params | [has("debug_mask"), has("roce_tos"), has("roce_mode"), has("traffic_class"), has("enable_roce"), has("gro_hw")]] | unique')" \
	'[[false,false,false,false,false,false]]'
"$MLXCLI" --sample=cx5-ofed state >"$tmp/text" || bad "state (text)"
grep -qx '  params.rx_ring = 8192' "$tmp/text" && ok "state text: params.rx_ring = 8192" ||
	bad "state text: $(grep params "$tmp/text" | head -3)"

# ---- apply a change, twice
fresh x cx6dx-upstream
st x >"$tmp/before.json"
echo '{"ports":[{"pci_address":"0000:3b:00.0","params":{"mtu":9000,"rx_cqe_compress":true,"rx_ring":4096,"tso":true}}]}' >"$tmp/p.json"
"$MLXCLI" --sysroot "$tmp/x" -j apply --check "$tmp/p.json" >"$tmp/c.json"; rc=$?
check "--check: exit 0" "$rc" 0
check "--check: the changes in the catalogue's order, subsystem params" \
	"$(jq -c '[.changes[] | [.subsystem, .setting, .old, .new]]' "$tmp/c.json")" \
	'[["params","rx_cqe_compress",false,true],["params","rx_ring",1024,4096],["params","mtu",1500,9000]]'
check "--check wrote nothing" "$(st x | cmp -s - "$tmp/before.json" && echo same)" same
"$MLXCLI" --sysroot "$tmp/x" apply --diff "$tmp/p.json" >"$tmp/d.txt"; rc=$?
check "--diff: exit 0" "$rc" 0
grep -q '^+.*params.rx_ring.*4096' "$tmp/d.txt" && ok "--diff shows params.rx_ring" ||
	bad "--diff: $(cat "$tmp/d.txt")"
check "--diff wrote nothing" "$(st x | cmp -s - "$tmp/before.json" && echo same)" same
"$MLXCLI" --sysroot "$tmp/x" -j apply "$tmp/p.json" >"$tmp/a.json"; rc=$?
check "apply: exit 0, changed" "$rc $(jq -c .changed "$tmp/a.json")" "0 true"
check "apply: state has the knobs" \
	"$(st x | jq -c '.ports[0].params | [.mtu, .rx_cqe_compress, .rx_ring, .tso]')" '[9000,true,4096,true]'
check "apply: the other port untouched" \
	"$(st x | jq -c '.ports[1]')" "$(jq -c '.ports[1]' "$tmp/before.json")"
"$MLXCLI" --sysroot "$tmp/x" -j apply "$tmp/p.json" >"$tmp/b.json"; rc=$?
check "second apply: exit 0, changed false, no changes" "$rc $(jq -c '[.changed, (.changes | length)]' "$tmp/b.json")" "0 [false,0]"
check "params show agrees (one reader)" \
	"$("$MLXCLI" --sysroot "$tmp/x" -j params -d enp59s0f0np0 rx_ring | jq -c '.params[0].knobs[0].current')" 4096

# ---- bad values: exit 2 with the path, nothing written
st x >"$tmp/before.json"
badfile() {
	printf '%s\n' "$2" >"$tmp/bad.json"
	"$MLXCLI" --sysroot "$tmp/x" apply "$tmp/bad.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
	check "bad file ($1): exit 2" "$rc" 2
	grep -qF "$3" "$tmp/e" && ok "bad file ($1): names $3" || bad "bad file ($1): $(cat "$tmp/e")"
}
P='{"ports":[{"pci_address":"0000:3b:00.0","params":'
badfile "unknown knob" "$P{\"rx_ring\":2048,\"no_such_knob\":1}}]}" "ports[0].params.no_such_knob: no knob"
badfile "bool as string" "$P{\"rx_cqe_compress\":\"yes\"}}]}" "ports[0].params.rx_cqe_compress: expected a boolean"
badfile "number as bool" "$P{\"rx_ring\":true}}]}" "ports[0].params.rx_ring: expected an integer"
badfile "out of range" "$P{\"rx_usecs\":99999}}]}" "ports[0].params.rx_usecs: rx_usecs 99999 is out of its range 0..4095"
badfile "negative" "$P{\"mtu\":-1}}]}" "ports[0].params.mtu:"
badfile "not a choice" "$P{\"flow_steering_mode\":\"fast\"}}]}" "ports[0].params.flow_steering_mode: 'fast' is not a value"
badfile "module parameter" "$P{\"debug_mask\":1}}]}" "ports[0].params.debug_mask: a module parameter"
badfile "rdma_cm knob" "$P{\"roce_tos\":96}}]}" "ports[0].params.roce_tos: "
badfile "not an object" "$P[1]}]}" "ports[0].params: expected an object"
printf '%s\n' "$P{\"rx_ring\":16384}}]}" >"$tmp/bad.json"
"$MLXCLI" --sysroot "$tmp/x" apply "$tmp/bad.json" >"$tmp/o" 2>"$tmp/e"; rc=$?
check "above the device's maximum: exit 2" "$rc" 2
grep -q "16384 is above the device's maximum 8192" "$tmp/e" && ok "... says the maximum" || bad "max: $(cat "$tmp/e")"
check "bad files: nothing written" "$(st x | cmp -s - "$tmp/before.json" && echo same)" same

# ---- the round trip: a host's state applied to itself changes nothing
for s in cx5-ofed cx6dx-upstream; do
	fresh r "$s"
	st r >"$tmp/self.json"
	check "$s: its state applied to itself: changed false" \
		"$("$MLXCLI" --sysroot "$tmp/r" -j apply "$tmp/self.json" | jq -c .changed)" false
	check "$s: ... state unchanged" "$(st r | cmp -s - "$tmp/self.json" && echo same)" same
done

# ---- all or nothing: a failure at each write
if fault_usable; then
	fresh f cx5-ofed
	# QoS (port 0), params on both ports, a VF's VLAN, the RDMA CM's ToS
	st f | jq '.ports[0].pfc.enabled_priorities = [3,4]
		| .ports[0].params.rx_ring = 4096 | .ports[0].params.mtu = 9000
		| .ports[0].params.flow_steering_mode = "smfs" | .ports[1].params.lro = true
		| .ports[0].sriov.vfs[1].vlan = 7 | .ports[0].roce.default_roce_tos = 96' >"$tmp/multi.json"
	st f >"$tmp/old.json"
	fault 0 "" --sysroot "$tmp/f" -j apply "$tmp/multi.json"; total=$(cat "$tmp/count")
	check "the multi-subsystem apply: its subsystems" \
		"$(jq -c '[.changes[].subsystem] | unique' "$tmp/o")" '["params","qos","roce","sriov"]'
	check "... params after QoS, before SR-IOV" \
		"$(jq -c '[.changes[].subsystem] | [.[0], .[1], .[-2], .[-1]]' "$tmp/o")" '["qos","params","sriov","roce"]'
	[ "$total" -ge 8 ] && ok "the matrix: $total writes" || bad "the matrix: only $total writes counted"
	fault_matrix f cx5-ofed "$total" "$tmp/old.json" --sysroot "$tmp/f" -j apply "$tmp/multi.json"
	# the MTU write itself fails: QoS and the knobs before it put back (a
	# captured file is replaced, never written in place: the write is the
	# rename of its new file over it)
	FCALL=rename fault 1 enp94s0f0np0/mtu --sysroot "$tmp/f" -j apply "$tmp/multi.json"
	check "the MTU write fails: exit 1" "$rc" 1
	grep -q "was put back: nothing was changed" "$tmp/e" && ok "... QoS put back" || bad "no put-back: $(cat "$tmp/e")"
	check "... state -j as before" "$(st f | cmp -s - "$tmp/old.json" && echo same)" same
fi

finish

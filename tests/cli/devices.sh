#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `devices` and `ports` on the two sample hosts (tests/data/samples/*/README.md
# states the facts checked here):
#   - text equals tests/cli/expected/<host>-devices.txt and -ports.txt.  Those
#     files were generated with mlxcli and then REVIEWED BY EYE against the
#     host READMEs (functions, roles, PF of each VF, netdevs, RDMA names, link
#     up/down and 100G, NUMA node, firmware, PCIe 8GT/s x16 on cx5 and
#     16GT/s x8 of x16 flagged "!" on cx6dx, MACs) before being accepted;
#   - the JSON (-j) parsed back with jq against the README facts;
#   - the degraded-link warning on stderr; -p equals -j; show X equals X;
#   - -d in every documented spelling selects the same function.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq
EXPECTED=$TOP_SRCDIR/tests/cli/expected

# jq_is HOST FILTER EXPECTED: the compact jq result of FILTER on $tmp/HOST.json
jq_is() {
	got=$(jq -c "$2" "$tmp/$1.json" 2>&1)
	if [ "$got" = "$3" ]; then
		ok "$1: $2 = $3"
	else
		bad "$1: $2 is '$got', expected '$3'"
	fi
}

for host in cx5-ofed cx6dx-upstream; do
	echo "== $host"
	# text against the reviewed expected files
	for cmd in devices ports; do
		run "$host-$cmd" --sample="$host" "$cmd"
		[ "$rc" -eq 0 ] || bad "$host $cmd exited $rc"
		if diff -u "$EXPECTED/$host-$cmd.txt" "$tmp/$host-$cmd.out"; then
			ok "$host $cmd text equals expected/$host-$cmd.txt"
		else
			bad "$host $cmd text differs from expected/$host-$cmd.txt"
		fi
		# the mlxtool spelling prints the same bytes
		run "$host-show-$cmd" --sample="$host" show "$cmd"
		if [ "$rc" -eq 0 ] && cmp -s "$tmp/$host-$cmd.out" "$tmp/$host-show-$cmd.out"; then
			ok "$host 'show $cmd' = '$cmd'"
		else
			bad "$host 'show $cmd' differs from '$cmd' (exit $rc)"
		fi
		# JSON, compact and pretty: both valid, the same document
		run "$host-$cmd-j" --sample="$host" -j "$cmd"
		[ "$rc" -eq 0 ] || bad "$host -j $cmd exited $rc"
		run "$host-$cmd-p" --sample="$host" -p "$cmd"
		[ "$rc" -eq 0 ] || bad "$host -p $cmd exited $rc"
		if [ "$(wc -l <"$tmp/$host-$cmd-j.out")" -ne 1 ]; then
			bad "$host -j $cmd is not one line"
		fi
		if [ "$(wc -l <"$tmp/$host-$cmd-p.out")" -le 1 ]; then
			bad "$host -p $cmd is not indented"
		fi
		if jq -S . "$tmp/$host-$cmd-j.out" >"$tmp/j.s" &&
		   jq -S . "$tmp/$host-$cmd-p.out" >"$tmp/p.s" && cmp -s "$tmp/j.s" "$tmp/p.s"; then
			ok "$host -p $cmd is valid JSON equal to -j's"
		else
			bad "$host -p $cmd and -j $cmd differ or are not JSON"
		fi
		run "$host-show-$cmd-j" --sample="$host" -j show "$cmd"
		cmp -s "$tmp/$host-$cmd-j.out" "$tmp/$host-show-$cmd-j.out" ||
			bad "$host -j 'show $cmd' differs from -j '$cmd'"
	done
	cp "$tmp/$host-devices-j.out" "$tmp/$host.json"
	cp "$tmp/$host-ports-j.out" "$tmp/$host-ports.json"
done

echo "== JSON facts"
# The first key is schema_version (mlxcli(8) JSON OUTPUT).
for f in cx5-ofed cx6dx-upstream cx5-ofed-ports cx6dx-upstream-ports; do
	jq_is "$f" 'keys_unsorted[0]' '"schema_version"'
	jq_is "$f" '.schema_version' '3'
done

# cx5-ofed: 2 PFs + 4 VFs on PF0, 15b3:1017 / 15b3:1018
h=cx5-ofed
jq_is $h '.devices | length' '6'
jq_is $h '[.devices[].pci_address]' \
	'["0000:5e:00.0","0000:5e:00.1","0000:5e:00.2","0000:5e:00.3","0000:5e:00.4","0000:5e:00.5"]'
jq_is $h '[.devices[].role]' '["pf","pf","vf","vf","vf","vf"]'
# A VF is a VF by its own physfn link, not only by a device ID the table
# knows (a newer adapter's VF) or by its PF's virtfnN link (a PF that could
# not be read: 64 bytes of its config, no SR-IOV capability): physfn leaves
# the function's directory, which lookups were held beneath, so it once
# looked absent.
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/newvf"
pf0=$(cd "$tmp/newvf/sys/bus/pci/devices/0000:5e:00.0" && pwd -P)
vf0=$(cd "$tmp/newvf/sys/bus/pci/devices/0000:5e:00.2" && pwd -P)
cp "$pf0/config" "$tmp/pf0.config"
echo 0x10ff >"$vf0/device"
rm "$pf0/virtfn0"
truncate -s 64 "$pf0/config"
"$MLXCLI" --sysroot "$tmp/newvf" -j devices >"$tmp/newvf.json" 2>"$tmp/newvf.err" ||
	bad "devices on the copy failed: $(cat "$tmp/newvf.err")"
jq_is newvf '[.devices[] | select(.pci_address == "0000:5e:00.2") | [.device_id, .role, .pf]]' \
	'[["0x10ff","vf","0000:5e:00.0"]]'
# A VF's header reads FFFFh for its IDs; the PF's SR-IOV capability gives
# them (VF Device ID at +0x1a, the place from First VF Offset and Stride),
# as the kernel does: the VF's own vendor and device files are not read,
# nor its PF's virtfnN link (here, a newer adapter's VF ID in both).
cp "$tmp/pf0.config" "$pf0/config"
printf '\377\020' | dd of="$pf0/config" bs=1 seek=$((0x180 + 0x1a)) conv=notrunc 2>/dev/null
rm "$vf0/vendor" "$vf0/device"
"$MLXCLI" --sysroot "$tmp/newvf" -j devices >"$tmp/newvf.json" 2>"$tmp/newvf.err" ||
	bad "devices without the VF's vendor and device files failed: $(cat "$tmp/newvf.err")"
jq_is newvf '[.devices[] | select(.pci_address == "0000:5e:00.2") | [.vendor_id, .device_id, .role, .pf, .vf_index]]' \
	'[["0x15b3","0x10ff","vf","0000:5e:00.0",0]]'
jq_is newvf '[.devices[] | select(.pci_address == "0000:5e:00.3") | [.device_id, .pf, .vf_index]]' \
	'[["0x10ff","0000:5e:00.0",1]]'
# Netdevs and RDMA devices come from one listing of /sys/class/net and
# /sys/class/infiniband (a readlink each) rather than each function's net/
# and infiniband/; a capture without the class directories (noclass) is
# read the old way, to the same result.
for host in cx5-ofed cx6dx-upstream; do
	cp -a "$MLXCLI_SAMPLES_DIR/$host" "$tmp/noclass"
	rm -rf "$tmp/noclass/sys/class/net" "$tmp/noclass/sys/class/infiniband"
	# and a class of many other netdevs (containers' veths) is not
	# read link by link: the functions' directories are listed
	cp -a "$MLXCLI_SAMPLES_DIR/$host" "$tmp/veths"
	for i in $(seq 1 40); do
		ln -s "../../devices/virtual/net/veth$i" "$tmp/veths/sys/class/net/veth$i"
	done
	for c in devices ports; do
		"$MLXCLI" --sysroot "$MLXCLI_SAMPLES_DIR/$host" -j $c >"$tmp/withclass.json" 2>/dev/null
		for copy in noclass veths; do
			"$MLXCLI" --sysroot "$tmp/$copy" -j $c >"$tmp/$copy.json" 2>/dev/null
			if [ -s "$tmp/withclass.json" ] && cmp -s "$tmp/withclass.json" "$tmp/$copy.json"; then
				ok "$host $c: the same on the copy $copy"
			else
				bad "$host $c: differs on the copy $copy"
			fi
		done
	done
	rm -rf "$tmp/noclass" "$tmp/veths"
done
jq_is $h '[.devices[].pf]' \
	'[null,null,"0000:5e:00.0","0000:5e:00.0","0000:5e:00.0","0000:5e:00.0"]'
jq_is $h '[.devices[].vf_index]' '[null,null,0,1,2,3]'
jq_is $h '[.devices[].vendor_id] | unique' '["0x15b3"]'
jq_is $h '[.devices[].device_id]' '["0x1017","0x1017","0x1018","0x1018","0x1018","0x1018"]'
jq_is $h '[.devices[].subsystem_device_id] | unique' '["0x0080"]'
jq_is $h '[.devices[].product]' \
	'["ConnectX-5","ConnectX-5","ConnectX-5 VF","ConnectX-5 VF","ConnectX-5 VF","ConnectX-5 VF"]'
jq_is $h '[.devices[].driver] | unique' '["mlx5_core"]'
jq_is $h '[.devices[].netdevs]' \
	'[["enp94s0f0np0"],["enp94s0f1np1"],["enp94s0f2"],["enp94s0f3"],["enp94s0f4"],["enp94s0f5"]]'
jq_is $h '[.devices[].rdma_devices]' '[["mlx5_0"],["mlx5_1"],["mlx5_2"],["mlx5_3"],["mlx5_4"],["mlx5_5"]]'
jq_is $h '[.devices[].ports[0].speed_mbps]' '[100000,null,100000,100000,100000,100000]'
jq_is $h '[.devices[].ports[0].link_state]' '["up","down","up","up","up","up"]'
jq_is $h '[.devices[].ports[0].rdma_port]' '[1,1,1,1,1,1]'
jq_is $h '[.devices[].numa_node] | unique' '[1]'
jq_is $h '[.devices[].fw_version] | unique' '["16.35.2000"]'
jq_is $h '[.devices[].psid] | unique' '["MT_0000000008"]'
jq_is $h '[.devices[].pcie.degraded] | unique' '[false]'
jq_is $h '[.devices[] | select(.role == "pf") | .pcie]' \
	'[{"source":"config","capability":{"speed":"8GT/s","width":16},"status":{"speed":"8GT/s","width":16},"degraded":false},{"source":"config","capability":{"speed":"8GT/s","width":16},"status":{"speed":"8GT/s","width":16},"degraded":false}]'
# a VF's LnkCap is the PF's, its LnkSta "speed unknown x0" (README): null, not invented
jq_is $h '[.devices[] | select(.role == "vf") | .pcie.status] | unique' '[{"speed":null,"width":null}]'
jq_is $h '[.devices[] | select(.role == "vf") | .pcie.capability] | unique' '[{"speed":"8GT/s","width":16}]'
jq_is $h '[.devices[].sriov]' '[{"total_vfs":8,"num_vfs":4},{"total_vfs":8,"num_vfs":0},null,null,null,null]'
jq_is $h-ports '[.ports[].netdev]' \
	'["enp94s0f0np0","enp94s0f1np1","enp94s0f2","enp94s0f3","enp94s0f4","enp94s0f5"]'
jq_is $h-ports '[.ports[].speed_mbps]' '[100000,null,100000,100000,100000,100000]'
jq_is $h-ports '[.ports[].carrier]' '[true,false,true,true,true,true]'
jq_is $h-ports '[.ports[].mac]' \
	'["02:c5:00:5e:00:00","02:c5:00:5e:00:01","02:c5:00:5e:01:02","02:c5:00:5e:01:03","02:c5:00:5e:01:04","02:c5:00:5e:01:05"]'
jq_is $h-ports '[.ports[].phys_port_name]' '["p0","p1",null,null,null,null]'
jq_is $h-ports '[.ports[].link_layer] | unique' '["Ethernet"]'
if [ -s "$tmp/$h-devices.err" ]; then
	bad "$h devices wrote to stderr: $(cat "$tmp/$h-devices.err")"
else
	ok "$h devices: stderr empty (no degraded link)"
fi

# cx6dx-upstream: 2 PFs, 15b3:101d, x16 card in a x8 slot
h=cx6dx-upstream
jq_is $h '.devices | length' '2'
jq_is $h '[.devices[].pci_address]' '["0000:3b:00.0","0000:3b:00.1"]'
jq_is $h '[.devices[].role]' '["pf","pf"]'
jq_is $h '[.devices[].pf]' '[null,null]'
jq_is $h '[.devices[].vf_index]' '[null,null]'
jq_is $h '[.devices[].device_id]' '["0x101d","0x101d"]'
jq_is $h '[.devices[].product] | unique' '["ConnectX-6 Dx"]'
jq_is $h '[.devices[].netdevs]' '[["enp59s0f0np0"],["enp59s0f1np1"]]'
jq_is $h '[.devices[].rdma_devices]' '[["mlx5_0"],["mlx5_1"]]'
jq_is $h '[.devices[].ports[0].speed_mbps]' '[100000,100000]'
jq_is $h '[.devices[].numa_node]' '[0,0]'
jq_is $h '[.devices[].fw_version]' '["22.39.1002","22.39.1002"]'
jq_is $h '[.devices[].pcie.degraded]' '[true,true]'
jq_is $h '[.devices[].pcie.capability] | unique' '[{"speed":"16GT/s","width":16}]'
jq_is $h '[.devices[].pcie.status] | unique' '[{"speed":"16GT/s","width":8}]'
jq_is $h '[.devices[].pcie.source] | unique' '["config"]'
jq_is $h '[.devices[].sriov]' '[{"total_vfs":8,"num_vfs":0},{"total_vfs":8,"num_vfs":0}]'
for bdf in 0000:3b:00.0 0000:3b:00.1; do
	want="mlxcli: warning: $bdf: PCIe link trained at 16GT/s x8, below its capability 16GT/s x16"
	if grep -F -q "$want" "$tmp/$h-devices.err"; then
		ok "$h: degraded-link warning for $bdf"
	else
		bad "$h: no '$want' on stderr: $(cat "$tmp/$h-devices.err")"
	fi
done
# the warning is on stderr in JSON mode too, and never on stdout
grep -q warning "$tmp/$h-devices-j.err" || bad "$h -j devices: no warning on stderr"
grep -q warning "$tmp/$h-devices-j.out" && bad "$h -j devices: warning on stdout"
[ "$(wc -l <"$tmp/$h-devices.err")" -eq 2 ] || bad "$h devices: expected 2 stderr lines"

echo "== -d spellings"
# select_is WANT_BDF ARGS...: -j devices with ARGS selects exactly WANT_BDF
select_is() {
	want=$1
	shift
	run sel "$@"
	got=$(jq -c '[.devices[].pci_address]' "$tmp/sel.out" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$got" = "[\"$want\"]" ]; then
		ok "$* -> $want"
	else
		bad "$* -> exit $rc, $got (want $want): $(cat "$tmp/sel.err")"
	fi
}
for spelling in 0000:5e:00.0 5e:00.0 5E:00.0 5e:0.0 pci/0000:5e:00.0 "94 0 0" enp94s0f0np0 mlx5_0; do
	select_is 0000:5e:00.0 --sample -j devices -d "$spelling"
done
select_is 0000:5e:00.0 --sample -j devices -d 94 0 0
select_is 0000:5e:00.0 --sample -d 94 0 0 -j devices
select_is 0000:5e:00.0 --sample -j devices --device=5e:0.0
for spelling in 0000:5e:00.3 5e:00.3 "94 0 3" 5e:0.3 enp94s0f3 mlx5_3; do
	select_is 0000:5e:00.3 --sample -j devices -d "$spelling"
done
select_is 0000:5e:00.3 --sample -j devices -d 94 0 3
for spelling in 0000:3b:00.1 3b:00.1 "59 0 1" 3b:0.1 pci/0000:3b:00.1 enp59s0f1np1 mlx5_1; do
	select_is 0000:3b:00.1 --sample=cx6dx-upstream -j devices -d "$spelling"
done
select_is 0000:3b:00.1 --sample=cx6dx-upstream -j devices -d 59 0 1
# the selected row is the same object as in the full list
run one --sample -j devices -d mlx5_2
if [ "$(jq -S -c '.devices[0]' "$tmp/one.out")" = "$(jq -S -c '.devices[2]' "$tmp/cx5-ofed.json")" ]; then
	ok "-d mlx5_2 row equals the third row of the full list"
else
	bad "-d mlx5_2 row differs from the full list's"
fi
# text: header + one row
run onetext --sample devices -d 5e:00.1
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/onetext.out")" -eq 2 ] &&
   grep -q '^0000:5e:00\.1  ' "$tmp/onetext.out"; then
	ok "devices -d 5e:00.1: header and one row"
else
	bad "devices -d 5e:00.1 text: $(cat "$tmp/onetext.out")"
fi

echo "== ports -d"
for spelling in enp94s0f4 mlx5_4 5e:00.4 "94 0 4"; do
	run p --sample -j ports -d "$spelling"
	got=$(jq -c '[.ports[].netdev]' "$tmp/p.out" 2>/dev/null)
	if [ "$rc" -eq 0 ] && [ "$got" = '["enp94s0f4"]' ]; then
		ok "ports -d $spelling -> one row, enp94s0f4"
	else
		bad "ports -d $spelling -> exit $rc, $got"
	fi
done
run p --sample ports -d enp94s0f1np1
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$tmp/p.out")" -eq 2 ] &&
   [ "$(sed -n 2p "$tmp/p.out")" = "$(grep '^enp94s0f1np1 ' "$EXPECTED/cx5-ofed-ports.txt")" ]; then
	ok "ports -d enp94s0f1np1: one row, as in the full table"
else
	bad "ports -d enp94s0f1np1: $(cat "$tmp/p.out")"
fi

echo "== no match"
run nm --sample -d 5e:00.7 devices
[ "$rc" -eq 3 ] && [ ! -s "$tmp/nm.out" ] && grep -q "no ConnectX device '5e:00.7'" "$tmp/nm.err" &&
	ok "-d 5e:00.7: exit 3, stdout empty" || bad "-d 5e:00.7: exit $rc, $(cat "$tmp/nm.err")"
run nm --sample -d eno1 ports
[ "$rc" -eq 3 ] && ok "-d eno1 (an Intel port): exit 3" || bad "-d eno1: exit $rc"
run nm --sample -d 1:0.0 devices
[ "$rc" -eq 3 ] && ok "-d 1:0.0 (the Intel I350): exit 3" || bad "-d 1:0.0: exit $rc"

echo "== a colon form is hex (issue 25)"
# lspci, the kernel and every other tool read 59:0.1 as bus 0x59: an
# operator pasting it must never reach 0000:3b:00.1 (mlxtool's decimal 59)
run hex --sample=cx6dx-upstream -d 59:0.1 devices
[ "$rc" -eq 3 ] && grep -q "no ConnectX device '59:00.1' (read as a PCI address in hex: bus 0x59, device 0x00, function 1; for mlxtool's decimal bus 59 write '59 0 1')" "$tmp/hex.err" &&
	ok "-d 59:0.1 on cx6dx (3b:00.1 only): exit 3, read as hex, '59 0 1' named" ||
	bad "-d 59:0.1: exit $rc: $(cat "$tmp/hex.out" "$tmp/hex.err")"
run hexw --sample=cx6dx-upstream -d 59:0.1 params set mtu=4200
run hexr --sample=cx6dx-upstream -j params -d enp59s0f1np1
got=$(jq -r '.params[0].knobs[] | select(.name == "mtu") | .current' "$tmp/hexr.out")
[ "$rc" -eq 0 ] && [ "$got" = 1500 ] && grep -q "no ConnectX device '59:00.1'" "$tmp/hexw.err" &&
	ok "-d 59:0.1 params set mtu=4200: refused, 3b:00.1's MTU still 1500" ||
	bad "-d 59:0.1 params set wrote elsewhere: mtu $got: $(cat "$tmp/hexw.out" "$tmp/hexw.err")"
run dl --sample -d pci/0000:5e:00.1 -j devices
[ "$rc" -eq 0 ] && [ "$(jq -c '[.devices[].pci_address]' "$tmp/dl.out")" = '["0000:5e:00.1"]' ] &&
	ok "-d pci/0000:5e:00.1 (devlink's handle) selects 0000:5e:00.1" ||
	bad "-d pci/0000:5e:00.1: exit $rc: $(cat "$tmp/dl.err")"
for h in pci/5e:00.8 pci/0000:5e:00.0/1 pci/eth0 255:0.0; do
	run dl --sample -d "$h" devices
	[ "$rc" -eq 2 ] && ok "-d $h: exit 2" || bad "-d $h: exit $rc: $(cat "$tmp/dl.err")"
done
grep -q "for mlxtool's decimal bus 255, device 0 write '255 0 0'" "$tmp/dl.err" &&
	ok "-d 255:0.0: names mlxtool's '255 0 0'" || bad "-d 255:0.0: $(cat "$tmp/dl.err")"

echo "== both readings name a device"
# A copy of cx5-ofed with a second ConnectX-5 at 0000:94:00.0: "94:00.0" is
# that one (hex), mlxtool's decimal 94 is 5e:00.0; each selection says how
# it was read and how to write the other (issue 15).
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/amb"
chmod -R u+w "$tmp/amb"
d=$tmp/amb/sys/devices/pci0000:5d/0000:5d:00.0
mkdir "$d/0000:94:00.0"
for f in class config device vendor subsystem_device subsystem_vendor revision numa_node; do
	cp "$d/0000:5e:00.1/$f" "$d/0000:94:00.0/$f"
done
ln -s ../../../devices/pci0000:5d/0000:5d:00.0/0000:94:00.0 "$tmp/amb/sys/bus/pci/devices/0000:94:00.0"
run amb --sysroot "$tmp/amb" -j devices -d 94:00.0
if [ "$rc" -eq 0 ] && [ "$(jq -r '.devices[0].pci_address' "$tmp/amb.out")" = 0000:94:00.0 ] &&
   grep -q "warning: '94:00.0' was read as a PCI address in hex, as lspci prints it (0000:94:00.0); it also names another ConnectX function, 0000:5e:00.0 (mlxtool's decimal bus 94): for it write '94 0 0'" "$tmp/amb.err"; then
	ok "-d 94:00.0 with both 94:00.0 and 5e:00.0 present: hex, and a warning naming '94 0 0'"
else
	bad "-d 94:00.0 (both present): exit $rc: $(cat "$tmp/amb.out" "$tmp/amb.err")"
fi
run amb --sysroot "$tmp/amb" -j devices -d 94:0.0
if [ "$rc" -eq 0 ] && [ "$(jq -r '.devices[0].pci_address' "$tmp/amb.out")" = 0000:94:00.0 ] &&
   grep -q "warning: '94:0.0' was read as a PCI address in hex, as lspci prints it (0000:94:00.0); it also names another ConnectX function, 0000:5e:00.0 (mlxtool's decimal bus 94): for it write '94 0 0'" "$tmp/amb.err"; then
	ok "-d 94:0.0 with both present: hex, and a warning naming '94 0 0'"
else
	bad "-d 94:0.0 (both present): exit $rc: $(cat "$tmp/amb.out" "$tmp/amb.err")"
fi
# a write refuses to guess: exit 2, both named, nothing written
for spelling in 94:0.0 94:00.0; do
	run ambw --sysroot "$tmp/amb" -d $spelling params set mtu=4200
	if [ "$rc" -eq 2 ] &&
	   grep -q "error: '$spelling' names two ConnectX functions, 0000:94:00.0 (a PCI address in hex, as lspci prints it) and 0000:5e:00.0 (mlxtool's decimal bus 94): nothing was written" "$tmp/ambw.err" &&
	   grep -q "hint: give one of them alone: '0000:94:00.0' or '94 0 0'" "$tmp/ambw.err" &&
	   [ "$(cat "$tmp/amb/sys/class/net/enp94s0f0np0/mtu")" = 1500 ]; then
		ok "params set -d $spelling with both present: exit 2, both named, nothing written"
	else
		bad "params set -d $spelling (both present): exit $rc: $(cat "$tmp/ambw.out" "$tmp/ambw.err")"
	fi
done
run ambw --sysroot "$tmp/amb" -d 94:0.0 qosconfig dcqcn set rpg_ai_rate 10 --dry-run
[ "$rc" -eq 2 ] && grep -q "names two ConnectX functions" "$tmp/ambw.err" &&
	ok "dcqcn set --dry-run -d 94:0.0 (both present): exit 2" || bad "dcqcn set -d 94:0.0: exit $rc: $(cat "$tmp/ambw.err")"
run ambw --sysroot "$tmp/amb" -d '94 0 0' params set mtu=4200 --dry-run
[ "$rc" -eq 0 ] && ok "params set -d '94 0 0' (mlxtool's, one reading): planned" ||
	bad "params set -d '94 0 0': exit $rc: $(cat "$tmp/ambw.err")"
run amb --sysroot "$tmp/amb" devices -d '94 0 0'
[ "$rc" -eq 0 ] && [ ! -s "$tmp/amb.err" ] && ok "-d '94 0 0': no warning (blanks are mlxtool's only)" ||
	bad "-d '94 0 0': exit $rc: $(cat "$tmp/amb.err")"
run amb --sample devices -d 5e:0.0
[ "$rc" -eq 0 ] && [ ! -s "$tmp/amb.err" ] && ok "-d 5e:0.0 on the sample: no warning" ||
	bad "-d 5e:0.0 on the sample: exit $rc: $(cat "$tmp/amb.err")"

finish

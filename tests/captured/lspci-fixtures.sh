#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every captured config-space dump in $FIXTURES/lspci/*.txt (real ConnectX
# functions; see $FIXTURES/README.md) becomes a one-function sysroot that
# mlxcli reads with --sysroot, and lspci decodes the very same bytes with
# `lspci -F`.  The two must agree:
#   - vendor_id and device_id (and the subsystem IDs) equal lspci -n's;
#   - the PCIe link: these dumps stop at 64 bytes (the `lspci -x` default),
#     so the PCI Express capability (at 0x60 in every one of them) is not
#     in them and lspci shows no LnkCap/LnkSta.  mlxcli must then report
#     pcie.source null and the speeds and widths null: it must not invent a
#     link.  Should a dump ever hold the capability, the speed and width
#     lspci decodes are compared instead.
#   - config_space_bytes is the dump's length.
# The captures are read in place and never modified.
# Exit 0 pass, 1 fail, 77 skip (no lspci, no $FIXTURES, no jq).

. "$(dirname "$0")/../cli/lib.sh"
FIXTURES=${FIXTURES:-$TOP_SRCDIR/../shared/fixtures}

need lspci jq od
if [ ! -d "$FIXTURES/lspci" ]; then
	echo "SKIP: captured fixtures not found at $FIXTURES/lspci"
	exit 77
fi
count=0

# hex_bytes FILE: the bytes of the "xx: .." lines of an lspci -x dump, one
# two-digit hex byte per line, in order
hex_bytes() {
	sed -n 's/^[[:space:]]*\([0-9a-f]\{2,3\}\):\(\( [0-9a-f][0-9a-f]\)\{1,16\}\)[[:space:]]*$/\2/p' "$1" |
		tr ' ' '\n' | sed '/^$/d'
}

# to_binary: hex bytes on stdin -> binary on stdout (POSIX printf octal escapes)
to_binary() {
	while read -r b; do
		printf "\\$(printf '%03o' "0x$b")"
	done
}

# byte FILE OFFSET [COUNT]: little-endian value of COUNT (1, 2, 3) bytes, hex, no 0x
le() {
	od -An -v -tx1 -j "$2" -N "$3" "$1" | tr -s ' \n' '  ' |
		awk '{ s = ""; for (i = NF; i >= 1; i--) s = s $i; print s }'
}

for fx in "$FIXTURES"/lspci/*.txt; do
	[ -f "$fx" ] || continue
	count=$((count + 1))
	name=$(basename "$fx")
	echo "== $name"
	slot=$(head -1 "$fx" | awk '{ print $1 }')
	case $slot in
	*:*:*.*) bdf=$slot ;;
	*:*.*) bdf=0000:$slot ;;
	*)
		bad "$name: first line has no PCI address: $(head -1 "$fx")"
		continue
		;;
	esac
	work=$tmp/$count
	mkdir -p "$work"
	hex_bytes "$fx" >"$work/bytes"
	nbytes=$(wc -l <"$work/bytes")
	if [ "$nbytes" -lt 64 ]; then
		bad "$name: only $nbytes config bytes in the dump"
		continue
	fi
	to_binary <"$work/bytes" >"$work/config"
	[ "$(wc -c <"$work/config")" -eq "$nbytes" ] || bad "$name: binary conversion lost bytes"

	# the minimal sysroot: one function under a root port directory
	root=$work/root
	dev=$root/sys/devices/pci0000:00/0000:00:00.0/$bdf
	mkdir -p "$dev" "$root/sys/bus/pci/devices"
	cfg=$work/config
	echo "0x$(le "$cfg" 0 2)" >"$dev/vendor"
	echo "0x$(le "$cfg" 2 2)" >"$dev/device"
	echo "0x$(le "$cfg" 9 3)" >"$dev/class"
	echo "0x$(le "$cfg" 44 2)" >"$dev/subsystem_vendor"
	echo "0x$(le "$cfg" 46 2)" >"$dev/subsystem_device"
	echo "0x$(le "$cfg" 8 1)" >"$dev/revision"
	echo 0 >"$dev/irq"
	echo -1 >"$dev/numa_node"
	i=0
	while [ $i -lt 17 ]; do
		echo "0x0000000000000000 0x0000000000000000 0x0000000000000000"
		i=$((i + 1))
	done >"$dev/resource"
	cp "$cfg" "$dev/config"
	ln -s "../../../devices/pci0000:00/0000:00:00.0/$bdf" "$root/sys/bus/pci/devices/$bdf"

	# lspci's reading of the same bytes
	{
		printf '%s Ethernet controller: captured\n' "$slot"
		od -An -v -tx1 -w16 "$cfg" | awk '{ printf "%02x:%s\n", (NR - 1) * 16, $0 }'
		echo
	} >"$work/dump"
	if ! lspci -F "$work/dump" -n >"$work/lspci-n" 2>"$work/lspci.err" ||
	   ! lspci -F "$work/dump" -vv -n >"$work/lspci-vv" 2>>"$work/lspci.err"; then
		bad "$name: lspci -F failed: $(cat "$work/lspci.err")"
		continue
	fi
	# "82:00.0 0207: 15b3:1003" -> 15b3 1003
	ids=$(head -1 "$work/lspci-n" | sed -n 's/^[^ ]* [0-9a-f]*: \([0-9a-f]*\):\([0-9a-f]*\).*/\1 \2/p')
	l_vendor=${ids% *}
	l_device=${ids#* }
	l_subsys=$(sed -n 's/^[[:space:]]*Subsystem: \([0-9a-f]*\):\([0-9a-f]*\).*/\1 \2/p' "$work/lspci-vv" | head -1)
	l_cap=$(sed -n 's/^[[:space:]]*LnkCap:.*Speed \([0-9.]*GT\/s\)[^,]*, Width x\([0-9]*\).*/\1 \2/p' "$work/lspci-vv")
	l_sta=$(sed -n 's/^[[:space:]]*LnkSta:.*Speed \([0-9.]*GT\/s\)[^,]*, Width x\([0-9]*\).*/\1 \2/p' "$work/lspci-vv")

	# mlxcli's
	"$MLXCLI" --sysroot "$root" -j devices >"$work/out.json" 2>"$work/out.err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		bad "$name: mlxcli exited $rc: $(cat "$work/out.err")"
		continue
	fi
	n=$(jq '.devices | length' "$work/out.json")
	if [ "$n" != 1 ]; then
		bad "$name: mlxcli lists $n functions, want 1"
		continue
	fi
	q() { jq -r ".devices[0]$1" "$work/out.json"; }
	m_bdf=$(q .pci_address)
	m_vendor=$(q .vendor_id)
	m_device=$(q .device_id)
	m_subsys="$(q .subsystem_vendor_id) $(q .subsystem_device_id)"
	m_cap="$(q .pcie.capability.speed) $(q .pcie.capability.width)"
	m_sta="$(q .pcie.status.speed) $(q .pcie.status.width)"
	m_src=$(q .pcie.source)
	m_len=$(q .config_space_bytes)

	echo "  bytes in dump : $nbytes"
	echo "  address       : lspci $bdf           mlxcli $m_bdf ($(q .product))"
	echo "  vendor:device : lspci $l_vendor:$l_device          mlxcli $m_vendor:$m_device"
	echo "  subsystem     : lspci ${l_subsys:-(none)}          mlxcli $m_subsys"
	echo "  LnkCap        : lspci ${l_cap:-(none)}  mlxcli $m_cap (source $m_src)"
	echo "  LnkSta        : lspci ${l_sta:-(none)}  mlxcli $m_sta"

	[ "$m_bdf" = "$bdf" ] || bad "$name: pci_address $m_bdf, want $bdf"
	[ -n "$l_vendor" ] || bad "$name: lspci gave no vendor ID"
	[ "$m_vendor" = "0x$l_vendor" ] || bad "$name: vendor_id $m_vendor, lspci $l_vendor"
	[ "$m_device" = "0x$l_device" ] || bad "$name: device_id $m_device, lspci $l_device"
	if [ -n "$l_subsys" ]; then
		[ "$m_subsys" = "0x${l_subsys% *} 0x${l_subsys#* }" ] ||
			bad "$name: subsystem $m_subsys, lspci $l_subsys"
	fi
	[ "$m_len" = "$nbytes" ] || bad "$name: config_space_bytes $m_len, the dump has $nbytes"
	[ "$(q .role)" = pf ] || bad "$name: role $(q .role)"
	if [ -z "$l_cap" ] && [ -z "$l_sta" ]; then
		# the capability is beyond the dump: nothing may be invented
		if [ "$m_src" = null ] && [ "$m_cap" = "null null" ] && [ "$m_sta" = "null null" ] &&
		   [ "$(q .pcie.degraded)" = false ]; then
			ok "no PCIe capability in $nbytes bytes: lspci shows no link, mlxcli reports null"
		else
			bad "$name: lspci decodes no link from $nbytes bytes, mlxcli reports source $m_src cap $m_cap sta $m_sta"
		fi
	else
		[ "$m_src" = config ] || bad "$name: pcie.source $m_src, want config"
		[ "$m_cap" = "$l_cap" ] || bad "$name: LnkCap mlxcli $m_cap, lspci $l_cap"
		[ "$m_sta" = "$l_sta" ] || bad "$name: LnkSta mlxcli $m_sta, lspci $l_sta"
	fi
	# the text view of the same: "-" for the PCIe column when unknown
	"$MLXCLI" --sysroot "$root" devices >"$work/out.txt" 2>&1 || bad "$name: text devices failed"
	if [ -z "$l_cap" ] && ! tail -1 "$work/out.txt" | grep -q ' -$'; then
		bad "$name: text PCIE column is not '-': $(tail -1 "$work/out.txt")"
	fi
done

if [ "$count" -eq 0 ]; then
	echo "SKIP: no $FIXTURES/lspci/*.txt"
	exit 77
fi
if [ "$fail" -ne 0 ]; then
	echo "FAIL: $count captures checked"
	exit 1
fi
echo "PASS: $count captures checked"
exit 0

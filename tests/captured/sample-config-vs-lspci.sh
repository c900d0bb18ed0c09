#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Compare the config spaces of the sample hosts (tests/data/samples/) with real
# captures in $FIXTURES, using lspci itself as the decoder:
#   (a) the "Capabilities: [xx]" offsets lspci finds in each sample PF equal the
#       offsets in the real capture of the same family
#         cx5-ofed        <-> lspci/cx5-mt27800-15b3_1017-lspci-vx.txt
#         cx6dx-upstream  <-> lspci-vvv/cx6lx-pf-15b3_101f-lspci-v-unnamed-extcaps.txt
#   (b) cx5-ofed PF0's first 64 bytes equal the captured header (except 0x0e,
#       the multi-function bit of a dual-port card);
#   (c) LnkCap/LnkSta speed and width are those the sample READMEs state;
#   (d) PF1's SR-IOV decode shows "Initial VFs: 8, Total VFs: 8" and
#       "VF offset: 9, stride: 1", the pattern of
#       lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt.
# Exit 0 pass, 1 fail, 77 skip (no lspci, or no $FIXTURES).

. "$(dirname "$0")/../cli/lib.sh"
FIXTURES=${FIXTURES:-$TOP_SRCDIR/../shared/fixtures}
SAMPLES=${SAMPLES:-$TOP_SRCDIR/tests/data/samples}

need lspci
if [ ! -d "$FIXTURES" ]; then
	echo "SKIP: captured fixtures not found at $FIXTURES"
	exit 77
fi

# to_lspci_dump CONFIG SLOT NAME > FILE: the `lspci -xxxx` text format.
to_lspci_dump() {
	printf '%s Ethernet controller: %s\n' "$2" "$3"
	od -An -v -tx1 -w16 "$1" | awk '{ printf "%02x:%s\n", (NR - 1) * 16, $0 }'
	echo
}

# cap_offsets FILE: the offsets of "Capabilities: [xx]" / "[xx vN]" lines, one per line.
cap_offsets() {
	sed -n 's/^[[:space:]]*Capabilities: \[\([0-9a-f]*\).*/\1/p' "$1"
}

# expect_line FILE REGEX WHAT
expect_line() {
	if grep -E -q "$2" "$1"; then
		ok "$3"
	else
		bad "$3: no line matching '$2' in $(basename "$1")"
	fi
}

check_pf() {
	host=$1 bdf=$2 name=$3 capture=$4 lnkcap=$5 lnksta=$6
	cfg=$SAMPLES/$host/sys/bus/pci/devices/$bdf/config
	if [ ! -f "$cfg" ]; then
		bad "$cfg missing"
		return
	fi
	slot=${bdf#0000:}
	dump=$tmp/$host-$slot.hex
	out=$tmp/$host-$slot.lspci
	to_lspci_dump "$cfg" "$slot" "$name" >"$dump"
	if ! lspci -F "$dump" -vvv >"$out" 2>"$out.err"; then
		bad "lspci -F failed on $host $bdf: $(cat "$out.err")"
		return
	fi
	echo "$host $bdf (lspci -F -vvv of the sample config):"
	# (a) capability offsets
	cap_offsets "$out" >"$tmp/got"
	cap_offsets "$FIXTURES/$capture" >"$tmp/want"
	echo "  capabilities sample : $(tr '\n' ' ' <"$tmp/got")"
	echo "  capabilities capture: $(tr '\n' ' ' <"$tmp/want")($capture)"
	if [ ! -s "$tmp/want" ]; then
		bad "no capabilities found in $capture"
	elif cmp -s "$tmp/got" "$tmp/want"; then
		ok "capability offsets equal"
	else
		bad "$host $bdf capability offsets differ from $capture"
	fi
	# (c) link capability and status
	expect_line "$out" "LnkCap:.*Speed $lnkcap" "LnkCap Speed $lnkcap"
	expect_line "$out" "LnkSta:.*Speed $lnksta" "LnkSta Speed $lnksta"
	sed -n 's/^[[:space:]]*\(Lnk\(Cap\|Sta\):.*\)/  lspci: \1/p' "$out"
}

check_sriov_pf1() {
	host=$1 slot=$2
	out=$tmp/$host-$slot.lspci
	[ -f "$out" ] || return
	echo "$host $slot SR-IOV (pattern of lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt):"
	grep -E 'Initial VFs|VF offset' "$FIXTURES/lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt" |
		sed 's/^[[:space:]]*/  capture: /'
	grep -E 'Initial VFs|VF offset' "$out" | sed 's/^[[:space:]]*/  sample : /'
	expect_line "$out" "Initial VFs: 8, Total VFs: 8, Number of VFs: 0" "Initial/Total VFs 8, 0 enabled"
	expect_line "$out" "VF offset: 9, stride: 1" "PF1 VF offset 9, stride 1"
}

# (b) the captured 64-byte header, lines 00:..30: of the capture
check_header() {
	cfg=$SAMPLES/cx5-ofed/sys/bus/pci/devices/0000:5e:00.0/config
	capture=$FIXTURES/lspci/cx5-mt27800-15b3_1017-lspci-vx.txt
	grep -E '^(00|10|20|30): ' "$capture" | cut -d' ' -f2- | tr -s ' \n' '\n\n' |
		sed '/^$/d' | awk 'NR != 15' >"$tmp/hdr-want"
	od -An -v -tx1 -N64 "$cfg" | tr -s ' \n' '\n\n' | sed '/^$/d' | awk 'NR != 15' >"$tmp/hdr-got"
	echo "cx5-ofed 0000:5e:00.0 first 64 bytes vs lspci/cx5-mt27800-15b3_1017-lspci-vx.txt:"
	if [ "$(wc -l <"$tmp/hdr-want")" -ne 63 ]; then
		bad "capture header is not 64 bytes"
	elif cmp -s "$tmp/hdr-got" "$tmp/hdr-want"; then
		ok "63 bytes equal (byte 0x0e excluded: 0x$(od -An -tx1 -j14 -N1 "$cfg" | tr -d ' ') in the sample, multi-function)"
	else
		bad "header bytes differ from the capture"
		paste "$tmp/hdr-got" "$tmp/hdr-want" | awk '$1 != $2 { printf "  byte %d: sample %s capture %s\n", (NR <= 14 ? NR - 1 : NR), $1, $2 }'
	fi
}

CX5_NAME='Mellanox Technologies MT27800 Family [ConnectX-5]'
CX6DX_NAME='Mellanox Technologies MT2892 Family [ConnectX-6 Dx]'
CX5_CAPTURE=lspci/cx5-mt27800-15b3_1017-lspci-vx.txt
CX6_CAPTURE=lspci-vvv/cx6lx-pf-15b3_101f-lspci-v-unnamed-extcaps.txt

for f in "$CX5_CAPTURE" "$CX6_CAPTURE" lspci-vvv/cx7-pf1-15b3_1021-lspci-vvv.txt; do
	if [ ! -f "$FIXTURES/$f" ]; then
		echo "SKIP: $FIXTURES/$f not found"
		exit 77
	fi
done

check_pf cx5-ofed 0000:5e:00.0 "$CX5_NAME" "$CX5_CAPTURE" '8GT/s, Width x16' '8GT/s, Width x16'
check_pf cx5-ofed 0000:5e:00.1 "$CX5_NAME" "$CX5_CAPTURE" '8GT/s, Width x16' '8GT/s, Width x16'
check_pf cx6dx-upstream 0000:3b:00.0 "$CX6DX_NAME" "$CX6_CAPTURE" '16GT/s, Width x16' '16GT/s( \(downgraded\))?, Width x8'
check_pf cx6dx-upstream 0000:3b:00.1 "$CX6DX_NAME" "$CX6_CAPTURE" '16GT/s, Width x16' '16GT/s( \(downgraded\))?, Width x8'
check_header
check_sriov_pf1 cx5-ofed 5e:00.1
check_sriov_pf1 cx6dx-upstream 3b:00.1

if [ "$fail" -ne 0 ]; then
	echo "FAIL: sample config spaces disagree with the captures"
	exit 1
fi
echo "PASS: sample config spaces agree with the captures"
exit 0

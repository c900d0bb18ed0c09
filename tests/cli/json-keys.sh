#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# issue 14: one JSON vocabulary.  Every read command's -j output on both
# sample hosts (and the Prometheus labels) is held to the key registry in
# mlxcli-json(7): a key that is not there, or has another type, fails.
# The write commands with --dry-run run dry, so change records count too.
# The command list comes from the command tables (json-keys.py says how).
. "$(dirname "$0")/lib.sh"
need python3 jq

if python3 "$TOP_SRCDIR/tests/cli/json-keys.py" "$MLXCLI" "$TOP_SRCDIR/man/mlxcli-json.7" \
	>"$tmp/out" 2>&1; then
	ok "every key in mlxcli-json(7), with its type ($(tail -1 "$tmp/out"))"
else
	cat "$tmp/out" >&2
	bad "keys outside mlxcli-json(7)"
fi
# One shape for the PCIe link: devices, pci and dbg get-state give the same
# pcie object for every function (get-state once invented "unknown", 0).
for s in cx5-ofed cx6dx-upstream; do
	for c in devices "dbg get-state" pci; do
		"$MLXCLI" --sample=$s -j $c 2>/dev/null |
			jq -c '[(.devices // .pci)[] | {pci_address, pcie}]' >"$tmp/$s-${c#* }"
	done
	if cmp -s "$tmp/$s-devices" "$tmp/$s-get-state" && cmp -s "$tmp/$s-devices" "$tmp/$s-pci" &&
		[ -s "$tmp/$s-devices" ] && [ "$(cat "$tmp/$s-devices")" != '[]' ]; then
		ok "$s: devices, pci and get-state give one pcie object per function"
	else
		bad "$s: pcie differs: devices $(cat "$tmp/$s-devices") get-state $(cat "$tmp/$s-get-state") pci $(cat "$tmp/$s-pci")"
	fi
done
finish

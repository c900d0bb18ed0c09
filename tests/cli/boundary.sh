#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One kernel boundary (issue 14 point 1, issue 26): cmd/ names no sysfs,
# debugfs or /proc path and opens no socket or /dev/kmsg, handles no
# netlink message or kernel-log record (the monitor's event source is
# lib's); nothing outside lib/core asks "live or captured?" in any spelling
# (mlx_kernel_can, the MLX_KCAP_* bits, ->live, ...), lib/core includes no
# feature header, and lib/ reads no environment (tests/cli/boundary.py
# says how, and counts).
# Then the boundary at work on a captured system: `dbg restart` goes
# through its link-flags operation, whose emulator changes the capture as
# the kernel would.  Exit 0 pass, 1 fail, 77 skip.
. "$(dirname "$0")/lib.sh"
need python3 jq

if python3 "$TOP_SRCDIR/tests/cli/boundary.py" "$TOP_SRCDIR" >"$tmp/out" 2>&1; then
	grep PENDING "$tmp/out" | sed 's/^/note: /'
else
	cat "$tmp/out"
	bad "kernel boundary crossed"
fi

# restart a port of the sample host: flags lose and regain IFF_UP, and
# operstate is what the kernel makes of it.  Planted first: an operstate
# the emulator must recompute (up: the carrier is 1), so a restart that
# did nothing is seen.
O="$MLXCLI --sample=cx5-ofed"
P0=enp94s0f0np0
NET=$MLXCLI_STATE_DIR/samples/cx5-ofed/sys/class/net/$P0
$O devices >/dev/null || bad "sample working copy"
echo unknown >"$NET/operstate"
$O -j dbg restart $P0 --yes >"$tmp/r" 2>"$tmp/e" && [ "$(jq -r .netdev "$tmp/r")" = $P0 ] &&
	[ "$(cat "$NET/operstate")" = up ] && [ $(($(cat "$NET/flags") & 1)) -eq 1 ] &&
	ok "dbg restart on a captured system: flags and operstate as the kernel leaves them" ||
	bad "dbg restart: $(cat "$tmp/e") operstate=$(cat "$NET/operstate" 2>&1) flags=$(cat "$NET/flags" 2>&1)"
[ "$($O -j dbg pddrinfo -d $P0 | jq -r '.ports[0].operstate')" = up ] &&
	ok "pddrinfo reads the operstate back through lib" || bad "pddrinfo operstate"
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mlxcli on the live machine, which has no ConnectX adapter (the test skips
# when it has one: its expectations would not hold).  The real code path
# against the real /sys and libpci:
#   - `devices` and `ports` exit 0 and say "no ConnectX device was found"
#     on stderr with the number of other PCI functions ignored, which must
#     equal what lspci -D counts (other devices are seen and ignored);
#   - `-j devices` prints exactly {"schema_version":3,"devices":[]} and
#     says "no ConnectX device was found" on stderr, as in text;
#   - `-d 0000:99:00.0 devices` and `-d enp1s0 ports` exit 3;
#   - the same as a non-root user (setpriv to 65534 when root; skipped
#     otherwise: then the whole test already runs unprivileged).
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
if [ ! -d /sys/bus/pci/devices ]; then
	echo "SKIP: no /sys/bus/pci/devices on this machine"
	exit 77
fi
need jq
need_no_connectx
chmod 0755 "$tmp"
npci=$(ls /sys/bus/pci/devices | wc -l)
if command -v lspci >/dev/null 2>&1; then
	nlspci=$(lspci -D | wc -l)
	echo "lspci -D lists $nlspci PCI functions, /sys/bus/pci/devices $npci"
	[ "$nlspci" -eq "$npci" ] || echo "  (lspci and sysfs disagree; using sysfs)"
	[ "$nlspci" -gt 0 ] || echo "  note: no PCI functions at all here"
fi

# mlx ARGS: mlxcli ARGS as $who
mlx() {
	if [ "$who" = "uid 65534" ]; then as_nobody "$NOBODY_MLXCLI" "$@"; else "$MLXCLI" "$@"; fi
}

# checks WHO: the expectations, run as WHO
checks() {
	who=$1
	echo "== as $who"
	mlx devices >"$tmp/out" 2>"$tmp/err"
	rc=$?
	want="mlxcli: no ConnectX device was found ($npci other PCI function"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && grep -F -q "$want" "$tmp/err"; then
		ok "devices: exit 0, stdout empty, $(head -1 "$tmp/err")"
	else
		bad "$who devices: exit $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")', want '$want'"
	fi
	mlx ports >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ ! -s "$tmp/out" ] && grep -F -q "no ConnectX device was found" "$tmp/err" &&
		ok "ports: exit 0, nothing found" || bad "$who ports: exit $rc $(cat "$tmp/err")"
	mlx -j devices >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = '{"schema_version":3,"devices":[]}' ] &&
	   grep -F -q "no ConnectX device was found" "$tmp/err"; then
		ok "-j devices: $(cat "$tmp/out")"
	else
		bad "$who -j devices: exit $rc, '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")'"
	fi
	mlx -j ports >"$tmp/out" 2>/dev/null
	[ "$(cat "$tmp/out")" = '{"schema_version":3,"ports":[]}' ] || bad "$who -j ports: $(cat "$tmp/out")"
	mlx -d 0000:99:00.0 devices >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] && grep -q "no ConnectX device '0000:99:00.0'" "$tmp/err" &&
		ok "-d 0000:99:00.0 devices: exit 3" || bad "$who -d 0000:99:00.0: exit $rc $(cat "$tmp/err")"
	mlx -d enp1s0 ports >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 3 ] && grep -q "none was found on this system" "$tmp/err" &&
		ok "-d enp1s0 ports: exit 3" || bad "$who -d enp1s0: exit $rc $(cat "$tmp/err")"
	# an existing PCI function that is not ConnectX is not selectable either
	first=$(ls /sys/bus/pci/devices | head -1)
	if [ -n "$first" ]; then
		mlx -d "$first" devices >/dev/null 2>&1
		rc=$?
		[ "$rc" -eq 3 ] && ok "-d $first (not ConnectX): exit 3" || bad "$who -d $first: exit $rc"
	fi
	# bad input is still bad input
	mlx -d ../x devices >/dev/null 2>&1
	[ $? -eq 2 ] || bad "$who -d ../x: not exit 2"
}

checks "$(id -un 2>/dev/null || id -u)"
if [ "$(id -u)" -eq 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		chmod 0777 "$MLXCLI_STATE_DIR"
		priv_setup
		checks "uid 65534"
	else
		echo "skipped the non-root part: setpriv not installed"
	fi
else
	echo "skipped the setpriv part: not root (this run was unprivileged already)"
fi

finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dump-me-now and dbg on the live machine, which has no ConnectX (skips
# when it has one):
#   - `dump-me-now` exits 3 and creates no dump root;
#   - `dbg mstdump -d 0000:99:00.0` exits 3 (5 when not root: it needs root
#     before anything); `dbg pddrinfo` exits 0 and says no ConnectX device was found
#     (a read of every device: mlxcli(8) EXIT STATUS);
#   - with --sample as a non-root user (setpriv to 65534 when root; as is
#     otherwise) it works, and the parts that need root (the CR space) are
#     marked unavailable with a "permission" reason in the manifest;
#   - `dbg restart` without --yes and without a TTY refuses (exit 2).
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq
[ -d /sys/bus/pci/devices ] || { echo "SKIP: no /sys/bus/pci/devices"; exit 77; }
need_no_connectx
chmod 0755 "$tmp"
MLXCLI_CONFIG=/nonexistent
export MLXCLI_CONFIG

"$MLXCLI" dump-me-now --dir "$tmp/live" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && [ ! -e "$tmp/live" ] && [ ! -s "$tmp/out" ] && ok "no ConnectX: exit 3, $(head -1 "$tmp/err")" ||
	bad "no ConnectX: exit $rc"
"$MLXCLI" dbg mstdump -d 0000:99:00.0 >/dev/null 2>&1
rc=$?
# not root: refused before the device is looked for (CMD_NEEDS_ROOT)
want=3
[ "$(id -u)" -eq 0 ] || want=5
[ $rc -eq $want ] && ok "mstdump of a missing device: exit $want" || bad "mstdump missing device: exit $rc"
"$MLXCLI" dbg pddrinfo >/dev/null 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "no ConnectX device was found" "$tmp/err" && ok "pddrinfo with no ConnectX: exit 0" ||
	bad "pddrinfo: $(cat "$tmp/err")"
"$MLXCLI" --sample dbg mstdump -d 5e:00.0 >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && grep -q 'live device' "$tmp/err" && ok "mstdump on a sample: exit 4" || bad "mstdump sample: $(cat "$tmp/err")"
"$MLXCLI" --sample dbg restart enp94s0f0np0 </dev/null >/dev/null 2>"$tmp/err"
rc=$?
# a sample is restarted by its emulator (tests/cli/boundary.sh), so it asks
# first, as the live system does: no terminal, no --yes, exit 2
[ "$rc" -eq 2 ] && grep -q 'confirm with --yes' "$tmp/err" && ok "restart on a sample without --yes: exit 2" ||
	bad "restart sample: exit $rc $(cat "$tmp/err")"

bin=$MLXCLI
user() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	need setpriv
	# The working copy is made (and owned) by root, as the files of a
	# live system are; nobody reads it and writes its own dump root.
	"$MLXCLI" --sample devices >/dev/null 2>&1
	chmod 755 "$MLXCLI_STATE_DIR" "$MLXCLI_STATE_DIR/samples"
	mkdir "$tmp/dmn" && chown 65534:65534 "$tmp/dmn"
	priv_setup cx5-ofed
	bin=$NOBODY_MLXCLI
	user() { as_nobody "$@"; }
fi
user env MLXCLI_STATE_DIR="$MLXCLI_STATE_DIR" MLXCLI_CONFIG=/nonexistent "$bin" --sample -j dump-me-now -d 5e:00.0 --dir "$tmp/dmn/root" >"$tmp/out.json" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 0 ]; then
	ok "--sample as uid $(user id -u): exit 0"
	jq -r '.incidents[0].items[] | "    \(.name): \(.result) \(.reason // "")"' "$tmp/out.json"
	[ "$(jq -r '.incidents[0].items[0].result' "$tmp/out.json")" = unavailable ] &&
		jq -r '.incidents[0].items[0].reason' "$tmp/out.json" | grep -q '^permission' &&
		ok "crspace: unavailable (permission)" || bad "crspace not marked permission"
	[ "$(jq -r '.incidents[0].items[] | select(.name == "dcqcn.json") | .result' "$tmp/out.json")" = ok ] ||
		bad "dcqcn.json not ok"
	p=$(jq -r '.incidents[0].path' "$tmp/out.json")
	[ -f "$p/manifest.json" ] && [ "$(stat -c %u "$p")" != 0 ] && ok "folder owned by the user" || bad "folder $p"
else
	bad "--sample as non-root: exit $rc: $(cat "$tmp/err")"
fi
finish

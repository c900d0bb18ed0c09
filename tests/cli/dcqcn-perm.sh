#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# DCQCN as a non-root user (setpriv to nobody when run as root, else the
# calling user; skip when root has no setpriv):
#   - OFED sysfs (mode 0644): get works; set fails with exit 5 and changes
#     nothing;
#   - upstream debugfs cc_params (mode 0600, root only): get is exit 5 with a
#     "run as root" hint, never an empty table.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" = 0 ]; then
	if ! command -v setpriv >/dev/null 2>&1; then
		echo "SKIP: running as root without setpriv"
		exit 77
	fi
	priv_setup cx5-ofed cx6dx-upstream
	as_user() { as_nobody "$NOBODY_MLXCLI" "$@"; }
else
	as_user() { "$MLXCLI" "$@"; }
fi

chmod 755 "$MLXCLI_STATE_DIR" "$tmp"

# The working copies are made (and owned) by the calling user, as files of a
# live system are owned by root.
"$MLXCLI" --sample=cx5-ofed qosconfig dcqcn get >"$tmp/root.txt" || bad "get as the owner"
"$MLXCLI" --sample=cx6dx-upstream qosconfig dcqcn get >/dev/null || bad "get as the owner (upstream)"
chmod 755 "$MLXCLI_STATE_DIR/samples"    # made 0700 for its owner
# A no-op set as the owner (the lock is in the user's runtime directory).
"$MLXCLI" --sample=cx5-ofed qosconfig dcqcn set -d enp94s0f0np0 DcqcnRpgAiRate 5 >/dev/null ||
	bad "no-op set as the owner"
# git keeps no file modes but 0644/0755, so a fresh checkout's cc_params
# files are world-readable; debugfs makes them 0600 (drivers/infiniband/hw/
# mlx5/cong.c), so give the working copy the kernel's modes.
find "$MLXCLI_STATE_DIR" -type f -path '*cc_params*' -exec chmod 0600 {} +
if [ "$(id -u)" != 0 ]; then
	# Not root: take write permission away, as sysfs does for others.
	find "$MLXCLI_STATE_DIR" -type f -path '*ecn*' -exec chmod a-w {} +
	find "$MLXCLI_STATE_DIR" -type f -path '*cc_params*' -exec chmod 0000 {} +
fi

as_user --sample=cx5-ofed qosconfig dcqcn get >"$tmp/user.txt" 2>"$tmp/e"
rc=$?
[ $rc -eq 0 ] && cmp -s "$tmp/root.txt" "$tmp/user.txt" && ok "OFED get as non-root" ||
	bad "OFED get as non-root: exit $rc: $(cat "$tmp/e")"

as_user --sample=cx5-ofed qosconfig dcqcn set -d enp94s0f0np0 DcqcnRpgAiRate 20 \
	DcqcnCnpDscp 26 >"$tmp/o" 2>"$tmp/e"
rc=$?
"$MLXCLI" --sample=cx5-ofed qosconfig dcqcn get >"$tmp/after.txt"
[ $rc -eq 5 ] && cmp -s "$tmp/root.txt" "$tmp/after.txt" && [ ! -s "$tmp/o" ] &&
	grep -q "rpg_ai_rate': Permission denied; nothing was changed" "$tmp/e" && ok "OFED set as non-root: exit 5, nothing changed" ||
	bad "OFED set as non-root: exit $rc: $(cat "$tmp/e")"

as_user --sample=cx6dx-upstream qosconfig dcqcn get >"$tmp/o" 2>"$tmp/e"
rc=$?
[ $rc -eq 5 ] && [ ! -s "$tmp/o" ] && grep -q 'run as root' "$tmp/e" &&
	ok "upstream get as non-root: exit 5" || bad "upstream get as non-root: exit $rc: $(cat "$tmp/e")"

exit $fail

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The DCB netlink path against the real kernel (issue 4), in a private
# network namespace: a veth has no dcbnl_ops, so the kernel answers
# RTM_GETDCB/RTM_SETDCB with EOPNOTSUPP (net/dcb/dcbnl.c dcb_doit):
#   - every QoS command on the veth: exit 4, "not supported by this driver",
#     and nothing changes (the veth's link state is untouched);
#   - a nonexistent interface: exit 3;
#   - as an unprivileged user (setpriv 65534): reads get the kernel's answer
#     (exit 4 on the veth), writes exit 5 before anything is sent.
# Root only (77 otherwise).  Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need_root
chmod 755 "$tmp"
make_netns mlxcli-qos
make_veth qv0 qv1
before=$(nsx ip -o link show qv0)

for c in "show qos" "qosconfig show" "qosconfig trust dscp" "qosconfig dscp2prio set 26 3" \
	"qosconfig dscp2prio flush" "qosconfig pfc 3" "qosconfig ets prio-tc 0:1" "qosconfig tc-bw 3 1000" \
	"qosconfig buffer prio-buffer 3:1" "qosconfig dcbx host"; do
	# shellcheck disable=SC2086
	nsx "$MLXCLI" $c -d qv0 >"$tmp/o" 2>"$tmp/e"; rc=$?
	[ $rc -eq 4 ] && grep -q 'not supported by this driver' "$tmp/e" || bad "'$c' on a veth: exit $rc: $(cat "$tmp/e")"
done
nsx "$MLXCLI" modify tc-bw qv0 3 1000 >/dev/null 2>&1; [ $? -eq 4 ] || bad "modify tc-bw on a veth"
[ "$(nsx ip -o link show qv0)" = "$before" ] && ok "veth: every QoS command exit 4, nothing changed" || bad "veth changed"
nsx "$MLXCLI" show qos -d qv0 -j >"$tmp/o" 2>/dev/null; [ ! -s "$tmp/o" ] || jq . "$tmp/o" >/dev/null 2>&1 || bad "JSON on failure is not valid"

nsx "$MLXCLI" show qos -d nosuch0 >/dev/null 2>&1; rc=$?
[ $rc -eq 3 ] && ok "nonexistent interface: exit 3" || bad "nonexistent interface: exit $rc"

if command -v setpriv >/dev/null 2>&1; then
	priv_setup
	U() { nsx_nobody "$NOBODY_MLXCLI" "$@"; }
	U show qos -d qv0 >/dev/null 2>"$tmp/e"; rc=$?
	[ $rc -eq 4 ] && ok "non-root read reaches the kernel (exit 4 on a veth)" || bad "non-root read: exit $rc $(cat "$tmp/e")"
	U qosconfig pfc 3 -d qv0 >/dev/null 2>"$tmp/e"; rc=$?
	[ $rc -eq 5 ] && grep -q 'permission denied' "$tmp/e" && ok "non-root write: exit 5" || bad "non-root write: exit $rc $(cat "$tmp/e")"
	U qosconfig pfc 3 -d nosuch0 >/dev/null 2>&1; rc=$?
	[ $rc -eq 5 ] || [ $rc -eq 3 ] || bad "non-root write to a missing interface: exit $rc"
else
	echo "  skip: no setpriv"
fi
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Privilege (DESIGN.md "Writes": read commands work without root wherever
# the kernel allows; a write without privilege is a clear exit 5, never a
# crash or a half-write).  A copy of a sample host owned by root with the
# kernel's modes (sysfs files 0644, dirs 0755, debugfs 0700/0600), and
# every command run as nobody (setpriv) with --sysroot on it:
#   - R (read): exit 0 with data on stdout, or exit 5 with a message;
#   - W (write): exit 5 with "permission" in the message and the tree
#     unchanged (checksum of every file);
# and on the live system, a command the table says needs root (mstdump,
# sriov set numvfs) is exit 5 before anything is done, its dry run not.
# The table below lists every command; it is checked against the command
# tables (`mlxcli help`, walked group by group), so a new command without
# a row fails this test.  Root only; exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (to drop to nobody)"; exit 77; }
need setpriv
MLXCLI_REAL=${MLXCLI_REAL:-$MLXCLI}
priv_setup
chmod 755 "$tmp"
# apply's example state, where nobody can read it (the checkout may sit in
# root's 0700 home)
cp "$TOP_SRCDIR/contrib/state/roce-lossless.json" "$PRIV/" && chmod a+r "$PRIV/roce-lossless.json" ||
	exit 1
n=0

P0=enp94s0f0np0
# kind|command words (as in the help tables)|the arguments to run it with
cat >"$tmp/table" <<EOF
R|devices|devices
R|ports|ports
R|show devices|show devices
R|show ports|show ports
R|show qos|show qos
R|show perfstats|show perfstats
R|qosconfig show|qosconfig show
R|qosconfig dcqcn get|qosconfig dcqcn get
R|qosconfig dcqcn describe|qosconfig dcqcn describe
W|qosconfig dcqcn set|qosconfig dcqcn set -d $P0 DcqcnRpgAiRate 20
W|qosconfig dcqcn enable|qosconfig dcqcn enable 5 -d $P0
W|qosconfig dcqcn disable|qosconfig dcqcn disable 3 -d $P0
R|qosconfig dcqcn defaults|qosconfig dcqcn defaults -d $P0
W|qosconfig dcqcn restore|qosconfig dcqcn restore -d $P0
X|qosconfig default-untagged-priority get|qosconfig default-untagged-priority get
X|qosconfig default-untagged-priority set|qosconfig default-untagged-priority set 3 -d $P0
W|qosconfig trust|qosconfig trust pcp -d $P0
W|qosconfig dscp2prio|qosconfig dscp2prio set 26 5 -d $P0
W|qosconfig pfc|qosconfig pfc 3,4 -d $P0
W|qosconfig ets|qosconfig ets prio-tc 3:1 -d $P0
W|qosconfig tc-bw|qosconfig tc-bw 0 1000 -d $P0
W|qosconfig buffer|qosconfig buffer prio-buffer 3:0 -d $P0
W|qosconfig dcbx|qosconfig dcbx firmware -d $P0
R|sriov show|sriov show
W|sriov set numvfs|sriov set numvfs 2 --yes -d 5e:00.0
W|sriov vf|sriov vf 0 set vlan 10 -d $P0
W|sriov eswitch|sriov eswitch switchdev -d 5e:00.0
R|fw|fw
R|fw query|fw query
R|pci|pci
R|module|module
R|link|link
R|link show|link show
W|link set|link set -d $P0 fec rs
R|health show|health show
R|health diagnose|health diagnose -d 5e:00.0 tx
W|health set|health set -d 5e:00.0 tx grace_period 1000
X|health recover|health recover -d 5e:00.0 tx --yes
X|health clear|health clear -d 5e:00.0 fw
R|health dump|-
R|fw flash|-
R|fw activate|fw activate -d 5e:00.0 --yes
R|show selfhealing port|show selfhealing port
R|pci show|pci show
R|params show|params show
R|params info|params info
R|params regkeys|params regkeys --dynamic
R|params features|params features
W|params set|params set -d $P0 tx_ring=2048
W|params reset|params reset -d $P0 rx_ring
R|show regkeys config|show regkeys config
R|show regkeys diff|show regkeys diff $P0
R|show regkeys info|show regkeys info
R|show driverparams|show driverparams $P0
W|modify driverparams|modify driverparams $P0 tx_ring=4096
W|modify tc-bw|modify tc-bw $P0 0 500
R|counters|counters
R|counters show|counters show
R|counters watch|counters watch --count 1 --interval 0.1
R|top|-
R|counters cc|counters cc
R|counters prio|counters prio
R|counters errors|counters errors
R|state|state
R|diff|-
W|apply|apply $PRIV/roce-lossless.json
R|recover|recover
R|snapshot|-
R|dump-me-now|-
R|dump-me-now list|-
R|dump-me-now show|-
R|dump-me-now verify|-
R|dbg mstdump|-
R|dbg dump-me-now|-
R|dbg get-state|dbg get-state
W|dbg restart|dbg restart $P0 --yes
R|dbg pddrinfo|dbg pddrinfo
R|dbg resources|dbg resources
R|rdma|rdma
R|rdma show|rdma show
R|rdma qp|rdma qp --errors
R|rdma cm-id|rdma cm-id
R|rdma cq|rdma cq
R|rdma mr|rdma mr
R|rdma pd|rdma pd
R|rdma ctx|rdma ctx
R|rdma srq|rdma srq
R|rdma gids|rdma gids
R|rdma stats|rdma stats
R|show nd connections|show nd connections -e
R|vxlan|vxlan
R|show vxlan|show vxlan
R|packet-filter|packet-filter
R|show packet-filter|show packet-filter
R|irq|irq --table
R|ipoib show|ipoib show -j
R|ipoib pkeys|ipoib pkeys -j
R|ipoib endpoints|ipoib endpoints -j
R|dbg pkeys|dbg pkeys -j
R|dbg ipoib-ep|dbg ipoib-ep -j
X|ipoib add|ipoib add -d $P0 2
X|ipoib del|ipoib del -d $P0 2 --yes
R|vlan show|vlan show -j
W|vlan add|vlan add -d $P0 200 name v200
W|vlan del|vlan del -d $P0 100 --yes
R|dropless|dropless
X|dbg cmd-stats|dbg cmd-stats
R|dbg sw-reset|-
R|sample list|-
R|sample reset|-
R|monitor|monitor --catalogue
R|help|help
R|shell|-
EOF
# A W row must change something: a no-op write (the value already set)
# writes nothing, so it needs no privilege and exits 0.  The locks of a
# captured system are in the user's runtime directory, not in the tree.
# "-": not run here (needs the live system, writes outside the tree, or is
# interactive; covered by their own tests).  X: the write is not supported
# on this driver or this capture (exit 4: no APP default priority in mlx5,
# no debugfs in the MLNX_OFED sample; a health recovery, a dump cleared or
# a dump cleared on a captured system), before any privilege matters.
# fw activate finds the stored firmware running on the sample: nothing to
# write, so it is an R row (a no-op needs no privilege).
# health dump takes a dump when none is held and fw flash needs an MFA2
# image: both live only (tests/vm/guest/nsim-lifecycle.sh).

# Walk the tables: every leaf command of `mlxcli help`.
leaves() {   # $1: the group words ("" for the top)
	# shellcheck disable=SC2086
	"$MLXCLI_REAL" help $1 2>/dev/null | sed -n '/^commands:/,/^$/p' | grep -E '^  [a-z]' |
		awk '{print $1}' | while read -r c; do
		w=${1:+$1 }$c
		# shellcheck disable=SC2086
		if "$MLXCLI_REAL" help $w 2>/dev/null | grep -q '^commands:'; then
			leaves "$w"
		else
			echo "$w"
		fi
	done
}
leaves "" | sort -u >"$tmp/walked"
cut -d'|' -f2 "$tmp/table" | sort -u >"$tmp/listed"
missing=$(comm -23 "$tmp/walked" "$tmp/listed")
[ -z "$missing" ] && ok "the table lists all $(wc -l <"$tmp/walked") commands of mlxcli help" ||
	bad "commands without a row in privilege.sh: $(echo "$missing" | tr '\n' ',')"

# The root-owned host with sysfs-like modes.
host=$tmp/host
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$host"
# The sample ships the firmware's factory DCQCN values, so restore would be
# a no-op that needs no privilege: move one away from its default first.
"$MLXCLI_REAL" --sysroot "$host" qosconfig dcqcn set -d $P0 DcqcnRpgHaiRate 77 >/dev/null ||
	bad "as root: dcqcn set DcqcnRpgHaiRate 77 on the copy"
chown -R root:root "$host"
find "$host" -type d -exec chmod 0755 {} +
find "$host" -type f -exec chmod 0644 {} +
if [ -d "$host/sys/kernel/debug" ]; then
	find "$host/sys/kernel/debug" -type d -exec chmod 0700 {} +
	find "$host/sys/kernel/debug" -type f -exec chmod 0600 {} +
fi
before=$(tree_sum "$host" ! -name '*.lock')

on_host() {
	as_nobody env -u MLXCLI_STATE_DIR HOME=/nonexistent "$NOBODY_MLXCLI" --sysroot "$host" "$@"
}

while IFS='|' read -r kind words args; do
	[ "$args" = - ] && continue
	n=$((n + 1))
	# shellcheck disable=SC2086
	on_host $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ge 128 ]; then
		bad "$words: killed by signal $((rc - 128))"
		continue
	fi
	case $kind in
	R)
		if [ "$rc" -eq 0 ] && [ -s "$tmp/out" ]; then
			ok "$words as nobody: data"
		elif [ "$rc" -eq 5 ] && grep -q '^mlxcli: error: ' "$tmp/err"; then
			ok "$words as nobody: exit 5 ($(head -1 "$tmp/err" | cut -c1-80))"
		else
			bad "$words as nobody: exit $rc: $(head -c 300 "$tmp/err")"
		fi ;;
	W)
		if [ "$rc" -eq 5 ] && grep -q -i 'permission\|root' "$tmp/err"; then
			ok "$words as nobody: exit 5"
		else
			bad "$words as nobody: exit $rc, want 5: $(head -c 300 "$tmp/err")"
		fi
		[ "$(tree_sum "$host" ! -name '*.lock')" = "$before" ] ||
			{ bad "$words as nobody changed the tree"; before=$(tree_sum "$host" ! -name '*.lock'); } ;;
	X)
		[ "$rc" -eq 4 ] || [ "$rc" -eq 5 ] && ok "$words as nobody: exit $rc" ||
			bad "$words as nobody: exit $rc: $(head -c 300 "$tmp/err")" ;;
	esac
done <"$tmp/table"
[ "$(tree_sum "$host" ! -name '*.lock')" = "$before" ] && ok "tree unchanged after $n commands as nobody" ||
	bad "the tree changed"

# The live system: a command only root may run there (CMD_NEEDS_ROOT:
# config-space writes, sriov_numvfs) is exit 5 before it does anything,
# even before it looks for the device; its dry run writes nothing and goes
# on.  A VF's settings need CAP_NET_ADMIN, not root: the kernel's own
# check decides (here: no such device).
live_case() {   # WANT WHAT ARGS...
	want=$1 what=$2
	shift 2
	as_nobody env -u MLXCLI_STATE_DIR HOME=/nonexistent "$NOBODY_MLXCLI" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$want" ] && { [ "$want" != 5 ] || grep -q "^mlxcli: error: 'mlxcli .*' needs root" "$tmp/err"; }; then
		ok "live, as nobody: $what: exit $rc"
	else
		bad "live, as nobody: $what: exit $rc, want $want: $(head -c 300 "$tmp/err")"
	fi
}
NODEV=0000:99:00.0
live_case 5 "dbg mstdump" dbg mstdump -d $NODEV
live_case 5 "sriov set numvfs" sriov set numvfs 2 --yes -d $NODEV
live_case 3 "sriov set numvfs --dry-run" sriov set numvfs 2 --yes --dry-run -d $NODEV
live_case 3 "sriov vf set" sriov vf 0 set vlan 10 -d $NODEV
exit $fail

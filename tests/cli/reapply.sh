#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Apply again when a ConnectX netdev is added (issue 19): the udev rule
# etc/90-mlxcli-reapply.rules and the unit it starts, mlxcli-reapply.service.
#  - the rule, read by tests/cli/udev-rule.py (udev(7)'s syntax for the
#    keys it uses; Debian 12's udevadm has no verify, and cannot run rules on
#    a captured /sys), on the sample hosts' interfaces: on add, every
#    mlx5_core netdev (PFs and VFs) wants mlxcli-reapply.service, tagged for
#    systemd; another NIC's (igb) and lo do not; on change or remove nothing;
#  - a rule the reader does not understand is refused (it cannot pass by
#    ignoring what it does not know);
#  - the unit: systemd-analyze verify, the boot unit's ExecStart, ordered
#    after it, only when it is enabled, no [Install] (udev starts it);
#  - make install puts the rule in udevrulesdir and the unit beside the
#    boot unit.
set -u
. "$(dirname "$0")/lib.sh"
need python3
rule=$TOP_SRCDIR/etc/90-mlxcli-reapply.rules
reader() { python3 "$TOP_SRCDIR/tests/cli/udev-rule.py" "$@"; }
W="TAGS=systemd SYSTEMD_WANTS=mlxcli-reapply.service"

check "cx5-ofed, add: the mlx5 PFs and VFs want the unit, igb and lo do not" \
	"$(reader "$rule" "$MLXCLI_SAMPLES_DIR/cx5-ofed" add)" "eno1 -
enp94s0f0np0 $W
enp94s0f1np1 $W
enp94s0f2 $W
enp94s0f3 $W
enp94s0f4 $W
enp94s0f5 $W
lo -"
check "cx6dx-upstream, add" "$(reader "$rule" "$MLXCLI_SAMPLES_DIR/cx6dx-upstream" add)" "eno1 -
enp59s0f0np0 $W
enp59s0f1np1 $W
lo -"
for a in change remove move; do
	check "cx5-ofed, $a: nothing" "$(reader "$rule" "$MLXCLI_SAMPLES_DIR/cx5-ofed" $a | grep -v ' -$')" ""
done
printf 'ACTION=="add", SUBSYSTEMS=="pci", RUN+="/bin/true"\n' >"$tmp/other.rules"
reader "$tmp/other.rules" "$MLXCLI_SAMPLES_DIR/cx5-ofed" add >"$tmp/o" 2>"$tmp/e"
check "a key the reader does not know: refused" "$?" 1
printf 'ACTION=="add" SUBSYSTEM=="net"\n' >"$tmp/other.rules"
reader "$tmp/other.rules" "$MLXCLI_SAMPLES_DIR/cx5-ofed" add >"$tmp/o" 2>"$tmp/e"
check "a missing comma: refused" "$?" 1

unit=$TOP_BUILDDIR/etc/mlxcli-reapply.service
boot=$TOP_BUILDDIR/etc/mlxcli-apply.service
check "the unit applies what the boot unit applies" "$(grep '^ExecStart=' "$unit")" "$(grep '^ExecStart=' "$boot")"
check "after the boot unit, only when it is enabled" \
	"$(grep -E '^(After|ExecCondition)=' "$unit" | tr '\n' ' ')" \
	"After=mlxcli-apply.service ExecCondition=systemctl -q is-enabled mlxcli-apply.service "
check "not enabled itself: no [Install]" "$(grep -c '^\[Install\]' "$unit")" 0
if command -v systemd-analyze >/dev/null 2>&1; then
	sed "s|^ExecStart=[^ ]*|ExecStart=$MLXCLI_REAL|" "$unit" >"$tmp/mlxcli-reapply.service"
	cp "$boot" "$tmp/mlxcli-apply.service"
	if systemd-analyze verify "$tmp/mlxcli-reapply.service" 2>&1 | grep -v "man mlxcli-state" | grep -q .; then
		bad "systemd-analyze verify: $(systemd-analyze verify "$tmp/mlxcli-reapply.service" 2>&1)"
	else
		ok "the unit verifies"
	fi
else
	echo "# SKIP systemd-analyze verify: not installed"
fi

# make install: the two install targets of these files, into a DESTDIR
if command -v make >/dev/null 2>&1 && [ -f "$TOP_BUILDDIR/Makefile" ]; then
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP_BUILDDIR" DESTDIR="$tmp/inst" \
		install-dist_udevrulesDATA install-systemdunitDATA >"$tmp/inst.out" 2>&1 || bad "make install: $(cat "$tmp/inst.out")"
	check "make install: the rule under lib/udev/rules.d, the unit under lib/systemd/system" \
		"$(cd "$tmp/inst" && find . -type f | sed 's|.*/lib/|lib/|' | grep reapply | sort | tr '\n' ' ')" \
		"lib/systemd/system/mlxcli-reapply.service lib/udev/rules.d/90-mlxcli-reapply.rules "
	cmp -s "$rule" "$(find "$tmp/inst" -name 90-mlxcli-reapply.rules)" && ok "make install: the rule as shipped" || bad "installed rule differs"
fi
finish

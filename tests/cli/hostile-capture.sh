#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The hostile-capture generator (issue 29, tests/cli/hostile-capture.py):
# links out of the capture, FIFOs, device nodes, garbage, huge, empty and
# unreadable files at every level of the trees mlxcli reads and its
# emulators change; reads and writes with openat2, with its fallback
# forced (the fault shim's MLXCLI_NO_OPENAT2) and under valgrind.  Nothing
# may hang, crash, change anything outside the capture, or leave a failed
# write half done.
. "$(dirname "$0")/lib.sh"
need python3 setpriv
shim=${TOP_BUILDDIR:-.}/tests/fault/fault-shim.so
[ -f "$shim" ] || { echo "SKIP: $shim not built (make check builds it)"; exit 77; }
# the pristine tree the variants are hard-linked from: a private copy, so
# that a write in place (which the test looks for) cannot reach the sample
cp -a "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/pristine" && chmod -R u+w "$tmp/pristine" || exit 1
vg=
# valgrind's pass: not when the whole cli tier already runs under it
# (check-valgrind wraps $MLXCLI), where every run is one and the
# generator runs the emulators' trees only
if [ "$MLXCLI" != "${MLXCLI_REAL:-$MLXCLI}" ]; then
	HOSTILE_WRAPPED=1
	export HOSTILE_WRAPPED
elif grep -q __asan_init "$MLXCLI" 2>/dev/null; then
	# a sanitizer build: ASan watches every run, and valgrind cannot run it
	echo "  (a sanitizer build: no valgrind pass)"
elif command -v valgrind >/dev/null 2>&1; then
	vg=$(command -v valgrind)
fi
# a sanitizer build's runtime wants to be first; the shim has none
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS
if [ "$(id -u)" = 0 ]; then
	priv_setup
	mkdir -m 755 "$PRIV/work"
	HOSTILE_NOBODY=1 HOSTILE_NOBODY_MLXCLI=$NOBODY_MLXCLI HOSTILE_NOBODY_WORK=$PRIV/work
	export HOSTILE_NOBODY HOSTILE_NOBODY_MLXCLI HOSTILE_NOBODY_WORK
fi
mkdir "$tmp/work"
if python3 "$TOP_SRCDIR/tests/cli/hostile-capture.py" "$MLXCLI" "$tmp/pristine" "$tmp/work" \
	"$shim" $vg >"$tmp/report" 2>&1; then
	grep '^not run' "$tmp/report"
	ok "$(tail -n 1 "$tmp/report")"
else
	cat "$tmp/report"
	bad "hostile captures"
fi
chmod -R u+rwx "$tmp/work" 2>/dev/null
[ -n "$PRIV" ] && chmod -R u+rwx "$PRIV" 2>/dev/null
finish

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where --sample finds the sample hosts (cmd/sample.c samples_dir()):
#   - the binary in the build tree it was built in, MLXCLI_SAMPLES_DIR unset
#     (the README's "build by hand" path: ./configure && make &&
#     ./mlxcli --sample devices): the source tree's tests/data/samples;
#   - a copy of that binary elsewhere (an installed one): $(pkgdatadir);
#   - a bogus MLXCLI_SAMPLES_DIR: exit 2, the message names the directory
#     it looked in and says how to point elsewhere.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"

run with-env --sample devices
want=$(cat "$tmp/with-env.out")
[ "$rc" -eq 0 ] && [ -n "$want" ] || bad "--sample devices with MLXCLI_SAMPLES_DIR: exit $rc"

env -u MLXCLI_SAMPLES_DIR "$MLXCLI" --sample devices >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$tmp/out")" = "$want" ] &&
	ok "the uninstalled binary finds its source tree's samples" ||
	bad "MLXCLI_SAMPLES_DIR unset: exit $rc: $(cat "$tmp/err")"

env MLXCLI_SAMPLES_DIR="$tmp/nosuch" "$MLXCLI" --sample devices >"$tmp/bogus.out" 2>"$tmp/bogus.err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$tmp/bogus.out" ] &&
	grep -q "no sample host 'cx5-ofed' in $tmp/nosuch (from MLXCLI_SAMPLES_DIR)" "$tmp/bogus.err" &&
	grep -q "hint: .*MLXCLI_SAMPLES_DIR" "$tmp/bogus.err" &&
	ok "a bogus MLXCLI_SAMPLES_DIR: exit 2, says where it looked and how to point elsewhere" ||
	bad "bogus MLXCLI_SAMPLES_DIR: exit $rc: $(cat "$tmp/bogus.err")"

# A copy elsewhere is not the build tree's binary: the installed samples.
cp "${MLXCLI_REAL:-$MLXCLI}" "$tmp/mlxcli"
env -u MLXCLI_SAMPLES_DIR "$tmp/mlxcli" --sample=nosuch devices >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no sample host 'nosuch' in /.*/samples (the installed samples)" "$tmp/err" &&
	! grep -q "$TOP_SRCDIR" "$tmp/err" && ok "a copy elsewhere looks in the installed samples" ||
	bad "copy elsewhere: exit $rc: $(cat "$tmp/err")"
finish

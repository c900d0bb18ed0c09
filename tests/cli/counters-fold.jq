# SPDX-License-Identifier: GPL-2.0-or-later
# Fold the catalogue of a compact `mlxcli -j counters` document (schema 3)
# back into each counter: the document `counters --describe` prints
# (schema 2's shape of "counters"), as a program that wants it would.
# tests/cli/counters.sh holds the two equal.  $errors: the errors view,
# whose objects also carry "meaning" (the description when the catalogue
# has none).
#
#   jq -c --argjson errors false -f counters-fold.jq counters.json
.catalogue as $cat
| .ports |= map(
    .counters |= [
      to_entries[] as $s
      | $s.value | to_entries[] as $c
      | $cat[$s.key][$c.key] as $e
      | {name: ($c.key | sub(" lane [0-9]+$"; "") | sub("#[0-9]+$"; "")),
         value: $c.value, unit: $e.unit, group: $e.group, source: $s.key}
        + (if $e.scale > 1 and $c.value != null then {raw_value: ($c.value / $e.scale)} else {} end)
        + {catalogued: $e.catalogued, width: $e.width, labels: $e.labels,
           description: $e.description}
        + (if $errors then {meaning: ($e.meaning // $e.description)} else {} end)
    ])
| del(.catalogue)

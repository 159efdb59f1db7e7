#!/usr/bin/env bash
# Build the Game 1145 ledger from the shared real posts with modtool commands alone,
# then render the vote count posts. The posts are not committed: they are read from
# ../shared/real/mafiascum/ beside the repository (see /work/shared/real/README.md).
# Usage (from anywhere): bash examples/mafia-1145/build.sh [TARGET_FOLDER]
# TARGET_FOLDER defaults to examples/mafia-1145; an existing ledger.yaml is never overwritten.
set -euo pipefail
cd "$(dirname "$0")/../.."
E=examples/mafia-1145
G=$(realpath -m -- "${1:-$E}")
M=${MODTOOL:-.venv/bin/modtool}
# MAFIA_REAL: another folder of the same files (tests build a game from a part of them).
REAL=$(realpath -m -- "${MAFIA_REAL:-$PWD/../shared/real/mafiascum}")
if [ ! -d "$REAL" ]; then
  echo "$REAL not found: the shared real data must sit beside the repository" >&2
  exit 1
fi
if [ -e "$G/ledger.yaml" ]; then
  echo "$G/ledger.yaml exists; not overwritten" >&2
  exit 1
fi

$M new "$G" --game mafia --roster $E/roster.yaml
# Night 0 (post #2): Klazam died. Day 1 starts at the host's post #3.
$M death "$G" Klazam --post 2 --how "killed Night 0, Vanilla Townie"
$M start-day "$G" --day 1 --post 3
# The host's deadlines (UTC), as extended during day 1 (counts 1.0 to 1.9); the later one wins.
$M deadline "$G" --day 1 --at "2011-04-08 17:30"
$M deadline "$G" --day 1 --at "2011-04-10 00:04" --note "extended (count 1.9)"
$M import "$G" "$REAL/game1145-day1-posts0-292.jsonl" --thread vote --day 1
# Replacements, as the host announced them.
$M replace "$G" lynchking DarthYoshi --post 141
$M replace "$G" AMP Meransiel --post 157
$M replace "$G" Romanus crazypianist1116 --post 180
$M replace "$G" Meransiel inHimshallibe --post 211
$M replace "$G" Lucresia Quilford --post 267
$M alias "$G" RotN RangeroftheNorth
# #151 "Unvote: Erratus Apothos": a misspelling, unresolved until the host declares it (MS-R2).
$M alias "$G" "Erratus Apothos" "Erratus Apathos"
# Day 1 ends with a lynch (replayed, not recorded). Night 1 kills, announced at #293, which starts Day 2.
$M death "$G" DarthYoshi --post 293 --how "killed Night 1, Vanilla Townie"
$M death "$G" Pine --post 293 --how "killed Night 1, Town Tracker"
$M start-day "$G" --day 2 --post 293
$M deadline "$G" --day 2 --at "2011-04-18 16:18"
$M import "$G" "$REAL/game1145-day2-posts293-389.jsonl" --thread vote --day 2

mkdir -p "$G/posts"
$M announce "$G" vote --day 1 > "$G/posts/day1-vote.bbcode"
$M announce "$G" vote --day 2 > "$G/posts/day2-vote.bbcode"
$M announce "$G" vote --day 2 --format markdown > "$G/posts/day2-vote.md"
$M tally "$G" --day 1 --upto-post 284 --json > "$G/posts/day1-upto-284.json"
echo "built $G"

#!/usr/bin/env bash
# Build the Game 1145 ledger from the shared real posts with modtool commands alone,
# then render the vote count posts. The posts are not committed: they are read from
# ../shared/real/mafiascum/ beside the repository (see /work/shared/real/README.md).
# Usage (from anywhere): bash examples/mafia-1145/build.sh [TARGET_FOLDER]
# TARGET_FOLDER defaults to examples/mafia-1145; an existing ledger.yaml is never overwritten.
# All five days: the two hosts' 25 counts are checked by tests/test_mafia_game1145.py. A host who
# takes over mid-day (only later posts saved) records the votes standing from the last count with
# `modtool standing GAME --from-post N` (MS-R6; README, "Taking over mid-day").
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
# Day 2 ends with inHimshallibe's lynch (replayed). Night 2: Erratus Apathos killed, announced at #390, Day 3.
$M death "$G" "Erratus Apathos" --post 390 --how "killed Night 2, Compulsive Town Doctor"
$M start-day "$G" --day 3 --post 390
$M deadline "$G" --day 3 --at "2011-04-25 10:14"
$M import "$G" "$REAL/game1145-days3-5-posts390-554.jsonl" --thread vote --day 3
# Day 3 ends with crazypianist1116's self-hammer (#408, replayed). Fenhl went AWOL; the substitute
# host Zodiark13 announced Peabody's Night 3 kill at #410 and started Day 4 there.
$M death "$G" Peabody --post 410 --how "killed Night 3, Vanilla Townie"
$M start-day "$G" --day 4 --post 410
# Zodiark13's deadlines are timeanddate.com links with no zone written: recorded as UTC.
$M deadline "$G" --day 4 --at "2011-05-05 16:00" --note "timeanddate link, zone not written"
# Day 4 ends with Quilford's lynch (hammer #505, replayed; the host posted no count). Night 4: DeathRowKitty.
# ("VOTE: ICE" at #483 and #525 is a unique prefix of ICEninja, MS-R2: no alias needed.)
$M death "$G" DeathRowKitty --post 511 --how "killed Night 4, Two-Shot Town Vigilante"
$M start-day "$G" --day 5 --post 511
$M deadline "$G" --day 5 --at "2011-05-14 16:00" --note "timeanddate link, zone not written"

mkdir -p "$G/posts"
$M announce "$G" vote --day 1 > "$G/posts/day1-vote.bbcode"
$M announce "$G" vote --day 2 > "$G/posts/day2-vote.bbcode"
$M announce "$G" vote --day 2 --format markdown > "$G/posts/day2-vote.md"
for d in 3 4 5; do $M announce "$G" vote --day $d > "$G/posts/day$d-vote.bbcode"; done
$M tally "$G" --day 1 --upto-post 284 --json > "$G/posts/day1-upto-284.json"
echo "built $G"

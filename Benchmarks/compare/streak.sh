#!/usr/bin/env bash
# streak.sh — the current streak from a JSON-lines dose log, the way a user scripts it today.
#
#   streak.sh [LOG] [TODAY]      LOG: one line per dose,
#   {"date":"2026-11-19","medicine":"Aspirin","time":"08:00","status":"taken|skipped|missed"}
#
# A day counts when nothing was missed and at least one dose was taken; a day with only skipped
# doses neither counts nor breaks the streak. Today is left out (its later doses are not in the
# log yet), so this is the streak up to yesterday — what dosebar shows while today is pending.
set -euo pipefail
log=${1:-$HOME/.local/share/doses.jsonl}
today=${2:-$(date +%F)}
streak=0
while IFS=$'\t' read -r day state; do
  [[ $day == "$today" ]] && continue
  case $state in
    done) streak=$((streak + 1)) ;;
    skipped) ;;
    missed) break ;;
  esac
done < <(jq -rs '
  group_by(.date) | reverse | .[]
  | [.[0].date,
     (if any(.status == "missed") then "missed"
      elif any(.status == "taken") then "done"
      else "skipped" end)]
  | @tsv' "$log")
echo "$streak"

#!/usr/bin/env bash
# Writes expected.tsv from the reference line of each models/*/SOURCE (written by choose.py).
cd "$(dirname "$0")"
{ printf 'model\tkind\tanswer\n'
  for d in models/*/; do d=${d%/}
    read -r kind ans < <(sed -n 's/^reference[^:]*: //p' "$d/SOURCE")
    printf '%s\t%s\t%s\n' "${d#models/}" "$kind" "$ans"
  done; } > expected.tsv

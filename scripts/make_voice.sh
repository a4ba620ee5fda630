#!/usr/bin/env bash
# Make the spoken seat numbers 1..24 in Russian and English (hardware/sounds/numbers/<lang>/)
# with espeak-ng, for counting aloud at night (count mode). Nothing is downloaded.
#   sudo apt install espeak-ng && scripts/make_voice.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for lang in ru en; do
    mkdir -p "hardware/sounds/numbers/$lang"
    for n in $(seq 1 24); do
        espeak-ng -v "$lang" -s 150 -w "hardware/sounds/numbers/$lang/$n.wav" "$n"
    done
done
echo "made $(ls hardware/sounds/numbers/*/*.wav | wc -l) files"

#!/usr/bin/env bash
# Make what the table says aloud, in Russian and English, with espeak-ng (nothing is downloaded):
# the seat numbers 1..24 (hardware/sounds/numbers/<lang>/N.wav), counted at night in count mode,
# and the words (hardware/sounds/words/<lang>/<name>.wav; hardware.audio.SPOKEN names them),
# said after the speech timer's warning tone. The same espeak-ng makes the same files again.
#   sudo apt install espeak-ng && scripts/make_voice.sh
# A language: add its words below and its code to contract.commands.Voice.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A WORDS=(
    [ru/ten_seconds]="десять секунд"
    [en/ten_seconds]="ten seconds"
)
for lang in ru en; do
    mkdir -p "hardware/sounds/numbers/$lang" "hardware/sounds/words/$lang"
    for n in $(seq 1 24); do
        espeak-ng -v "$lang" -s 150 -w "hardware/sounds/numbers/$lang/$n.wav" "$n"
    done
done
for key in "${!WORDS[@]}"; do
    espeak-ng -v "${key%%/*}" -s 150 -w "hardware/sounds/words/$key.wav" "${WORDS[$key]}"
done
echo "made $(ls hardware/sounds/numbers/*/*.wav hardware/sounds/words/*/*.wav | wc -l) files"

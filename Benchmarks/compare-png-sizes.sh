#!/usr/bin/env bash
# Our PNG sizes against ImageMagick's default PNG (libpng through `convert in.pam out.png`), from the
# same PAM/PPM input, as issue 16 measures them: the ratio ours/ImageMagick per file and the
# geometric mean over photos (corpus photos/kodak and harvesters) and graphics (PngSuite's
# decodable files and the image-png-benches graphics), at our default effort and at effort 9.
#
#   bash Benchmarks/compare-png-sizes.sh [TOOL]      TOOL: the imagecodecs binary
#                                                      (default .build/release/imagecodecs)
# Corpus: $IMAGECODECS_CORPUS, else shared/corpus beside the project root. Needs ImageMagick.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
corpus="${IMAGECODECS_CORPUS:-$root/../shared/corpus}"
tool="${1:-$root/.build/release/imagecodecs}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

photos=("$corpus"/photos/kodak/*.png "$corpus/photos/harvesters/harvesters.png")
graphics=("$corpus"/pngsuite/[bcfgmopstz]*.png "$corpus/photos/image-png-benches/lorem_ipsum_screenshot.png"
          "$corpus/photos/image-png-benches/Exoplanet_Phase_Curve__Diagram_.png")

# measure KIND FILE: one line "KIND name im ours9 ours" (bytes), or nothing if ImageMagick cannot read FILE.
measure() {
    local kind="$1" file="$2" name
    name="$(basename "$file" .png)"
    convert "$file" "$work/in.pam" 2>/dev/null || return 0
    convert "$work/in.pam" "$work/im.png" 2>/dev/null || return 0
    "$tool" encode "$work/in.pam" -o "$work/ours.png" >/dev/null
    "$tool" encode "$work/in.pam" -o "$work/ours9.png" --effort 9 >/dev/null
    echo "$kind $name $(stat -c %s "$work/im.png") $(stat -c %s "$work/ours9.png") $(stat -c %s "$work/ours.png")"
}

{
    for f in "${photos[@]}"; do measure photo "$f"; done
    for f in "${graphics[@]}"; do measure graphic "$f"; done
} > "$work/sizes.txt"

python3 - "$work/sizes.txt" <<'PY'
import math, sys
rows = [l.split() for l in open(sys.argv[1])]
def gm(v): return math.exp(sum(map(math.log, v)) / len(v))
print("| set | files | default/ImageMagick | effort 9/ImageMagick |")
print("|---|---:|---:|---:|")
for kind in ("photo", "graphic", None):
    sel = [r for r in rows if kind is None or r[0] == kind]
    d = gm([int(r[4]) / int(r[2]) for r in sel]); n = gm([int(r[3]) / int(r[2]) for r in sel])
    print("| %s | %d | %.3f× | %.3f× |" % (kind or "all", len(sel), d, n))
PY

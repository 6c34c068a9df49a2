#!/usr/bin/env bash
# Makes the PNG kinds that the corpus photos lack (greyscale, RGBA photo, Adam7, 16-bit, and a
# 24 MP RGB8 PNG) from corpus photos, into Benchmarks/.inputs/ (gitignored: never commit
# images). PNGBench runs this itself when .inputs/.complete is missing. Needs ImageMagick's
# `convert`, and `dwebp` (Debian's webp) for the large file.
#
#   bash Benchmarks/make-inputs.sh [OUTDIR]
#
# Corpus: $IMAGECODECS_CORPUS, else shared/corpus beside the project root.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
corpus="${IMAGECODECS_CORPUS:-$here/../../shared/corpus}"
photos="$corpus/photos"
out="${1:-$here/.inputs}"
mkdir -p "$out"

command -v convert >/dev/null || { echo "make-inputs.sh: ImageMagick 'convert' not found" >&2; exit 1; }
[ -d "$photos" ] || { echo "make-inputs.sh: no corpus photos at $photos" >&2; exit 1; }

kodim="$photos/kodak/kodim01.png"                                   # 768x512 RGB8
painting="$photos/image-png-benches/Fantasy_Digital_Painting.png"  # 1488x1486 RGB8
bryce="$photos/large/bryce.webp"                                    # 11158x2156 lossy WebP

# make NAME COMMAND...: runs COMMAND with $target set, unless NAME exists; writes atomically.
make() {
    local name="$1"; shift
    if [ -s "$out/$name" ]; then return; fi
    echo "make-inputs.sh: $name" >&2
    target="$out/.tmp-$name"
    "$@"
    mv "$target" "$out/$name"
}

grey8()     { convert "$kodim" -strip -colorspace Gray -define png:color-type=0 -define png:bit-depth=8 "PNG:$target"; }
# A photo with a vertical alpha gradient: every alpha value, fully transparent at the bottom.
rgba8()     { convert "$painting" -strip \( -size 1488x1486 gradient:white-black \) -alpha off \
                  -compose CopyOpacity -composite "PNG32:$target"; }
adam7rgb()  { convert "$painting" -strip -interlace PNG "PNG24:$target"; }
adam7rgba() { convert "$out/rgba8-painting.png" -strip -interlace PNG "PNG32:$target"; }
# Resampling in ImageMagick's 16-bit pipeline gives real low bytes (not v * 257).
rgb16()     { convert "$painting" -strip -filter Lanczos -resize 1400x1400 "PNG48:$target"; }
rgba16()    { convert "$out/rgba8-painting.png" -strip -filter Lanczos -resize 1400x1400 "PNG64:$target"; }
large()     {
    if command -v dwebp >/dev/null; then
        dwebp -quiet "$bryce" -o "$target"
    else
        convert "$bryce" -strip "PNG24:$target"
    fi
}

make grey8-kodim01.png grey8
make rgba8-painting.png rgba8
make adam7-rgb8-painting.png adam7rgb
make adam7-rgba8-painting.png adam7rgba
make rgb16-painting.png rgb16
make rgba16-painting.png rgba16
if [ -f "$bryce" ]; then
    make large-rgb8-bryce.png large
else
    echo "make-inputs.sh: no $bryce, large file skipped" >&2
fi
touch "$out/.complete"

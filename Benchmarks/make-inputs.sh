#!/usr/bin/env bash
# Makes the PNG kinds that the corpus photos lack (greyscale, RGBA photo, Adam7, 16-bit, a
# 24 MP RGB8 PNG, and 8.6 MP RGB8 plain and Adam7), and GIFs made from photos (quantised stills,
# plain and interlaced, an 8.6 MP still, two 10-frame animations), and a 19-frame 768x512 GIF and
# APNG of the Kodak photos, from corpus photos into Benchmarks/.inputs/ (gitignored: never commit
# images). The 8.6 MP and 19-frame files are the ones issue 6 measures memory and feeding on. PNGBench runs this itself when .inputs/.complete is missing, GIFBench when
# .inputs/.complete-gif is missing (a folder made before the GIFs existed has only the first).
# WebPs for WebPBench (which runs this when .inputs/.complete-webp2 is missing), with cwebp and
# img2webp (Debian's webp): lossless (-q 75) of the 8.6 MP crop, lossy q75 and q90 of the 24 MP
# photo, lossy with alpha of the 8.6 MP crop under a radial alpha (-q 80 with -alpha_q 100: a
# predictor-coded ALPH, and -alpha_q 50: fewer levels, colour-indexed, libwebp's 8-bit alpha
# path), and a 10-frame lossy animation of Kodak photos (img2webp -lossy).
# JPEGs for JPEGBench (which runs this when .inputs/.complete-jpeg2 is missing): cjpeg -quality 90
# of the 24 MP and 8.6 MP PNGs, baseline 4:2:0, baseline 4:4:4, progressive 4:2:0 and baseline
# 4:2:0 with a restart marker every MCU row (-restart 1: decoded in bands on several threads), and
# the 24 MP baseline 4:2:0 again with a Display P3 ICC profile and as a CMYK JPEG through
# ghostscript's SWOP profile (with Pillow; JPEGBench --srgb).
# Needs ImageMagick's `convert`, `dwebp`, `cwebp` and `img2webp` (Debian's webp) for the large files, `gifsicle` for
# one animation (without it, ImageMagick's optimiser is used for that one too), `apngasm`
# for the APNG (skipped without it), and `cjpeg` (Debian's libjpeg-turbo-progs) for the JPEGs.
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
# 4000x2156 (8.6 MP) from the middle of the large photo, as a plain and an Adam7 PNG.
midcrop=(-crop 4000x2156+3000+0 +repage -strip)
mid()       { convert "$out/large-rgb8-bryce.png" "${midcrop[@]}" "PNG24:$target"; }
midadam7()  { convert "$out/large-rgb8-bryce.png" "${midcrop[@]}" -interlace PNG "PNG24:$target"; }
# The 19 Kodak photos 1-19, portraits turned to landscape (768x512), 80 ms a frame, looping.
kodak19()   { for i in $(seq -w 1 19); do echo "$photos/kodak/kodim$i.png"; done; }
anim19gif() { convert -delay 8 -loop 0 $(kodak19) -rotate "90<" -strip -colors 256 "GIF:$target"; }
anim19png() {
    local dir="$out/.tmp-frames"
    mkdir -p "$dir"
    for f in $(kodak19); do convert "$f" -rotate "90<" -strip "PNG24:$dir/$(basename "$f")"; done
    apngasm "$target" "$dir"/kodim*.png 8 100 >/dev/null
    rm -rf "$dir"
}

# GIF: photos quantised to 256 colours (ImageMagick's default dithering), one global palette.
gifstill()      { convert "$1" -strip -colors 256 "GIF:$target"; }
gifinterlaced() { convert "$painting" -strip -colors 256 -interlace GIF "GIF:$target"; }
# A pan over the painting: 10 crops of 960x720 stepping (40, 24) px, so nearly every pixel
# changes from frame to frame; quantised to one global palette, then ImageMagick's frame and
# transparency optimisation (-layers Optimize: full-size frames, unchanged pixels transparent).
gifpan() {
    local frames=()
    for i in 0 1 2 3 4 5 6 7 8 9; do
        frames+=( \( "$painting" -crop "960x720+$((i * 40))+$((i * 24))" +repage \) )
    done
    convert -delay 8 -loop 0 "${frames[@]}" -strip -colors 256 -layers Optimize "GIF:$target"
}
# A sprite: a 240x240 patch of the painting moving over a fixed 960x720 background, 10 frames
# with one common palette (+map), then cropped to the changed rectangles with transparency by
# gifsicle -O2 (ImageMagick's -layers Optimize when gifsicle is missing).
gifsprite() {
    local frames=()
    for i in 0 1 2 3 4 5 6 7 8 9; do
        frames+=( \( "$painting" -crop 960x720+0+0 +repage \( "$painting" -crop 240x240+1000+900 +repage \)
                  -geometry "+$((i * 72))+$((i * 48))" -composite \) )
    done
    if command -v gifsicle >/dev/null; then
        convert -delay 8 -loop 0 "${frames[@]}" -strip +map "GIF:$target.full"
        gifsicle -O2 "$target.full" -o "$target"
        rm -f "$target.full"
    else
        convert -delay 8 -loop 0 "${frames[@]}" -strip +map -layers Optimize "GIF:$target"
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
if [ -f "$out/large-rgb8-bryce.png" ]; then
    make mid-rgb8-bryce.png mid
    make mid-adam7-rgb8-bryce.png midadam7
    make mid-bryce.gif gifstill "$out/mid-rgb8-bryce.png"
fi
make anim19-kodak.gif anim19gif
if command -v apngasm >/dev/null; then make anim19-kodak.apng anim19png; fi
# An ICC profile written into a JPEG as one APP2 "ICC_PROFILE" segment (sequence 1 of 1).
withicc() {
    python3 - "$1" "$2" "$target" <<'PY'
import struct, sys
jpeg, icc = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
payload = b"ICC_PROFILE\0" + bytes([1, 1]) + icc
open(sys.argv[3], "wb").write(jpeg[:2] + b"\xff\xe2" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
PY
}
# A JPEG's pixels separated into CMYK by LittleCMS (Pillow's ImageCms, sRGB to the profile,
# relative colorimetric) and saved as a 4:4:4 q90 CMYK JPEG with the profile embedded.
cmykjpeg() {
    python3 - "$1" "$2" "$target" <<'PY'
import sys
from PIL import Image, ImageCms
image = Image.open(sys.argv[1]).convert("RGB")
transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(sys.argv[2]), "RGB", "CMYK", renderingIntent=1)
cmyk = ImageCms.applyTransform(image, transform)
cmyk.save(sys.argv[3], "JPEG", quality=90, subsampling=0, icc_profile=open(sys.argv[2], "rb").read())
PY
}
# JPEG: cjpeg (libjpeg-turbo) reads PPM, so ImageMagick converts the PNG on the way.
jpeg() { convert "$1" ppm:- | cjpeg -quality 90 "${@:2}" -outfile "$target"; }
if command -v cjpeg >/dev/null; then
    for size in large mid; do
        [ -f "$out/$size-rgb8-bryce.png" ] || continue
        make "$size-420-q90-bryce.jpg" jpeg "$out/$size-rgb8-bryce.png" -sample 2x2,1x1,1x1
        make "$size-444-q90-bryce.jpg" jpeg "$out/$size-rgb8-bryce.png" -sample 1x1,1x1,1x1
        make "$size-420-prog-q90-bryce.jpg" jpeg "$out/$size-rgb8-bryce.png" -sample 2x2,1x1,1x1 -progressive
        make "$size-420-rst-q90-bryce.jpg" jpeg "$out/$size-rgb8-bryce.png" -sample 2x2,1x1,1x1 -restart 1
    done
    # The 24 MP JPEG with a Display P3 profile in an APP2 after SOI (ICC.1 Annex B.4), for
    # JPEGBench --srgb: the colour conversion's cost against the decode.
    if [ -f "$out/large-420-q90-bryce.jpg" ]; then
        make large-420-q90-p3-bryce.jpg withicc "$out/large-420-q90-bryce.jpg" "$here/../Conformance/fixtures/color/p3.icc"
    fi
    # The same photo as a print CMYK JPEG (ghostscript's SWOP profile: black generation puts
    # ink on K in most pixels, as in print files) for JPEGBench --srgb; needs Pillow.
    swop=/usr/share/color/icc/ghostscript/default_cmyk.icc
    if [ -f "$out/large-420-q90-bryce.jpg" ] && [ -f "$swop" ] && python3 -c "import PIL.ImageCms" 2>/dev/null; then
        make large-cmyk-q90-bryce.jpg cmykjpeg "$out/large-420-q90-bryce.jpg" "$swop"
    fi
else
    echo "make-inputs.sh: no cjpeg (apt: libjpeg-turbo-progs), JPEGs skipped" >&2
fi
make photo-kodim01.gif gifstill "$kodim"
make photo-painting.gif gifstill "$painting"
make interlaced-painting.gif gifinterlaced
make anim10-pan-painting.gif gifpan
make anim10-sprite-painting.gif gifsprite
# WebP: cwebp reads PNG; the alpha channel is a radial gradient (every level, opaque in the middle).
webp()      { cwebp -quiet "${@:2}" "$1" -o "$target"; }
alphamid()  { convert "$out/mid-rgb8-bryce.png" \( -size 4000x2156 radial-gradient:white-black \) -alpha off \
                  -compose CopyOpacity -composite "PNG32:$target"; }
# Kodak photos 1-10, portraits turned to landscape (768x512), 80 ms a frame, looping.
anim10webp() {
    local dir="$out/.tmp-webp-frames"
    mkdir -p "$dir"
    for i in $(seq -w 1 10); do convert "$photos/kodak/kodim$i.png" -rotate "90<" -strip "PNG24:$dir/kodim$i.png"; done
    img2webp -loop 0 -lossy -q 75 -d 80 "$dir"/kodim*.png -o "$target" >/dev/null
    rm -rf "$dir"
}
if command -v cwebp >/dev/null && command -v img2webp >/dev/null; then
    if [ -f "$out/large-rgb8-bryce.png" ]; then
        make mid-lossless-q75-bryce.webp webp "$out/mid-rgb8-bryce.png" -lossless -q 75
        make large-lossy-q75-bryce.webp webp "$out/large-rgb8-bryce.png" -q 75
        make large-lossy-q90-bryce.webp webp "$out/large-rgb8-bryce.png" -q 90
        make .alpha-mid-bryce.png alphamid
        make mid-lossy-alpha-q80-bryce.webp webp "$out/.alpha-mid-bryce.png" -q 80 -alpha_q 100
        make mid-lossy-alpha-q80-aq50-bryce.webp webp "$out/.alpha-mid-bryce.png" -q 80 -alpha_q 50
    fi
    make anim10-lossy-kodak.webp anim10webp
else
    echo "make-inputs.sh: no cwebp/img2webp (apt: webp), WebPs skipped" >&2
fi
touch "$out/.complete" "$out/.complete-gif" "$out/.complete-8mp" "$out/.complete-jpeg" "$out/.complete-jpeg2" "$out/.complete-webp2"

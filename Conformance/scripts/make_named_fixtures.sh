#!/usr/bin/env bash
# Regenerate Conformance/fixtures/named: one small file of each format this library recognises
# but does not decode, written by ImageMagick's convert from the same 16x12 gradient, and
# NAMES.tsv: per file, the format name an ImageSource must give when it refuses the file with
# `unsupported` (the name is the format convert was asked to write, checked against `file`).
#
#   bash Conformance/scripts/make_named_fixtures.sh
#
# JPEG XL is not among them: this ImageMagick has no JPEG XL writer (the tests build the two
# JPEG XL signatures from ISO/IEC 18181-1 and -2 by hand).
# Needs: convert (apt: imagemagick, with its libheif, openjpeg and libtiff delegates), file,
# Pillow (pip: Pillow).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$(dirname "$here")/fixtures/named"
mkdir -p "$out"
src="$(mktemp --suffix=.ppm)"
trap 'rm -f "$src"' EXIT
convert -size 16x12 gradient:red-blue -depth 8 "$src"

# file name, convert output spec, expected name, `file` must say
rows=(
  "gradient.tiff|TIFF:|tiff|TIFF image data"
  "gradient-be.tiff|TIFF:-define tiff:endian=msb|tiff|big-endian"
  "gradient.bmp|BMP:|bmp|PC bitmap"
  "gradient-v3.bmp|BMP3:|bmp|PC bitmap"
  "gradient.ico|ICO:|ico|MS Windows icon resource"
  "gradient.heic|HEIC:|heic|HEIF Image"
  "gradient.avif|AVIF:|avif|AVIF Image"
  "gradient.jp2|JP2:|jpeg2000|JPEG 2000"
  "gradient.j2k|J2K:|jpeg2000|JPEG 2000 codestream"
  "gradient.psd|PSD:|psd|Adobe Photoshop Image"
)
printf '# file\texpected format (ImageFormat rawValue)\n' > "$out/NAMES.tsv"
for row in "${rows[@]}"; do
    IFS='|' read -r name spec format says <<<"$row"
    prefix="${spec%%:*}"
    defines="${spec#*:}"
    # shellcheck disable=SC2086
    convert "$src" $defines -strip "$prefix:$out/$name"
    if ! file -b "$out/$name" | grep -q "$says"; then
        echo "make_named_fixtures: $name: file says '$(file -b "$out/$name")', expected '$says'" >&2
        exit 1
    fi
    printf '%s\t%s\n' "$name" "$format" >> "$out/NAMES.tsv"
done

# PDF: ImageMagick's security policy forbids writing PDF; Pillow writes it.
python3 -c 'import sys; from PIL import Image; Image.open(sys.argv[1]).save(sys.argv[2], "PDF")' "$src" "$out/gradient.pdf"
file -b "$out/gradient.pdf" | grep -q "PDF document" || { echo "make_named_fixtures: gradient.pdf is not PDF to file" >&2; exit 1; }
printf 'gradient.pdf\tpdf\n' >> "$out/NAMES.tsv"

# CUR: convert's CUR writer gives an icon (type 1); the cursor is that icon with ICONDIR type 2
# and each entry's planes/bit count read as the hot spot (0, 0), as the ICO/CUR format defines.
python3 - "$out/gradient.ico" "$out/gradient.cur" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
count = struct.unpack_from('<H', data, 4)[0]
struct.pack_into('<H', data, 2, 2)
for i in range(count):
    struct.pack_into('<HH', data, 6 + 16 * i + 4, 0, 0)
open(sys.argv[2], 'wb').write(data)
PY
file -b "$out/gradient.cur" | grep -q "MS Windows cursor resource" || { echo "make_named_fixtures: gradient.cur is not a cursor to file" >&2; exit 1; }
printf 'gradient.cur\tcur\n' >> "$out/NAMES.tsv"

# SVG: written as text (convert would trace the raster); one plain, one with a prolog.
printf '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="12"><rect width="16" height="12" fill="red"/></svg>\n' > "$out/plain.svg"
printf '\xef\xbb\xbf<?xml version="1.0" encoding="UTF-8"?>\n<!-- a comment -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY e "x"> ]>\n<svg\n xmlns="http://www.w3.org/2000/svg" width="16" height="12"/>\n' > "$out/prolog.svg"
for name in plain.svg prolog.svg; do
    convert "$out/$name" -format '%m' info: | grep -q SVG || { echo "make_named_fixtures: $name is not SVG to convert" >&2; exit 1; }
    printf '%s\tsvg\n' "$name" >> "$out/NAMES.tsv"
done

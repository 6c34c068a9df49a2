#!/usr/bin/env bash
# Regenerate the project's own GIF fixtures (Conformance/fixtures/gif) from synthetic patterns
# with real encoders (ImageMagick, gifsicle) and a byte writer for the edge cases, then their
# manifests from the reference decoders (giflib compositor, Pillow).
#
#   bash Conformance/scripts/make_gif_fixtures.sh
#
# Needs: ImageMagick 6 `convert` (apt: imagemagick), gifsicle (apt: gifsicle), a C compiler
# and giflib (apt: libgif-dev), Pillow (pip: Pillow). Output is deterministic for given
# versions of these tools (see Conformance/README.md for the versions used).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
conf="$(dirname "$here")"

missing=()
command -v "${CONVERT:-convert}" >/dev/null || missing+=("convert (apt: imagemagick)")
command -v "${GIFSICLE:-gifsicle}" >/dev/null || missing+=("gifsicle (apt: gifsicle)")
command -v cc >/dev/null || missing+=("cc")
[ -e /usr/include/gif_lib.h ] || missing+=("gif_lib.h (apt: libgif-dev)")
python3 -c 'import PIL' 2>/dev/null || missing+=("Pillow (pip: Pillow)")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'make_gif_fixtures.sh: missing %s\n' "${missing[@]}" >&2
    exit 1
fi

python3 "$here/make_gif_fixtures.py" "$conf/fixtures"
python3 "$here/make_gif_manifests.py" fixtures

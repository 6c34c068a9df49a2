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
. "$here/fixtures_common.sh"

need_tools make_gif_fixtures.sh "${GIFSICLE:-gifsicle}" "gifsicle (apt: gifsicle)" gif_lib.h "gif_lib.h (apt: libgif-dev)"

python3 "$here/make_gif_fixtures.py" "$conf/fixtures"
python3 "$here/make_gif_manifests.py" fixtures

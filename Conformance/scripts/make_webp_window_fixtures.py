#!/usr/bin/env python3
"""Make WebP fixtures larger than the VP8L decoder's window of the coded image, and their
manifest from the reference decoder.

  python3 Conformance/scripts/make_webp_window_fixtures.py

Writes Conformance/fixtures/webp-window/*.webp, RECIPES.tsv beside them, and
manifests/fixtures-webp-window.tsv (dwebp -pam, made canonical by make_webp_manifests.py's
functions: the same columns as fixtures-webp.tsv).

The decoder keeps only the last 1,048,456 coded pixels (the farthest an LZ77 copy reaches,
RFC 9649 5.2.2) in a sliding window of twice that, so these images have more than 2,096,912
pixels (the window slides once, 40 rows before the end) and content that repeats at a distance just under the farthest: 8x8 blocks of colours
drawn from fixed seeds, the block rows repeating every PERIOD rows, so that each block row's
first line is best copied from PERIOD rows up (cwebp -q 100 searches the whole window). Made:
 * a lossless RGBA image (VP8L) with an alpha ramp, and
 * a lossy image (VP8) whose alpha (ALPH, VP8L-compressed, -alpha_q 100, no filter) is a
   diagonal ramp plus the blocks, which cwebp codes with the predictor transform rather than
   colour indexing (libwebp's 8-bit alpha path), so that its green plane goes through the window,
 * a lossy image whose alpha is the blocks alone, 40 levels, which cwebp codes with colour
   indexing and no bundling (more than 16 colours) at -m 6: libwebp's 8-bit path, whose byte-wide
   colour indices go through a window of their own.
File names: <source>-<W>x<H>.webp.

Needs: Pillow, cwebp and dwebp (apt: webp). Deterministic for given versions of these tools.
"""

import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_webp_manifests import frame_manifest  # noqa: E402
from manifest_common import CONF, MANIFESTS, clean, files_under  # noqa: E402
from PIL import Image  # noqa: E402

OUT = CONF / "fixtures" / "webp-window"
WIDTH, HEIGHT = 1536, 1400
# 680 rows of 1536 pixels: 1,044,480 pixels, under the farthest copy (1,048,456).
PERIOD = 680
BLOCK = 8


def blocks(rng, levels):
    """WIDTH x HEIGHT values, one per 8x8 block from `levels`, block rows repeating every PERIOD rows."""
    per_period = [[rng.choice(levels) for _ in range(WIDTH // BLOCK)] for _ in range(PERIOD // BLOCK)]
    rows = []
    for y in range(HEIGHT):
        line = per_period[(y % PERIOD) // BLOCK]
        rows.append(bytes(v for v in line for _ in range(BLOCK)))
    return b"".join(rows)


def lossless_source(rng, tmp):
    palette = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(24)]
    index = blocks(rng, list(range(len(palette))))
    rgb = bytes(c for i in index for c in palette[i])
    image = Image.frombytes("RGB", (WIDTH, HEIGHT), rgb)
    ramp = bytes((x * 255 // (WIDTH - 1)) for _ in range(HEIGHT) for x in range(WIDTH))
    image.putalpha(Image.frombytes("L", (WIDTH, HEIGHT), ramp))
    path = tmp / "lossless.png"
    image.save(path)
    return path


def alpha_source(rng, tmp):
    rgb = bytes(v for y in range(HEIGHT) for x in range(WIDTH)
                for v in ((x * 255 // WIDTH), (y * 255 // HEIGHT), 128))
    image = Image.frombytes("RGB", (WIDTH, HEIGHT), rgb)
    offsets = blocks(rng, list(range(0, 48, 8)))
    ramp = bytes(min(255, (x + y) * 200 // (WIDTH + HEIGHT) + offsets[y * WIDTH + x])
                 for y in range(HEIGHT) for x in range(WIDTH))
    image.putalpha(Image.frombytes("L", (WIDTH, HEIGHT), ramp))
    path = tmp / "alpha.png"
    image.save(path)
    return path


def alpha8_source(rng, tmp):
    rgb = bytes(v for y in range(HEIGHT) for x in range(WIDTH)
                for v in (128, (x * 255 // WIDTH), (y * 255 // HEIGHT)))
    image = Image.frombytes("RGB", (WIDTH, HEIGHT), rgb)
    image.putalpha(Image.frombytes("L", (WIDTH, HEIGHT), blocks(rng, list(range(16, 256, 6)))))
    path = tmp / "alpha8.png"
    image.save(path)
    return path


def main():
    if shutil.which("cwebp") is None or shutil.which("dwebp") is None:
        raise SystemExit("make_webp_window_fixtures.py: missing cwebp/dwebp (apt: webp)")
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    tmp = Path(tempfile.mkdtemp(prefix="webp-window."))
    rng = random.Random(20_1049)
    made = [
        ("blocks-lossless", lossless_source(rng, tmp), ["-lossless", "-q", "100", "-m", "4", "-exact"]),
        ("blocks-alpha-lossy", alpha_source(rng, tmp),
         ["-q", "60", "-alpha_q", "100", "-alpha_method", "1", "-alpha_filter", "none"]),
        ("blocks-alpha8-lossy", alpha8_source(rng, tmp),
         ["-q", "60", "-m", "6", "-alpha_q", "100", "-alpha_method", "1", "-alpha_filter", "none"]),
    ]
    recipes = {}
    for key, source, options in made:
        name = "%s-%dx%d.webp" % (key, WIDTH, HEIGHT)
        subprocess.run(["cwebp", "-quiet", *options, str(source), "-o", str(OUT / name)], check=True)
        recipes[name] = ("Pillow, seed 201049: %dx%d blocks repeating every %d rows; cwebp %s"
                         % (BLOCK, BLOCK, PERIOD, " ".join(options)))
    shutil.rmtree(tmp)
    with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# Made by Conformance/scripts/make_webp_window_fixtures.py: per fixture, how it was made.\n")
        for name in sorted(recipes):
            f.write("%s\t%s\n" % (name, recipes[name]))
    notes = {"fixtures/webp-window/" + n: clean(r) for n, r in recipes.items()}
    title = ("WebP fixtures larger than the VP8L decoder's window (paths relative to Conformance/); made by "
             "scripts/make_webp_window_fixtures.py.")
    frame_manifest(files_under(OUT, suffixes=(".webp",)), CONF, MANIFESTS / "fixtures-webp-window.tsv", title,
                   notes=notes)
    print("make_webp_window_fixtures.py: %d files in %s" % (len(recipes), OUT))


if __name__ == "__main__":
    main()

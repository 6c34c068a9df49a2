#!/usr/bin/env python3
"""Make lossy WebP fixtures whose compressed alpha (ALPH, RFC 9649 2.7.1.2, method 1: a VP8L
image stream) is cut short, and their manifest from the reference decoder.

  python3 Conformance/scripts/make_webp_alpha_cut_fixtures.py

Writes Conformance/fixtures/webp-alpha-cut/*.webp, RECIPES.tsv beside them, and
manifests/fixtures-webp-alpha-cut.tsv (dwebp -pam, made canonical by make_webp_manifests.py's
functions: the same columns as fixtures-webp-lossy.tsv; a file dwebp refuses is an `error` row).

What it makes: sources are RGBA images drawn by Pillow from fixed seeds (alpha in a few levels,
in blocks, noise or ramps, often with uniform bottom rows so that the stream ends on a long
backward reference), encoded by cwebp -alpha_method 1 with each -alpha_filter. Each encoded file
is then cut: its ALPH payload loses its last K bytes (K = 1...4), and the ALPH and RIFF sizes
are rewritten. libwebp's lossless bit reader keeps its last 64-bit window at the end of the
data (src/utils/bit_reader_utils.c): a last symbol read partly past the end is still decoded,
from that window, and its 8-bit alpha path (DecodeAlphaData) accepts a stream that runs out on
the symbol that completes the image. Kept: every cut dwebp decodes, and per source the
smallest cut it refuses. File names: <source>-<filter>-cut<K>-<W>x<H>.webp.

Needs: Pillow, cwebp and dwebp (apt: webp). Deterministic for given versions of these tools.
"""

import random
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_webp_manifests import dwebp, frame_manifest, riff_chunks  # noqa: E402
from manifest_common import CONF, MANIFESTS, clean, files_under  # noqa: E402
from PIL import Image  # noqa: E402

OUT = CONF / "fixtures" / "webp-alpha-cut"
FILTERS = ("none", "fast", "best")
SOURCES = 24
CUTS = (1, 2, 3, 4)


def alpha_plane(rng, kind, w, h):
    """A w x h alpha plane (bytes) of one kind; the bottom third is often one level."""
    levels = [rng.randrange(256) for _ in range(rng.randint(2, 6))]
    if kind == "blocks":
        s = rng.randint(2, 8)
        cells = {}
        plane = [cells.setdefault((x // s, y // s), rng.choice(levels)) for y in range(h) for x in range(w)]
    elif kind == "noise":
        plane = [rng.choice(levels) for _ in range(w * h)]
    else:  # ramp
        plane = [(x * 255 // max(1, w - 1) + rng.randrange(3)) & 255 for y in range(h) for x in range(w)]
    if rng.random() < 0.6:
        level = rng.choice(levels)
        for i in range(w * (2 * h // 3), w * h):
            plane[i] = level
    return bytes(plane)


def source(rng, index, tmp):
    kind = ("blocks", "noise", "ramp")[index % 3]
    w, h = rng.randint(3, 70), rng.randint(2, 50)
    rgb = bytes(rng.randrange(256) >> 2 << 2 for _ in range(w * h * 3))
    image = Image.frombytes("RGB", (w, h), rgb)
    image.putalpha(Image.frombytes("L", (w, h), alpha_plane(rng, kind, w, h)))
    path = tmp / ("s%02d.png" % index)
    image.save(path)
    return {"path": path, "key": "%s%02d" % (kind, index), "w": w, "h": h}


def cut_alph(data, k):
    """The file with its ALPH payload's last k bytes removed, chunk and RIFF sizes rewritten."""
    out = bytearray(data[:12])
    for fourcc, payload in riff_chunks(data):
        if fourcc == "ALPH":
            payload = payload[:len(payload) - k]
        out += fourcc.encode("latin-1") + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)
    out[4:8] = struct.pack("<I", len(out) - 8)
    return bytes(out)


def main():
    if shutil.which("cwebp") is None or shutil.which("dwebp") is None:
        raise SystemExit("make_webp_alpha_cut_fixtures.py: missing cwebp/dwebp (apt: webp)")
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    tmp = Path(tempfile.mkdtemp(prefix="webp-alpha-cut."))
    rng = random.Random(9649)
    recipes = {}
    for index in range(SOURCES):
        src = source(rng, index, tmp)
        for flt in FILTERS:
            encoded = tmp / "encoded.webp"
            options = ["-q", "70", "-alpha_method", "1", "-alpha_filter", flt]
            subprocess.run(["cwebp", "-quiet", *options, str(src["path"]), "-o", str(encoded)], check=True)
            data = encoded.read_bytes()
            alph = [p for c, p in riff_chunks(data) if c == "ALPH"]
            if not alph or alph[0][0] & 3 != 1:
                continue
            refused = False
            for k in CUTS:
                if len(alph[0]) - k < 2:
                    break
                name = "%s-%s-cut%d-%dx%d.webp" % (src["key"], flt, k, src["w"], src["h"])
                (OUT / name).write_bytes(cut_alph(data, k))
                if dwebp(OUT / name)["status"] != "ok":
                    if refused:
                        (OUT / name).unlink()
                        continue
                    refused = True
                recipes[name] = ("Pillow RGBA, seed 9649 source %d (%s alpha); cwebp %s; ALPH payload (%d bytes, "
                                 "header 0x%02x) cut by %d bytes" % (index, src["key"][:-2], " ".join(options),
                                                                     len(alph[0]), alph[0][0], k))
    shutil.rmtree(tmp)
    with open(OUT / "RECIPES.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# Made by Conformance/scripts/make_webp_alpha_cut_fixtures.py: per fixture, how it was made.\n")
        for name in sorted(recipes):
            f.write("%s\t%s\n" % (name, recipes[name]))
    notes = {"fixtures/webp-alpha-cut/" + n: clean(r) for n, r in recipes.items()}
    title = ("Lossy WebP fixtures with a cut compressed ALPH payload (paths relative to Conformance/); made by "
             "scripts/make_webp_alpha_cut_fixtures.py.")
    frame_manifest(files_under(OUT, suffixes=(".webp",)), CONF, MANIFESTS / "fixtures-webp-alpha-cut.tsv", title,
                   notes=notes)
    print("make_webp_alpha_cut_fixtures.py: %d files in %s" % (len(recipes), OUT))


if __name__ == "__main__":
    main()

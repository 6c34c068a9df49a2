#!/usr/bin/env python3
"""Inputs and expected outputs for the JPEG encoder (issue 17): byte-exact with cjpeg.

Writes small PPM/PGM inputs to Conformance/fixtures/jpeg-encoder/ and the manifest
Conformance/manifests/fixtures-jpeg-encoder.tsv: one line per (input, cjpeg flags) with the
SHA-256 and size of the file libjpeg-turbo's cjpeg (2.1.5, Debian's libjpeg-turbo-progs)
writes for that input with those flags, and the canonical hash (RGBA8 rows, SHA-256;
DESIGN.md) of what `djpeg -dct int` decodes from it. The encoder test encodes each input with
the same settings and compares the file's hash, then decodes its file with our decoder and
compares with djpeg's pixels.

Inputs: synthetic patterns (a smooth gradient, per-channel noise from random.Random with fixed
seeds, hard-edged rectangles, a checkerboard) and crops of Kodak photos from the shared corpus
(photos/kodak/kodim{01,05,23}.png, cut with Pillow at run time; no corpus file is copied), at
odd sizes (1x1, 17x9, 333x177, 767x31, ...), as RGB PPM and as gray PGM.
Flags: -quality 10..100 with every -sample (1x1, 2x1, 1x2, 2x2), -grayscale, -optimize,
-progressive, -restart N (rows) and NB (MCUs), and their combinations; `-dct int` is cjpeg's
default and always given.

    python3 Conformance/scripts/make_jpeg_encoder_fixtures.py

Needs cjpeg (apt: libjpeg-turbo-progs), Pillow, and the corpus ($IMAGECODECS_CORPUS, else
../shared/corpus beside the project root) for the photo crops.
"""
import hashlib
import os
import random
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.dirname(HERE)
OUT = os.path.join(CONF, "fixtures", "jpeg-encoder")
MANIFEST = os.path.join(CONF, "manifests", "fixtures-jpeg-encoder.tsv")
CORPUS = os.environ.get("IMAGECODECS_CORPUS") or os.path.join(os.path.dirname(os.path.dirname(CONF)), "shared", "corpus")


def gradient(w, h):
    return bytes(v for y in range(h) for x in range(w)
                 for v in ((x * 255) // max(w - 1, 1), (y * 255) // max(h - 1, 1), ((x + y) * 127) // max(w + h - 2, 1)))


def noise(w, h, seed):
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(w * h * 3))


def rectangles(w, h):
    colours = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (255, 255, 0)]
    return bytes(v for y in range(h) for x in range(w) for v in colours[(x // 5 + 2 * (y // 7)) % len(colours)])


def checker(w, h):
    return bytes(v for y in range(h) for x in range(w) for v in ((0, 0, 0) if (x + y) % 2 else (255, 255, 255)))


def write_pnm(name, w, h, rgb):
    with open(os.path.join(OUT, name + ".ppm"), "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h) + rgb)
    gray = Image.frombytes("RGB", (w, h), rgb).convert("L").tobytes()
    with open(os.path.join(OUT, name + ".pgm"), "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h) + gray)


def make_inputs():
    os.makedirs(OUT, exist_ok=True)
    synthetic = [("gradient-64x48", 64, 48, gradient), ("noise-17x9", 17, 9, lambda w, h: noise(w, h, 1)),
                 ("rect-35x21", 35, 21, rectangles), ("checker-16x16", 16, 16, checker),
                 ("noise-1x1", 1, 1, lambda w, h: noise(w, h, 2)), ("gradient-9x40", 9, 40, gradient)]
    for name, w, h, f in synthetic:
        write_pnm(name, w, h, f(w, h))
    crops = [("kodim01", (120, 80, 453, 257), "kodim01-333x177"), ("kodim05", (0, 200, 767, 231), "kodim05-767x31"),
             ("kodim23", (300, 150, 357, 211), "kodim23-57x61"), ("kodim23", (10, 10, 11, 11), "kodim23-1x1")]
    for photo, box, name in crops:
        path = os.path.join(CORPUS, "photos", "kodak", photo + ".png")
        if not os.path.exists(path):
            sys.exit("make_jpeg_encoder_fixtures: no corpus photo at %s" % path)
        im = Image.open(path).convert("RGB").crop(box)
        write_pnm(name, im.width, im.height, im.tobytes())


SAMPLES = ["2x2", "1x1", "2x1", "1x2"]


def flag_sets(colour, big):
    sets = []
    qualities = [10, 25, 50, 75, 90, 100] if big else [10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 95, 98, 100]
    for q in qualities:
        for s in (SAMPLES if colour else ["1x1"]):
            sets.append(["-quality", str(q), "-sample", s])
    if colour:
        sets += [["-quality", str(q), "-grayscale"] for q in (10, 50, 75, 100)]
    for q in (30, 75, 95):
        for s in (SAMPLES if colour else ["1x1"]):
            sets.append(["-quality", str(q), "-sample", s, "-optimize"])
            sets.append(["-quality", str(q), "-sample", s, "-progressive"])
    if colour:
        sets += [["-quality", "75", "-grayscale", "-progressive"], ["-quality", "60", "-grayscale", "-optimize"]]
    for restart in ("1", "2", "1B", "5B", "7B"):
        for extra in ([], ["-optimize"], ["-progressive"]):
            for s in (["2x2", "1x2"] if colour else ["1x1"]):
                sets.append(["-quality", "80", "-sample", s, "-restart", restart] + extra)
    return sets


def djpeg_canonical(jpeg):
    """`djpeg -dct int` of `jpeg` as "WxH sha256" of its RGBA8 rows (gray as R=G=B, alpha 255)."""
    pnm = subprocess.run(["djpeg", "-dct", "int", "-pnm"], input=jpeg, check=True, capture_output=True).stdout
    fields, i = [], 2
    while len(fields) < 3:
        while pnm[i:i + 1].isspace():
            i += 1
        j = i
        while pnm[j:j + 1].isdigit():
            j += 1
        fields.append(int(pnm[i:j]))
        i = j
    w, h, _ = fields
    data = pnm[i + 1:]
    if pnm[1:2] == b"5":
        rgba = bytes(v for g in data[:w * h] for v in (g, g, g, 255))
    else:
        rgb = data[:w * h * 3]
        rgba = bytes(v for k in range(w * h) for v in (rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2], 255))
    return "%dx%d %s" % (w, h, hashlib.sha256(rgba).hexdigest())


def main():
    make_inputs()
    lines = ["# input\tflags\tsize\tsha256 of cjpeg's output\tdjpeg -dct int of it: WxH canonical sha256"
             " (libjpeg-turbo 2.1.5; made by make_jpeg_encoder_fixtures.py)"]
    names = sorted(os.listdir(OUT))
    for name in names:
        colour = name.endswith(".ppm")
        big = name.startswith("kodim01-333") or name.startswith("kodim05-767")
        for flags in flag_sets(colour, big):
            data = subprocess.run(["cjpeg", "-dct", "int"] + flags + [os.path.join(OUT, name)],
                                  check=True, capture_output=True).stdout
            lines.append("%s\t%s\t%d\t%s\t%s" % (name, " ".join(flags), len(data), hashlib.sha256(data).hexdigest(),
                                                 djpeg_canonical(data)))
    with open(MANIFEST, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("%d inputs, %d encodes" % (len(names), len(lines) - 1))


if __name__ == "__main__":
    main()

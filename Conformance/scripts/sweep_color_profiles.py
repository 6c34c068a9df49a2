#!/usr/bin/env python3
"""Every ICC profile on this machine against LittleCMS: `imagecodecs decode --srgb` beside
Pillow's ImageCms (issue 20's acceptance measure, on more profiles than the committed fixtures).

For each RGB, gray and CMYK device profile under /usr/share/color/icc (icc-profiles-free,
colord-data, ghostscript; device links, abstract and named-colour profiles are skipped), the
script writes one picture with that profile embedded in each format that can carry it: JPEG
4:4:4 q95 and 4:2:0 q90, PNG and lossless WebP for RGB; JPEG and PNG for gray (a WebP is
always RGB); JPEG for CMYK. The picture is a 256 x 192 crop of kodim23 from the corpus with
a band of random pixels and three gradient bands (gray, red-green, green on blue); gray and
CMYK are Pillow's conversions of it.

Expected: the pixels Pillow decodes from the file, converted by
`ImageCms.profileToProfile(im, profile, sRGB, renderingIntent=0)` (perceptual, flags 0, as
Pillow does by default). Ours: `imagecodecs decode FILE -o OUT.png --srgb`. Prints one line per
file (largest difference per channel, and how many samples differ at all, by more than 1 and
by more than 2) and
exits 1 if any sample differs by more than 2 or a decode fails.

Needs Pillow and numpy, the profiles (apt: icc-profiles-free colord-data ghostscript), the
corpus, and a release build of the tool:

    swift build -c release --product imagecodecs
    python3 Conformance/scripts/sweep_color_profiles.py [--tool .build/release/imagecodecs] [--out DIR]
"""
import argparse
import glob
import io
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageCms

PROFILES = "/usr/share/color/icc"
MODES = {b"RGB ": "RGB", b"GRAY": "L", b"CMYK": "CMYK"}


def corpus_root():
    env = os.environ.get("IMAGECODECS_CORPUS")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "../../../shared/corpus"))


def picture():
    photo = Image.open(os.path.join(corpus_root(), "photos/kodak/kodim23.png")).convert("RGB")
    a = np.array(photo.crop((0, 0, 256, 192)))
    a[96:144] = np.random.default_rng(1).integers(0, 256, (48, 256, 3), dtype=np.uint8)
    x = np.arange(256, dtype=np.uint8)
    a[144:160] = np.stack([x, x, x], axis=-1)
    a[160:176] = np.stack([x, 255 - x, np.zeros_like(x)], axis=-1)
    a[176:192] = np.stack([np.zeros_like(x), x, np.full_like(x, 255)], axis=-1)
    return Image.fromarray(a)


def writers(mode):
    """(suffix, save function) for each format that carries a profile on `mode` pixels."""
    jpeg444 = ("444.jpg", lambda im, f, icc: im.save(f, quality=95, subsampling=0, icc_profile=icc))
    jpeg420 = ("420.jpg", lambda im, f, icc: im.save(f, quality=90, subsampling=2, icc_profile=icc))
    png = ("png", lambda im, f, icc: im.save(f, icc_profile=icc))
    webp = ("webp", lambda im, f, icc: im.save(f, lossless=True, icc_profile=icc))
    return {"RGB": [jpeg444, jpeg420, png, webp], "L": [jpeg444, png], "CMYK": [jpeg444]}[mode]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tool", default=".build/release/imagecodecs")
    parser.add_argument("--out", default=None, help="keep the files here (default: a temporary directory)")
    args = parser.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="color-sweep-")
    os.makedirs(out, exist_ok=True)
    rgb = picture()
    sources = {"RGB": rgb, "L": rgb.convert("L"), "CMYK": rgb.convert("CMYK")}
    srgb = ImageCms.createProfile("sRGB")
    failures = files = 0
    print("profile\tfile\tmax difference\tsamples > 0\tsamples > 1\tsamples > 2")
    for path in sorted(glob.glob(f"{PROFILES}/**/*.ic[cm]", recursive=True)):
        data = open(path, "rb").read()
        mode = MODES.get(data[16:20])
        if mode is None or data[12:16] in (b"link", b"abst", b"nmcl"):
            continue
        try:
            profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
        except Exception:
            continue
        name = os.path.relpath(path, PROFILES).replace("/", "-").rsplit(".", 1)[0]
        for suffix, save in writers(mode):
            file = os.path.join(out, f"{name}.{suffix}")
            save(sources[mode], file, data)
            with Image.open(file) as im:
                expected = np.array(ImageCms.profileToProfile(im, profile, srgb, renderingIntent=0, outputMode="RGB"))
            ours_file = file + ".srgb.png"
            run = subprocess.run([args.tool, "decode", file, "-o", ours_file, "--srgb"], capture_output=True, text=True)
            files += 1
            if run.returncode != 0:
                failures += 1
                print(f"{name}\t{suffix}\tdecode failed: {run.stderr.strip()}")
                continue
            ours = np.array(Image.open(ours_file).convert("RGB")).astype(int)
            d = np.abs(ours - expected.astype(int))
            if d.max() > 2:
                failures += 1
            print(f"{name}\t{suffix}\t{d.max()}\t{(d > 0).sum()}\t{(d > 1).sum()}\t{(d > 2).sum()} of {d.size}")
    print(f"# {files} files, {failures} beyond +-2 or not decoded")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks ImageCodecs' GIF encoder against the reference tools and measures it.

1. Every GIF of the corpus (../shared/corpus/gif) that giflib reads is encoded by our encoder;
   our file is read back by giflib (scripts/gif_composite.c, browser compositing) and must give
   the same frames (canonical RGBA8) and delays as the original; Pillow must read it too and
   give the same frames (a second opinion, reported). Size: ours against `gifsicle -O3` of the
   original (target <= 1.05x, as a geometric mean and per file).
2. Truecolour photos (the corpus's Kodak set and a few large images, as PPM): ours against
   ImageMagick `convert photo.ppm -colors 256 out.gif`: PSNR over R, G, B (computed here with
   numpy from Pillow's decode of each GIF) and size (target: PSNR >= ImageMagick's at a size
   <= 1.2x its), with and without dithering, and the encode times.

The encoder is a command template with {in} and {out} (extra flags such as --no-dither are
appended), by default the tool: `.build/release/imagecodecs encode {in} -o {out}` (build it
first: `swift build -c release --product imagecodecs`); the Benchmarks package's GIFEncodeBench
takes the same arguments and prints the in-process time.

usage: check_gif_encoder.py [--encoder CMD] [--corpus DIR] [--photos N] [--skip-gifs] [--skip-photos]
Exit status 1 when a round trip fails (a frame or delay differs, or giflib refuses our file).
"""
import argparse
import math
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_gif_manifests import Giflib, pillow_gif  # noqa: E402
from manifest_common import sha  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENCODER = str(ROOT / ".build/release/imagecodecs") + " encode {in} -o {out}"


def encode(template, src, dst, extra=()):
    cmd = [a.replace("{in}", str(src)).replace("{out}", str(dst)) for a in shlex.split(template)] + list(extra)
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, timeout=600)
    return p, time.monotonic() - t


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def check_gifs(args, giflib, tmp):
    rows, failures, skipped, lossy, pillow_differs = [], [], [], [], []
    files = sorted(Path(args.corpus, "gif").rglob("*.gif"))
    for path in files:
        rel = path.relative_to(args.corpus)
        ref = giflib.run(path)
        if ref["status"] != "ok" or not ref["frames"]:
            skipped.append((rel, "giflib refuses the original"))
            continue
        ours = Path(tmp, "ours.gif")
        p, _ = encode(args.encoder, path, ours)
        if p.returncode != 0:
            skipped.append((rel, "our encoder: " + p.stderr.decode(errors="replace").strip()[:80]))
            continue
        back = giflib.run(ours)
        if back["status"] != "ok":
            failures.append((rel, "giflib refuses our file: %s" % back.get("msg")))
            continue
        # A still's delay means nothing and is not written.
        animated = len(ref["frames"]) > 1
        want = [(f["sha"], f["delay"] if animated else "-") for f in ref["frames"]]
        got = [(f["sha"], f["delay"] if animated else "-") for f in back["frames"]]
        colours = max_colours(giflib, path)
        if want != got and colours > 256:
            lossy.append((rel, colours))
            continue
        if want != got:
            bad = [i for i, (a, b) in enumerate(zip(want, got)) if a != b]
            failures.append((rel, "frames %d vs %d, first difference at %s" % (len(want), len(got), bad[:1] or len(got))))
            continue
        pil = pillow_gif(ours)
        pillow_ok = pil["ok"] and [s for _, s in pil["frames"]] == [f["sha"] for f in back["frames"]]
        g = Path(tmp, "gifsicle.gif")
        q = subprocess.run(["gifsicle", "-O3", str(path), "-o", str(g)], capture_output=True, timeout=600)
        gsize = g.stat().st_size if q.returncode == 0 and g.exists() else None
        rows.append((rel, len(want), os.path.getsize(path), ours.stat().st_size, gsize, pillow_ok))
        if not pillow_ok:
            pillow_differs.append(rel)
    print("## GIF corpus: our GIF of a GIF vs gifsicle -O3\n")
    print("%d files: %d round-tripped exactly through giflib, %d failed, %d quantized (a composited frame has "
          "more than 256 colours), %d skipped (giflib or our decoder refuses the original)\n" % (
              len(files), len(rows), len(failures), len(lossy), len(skipped)))
    ratios = [r[3] / r[4] for r in rows if r[4]]
    multi = [r[3] / r[4] for r in rows if r[4] and r[1] > 1]
    print("- size vs gifsicle -O3, geometric mean: %.3fx over %d files (animations: %.3fx over %d); "
          "total bytes %d vs %d" % (geomean(ratios), len(ratios), geomean(multi), len(multi),
                                    sum(r[3] for r in rows if r[4]), sum(r[4] for r in rows if r[4])))
    print("- files above 1.05x: %d; Pillow reads %d/%d of our files with the same frames" % (
        sum(1 for x in ratios if x > 1.05), sum(1 for r in rows if r[5]), len(rows)))
    print("\n| file | frames | original | ours | gifsicle -O3 | ratio |\n|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: -(r[3] / r[4] if r[4] else 0))[:args.worst]:
        print("| %s | %d | %d | %d | %s | %s |" % (r[0], r[1], r[2], r[3], r[4], "%.3f" % (r[3] / r[4]) if r[4] else "-"))
    for rel, colours in lossy:
        print("quantized %s: up to %d colours in a frame" % (rel, colours))
    for rel in pillow_differs:
        print("Pillow differs on our file of %s" % rel)
    for rel, why in failures:
        print("FAIL %s: %s" % (rel, why))
    if args.verbose:
        for rel, why in skipped:
            print("skip %s: %s" % (rel, why))
    return not failures


def max_colours(giflib, path):
    """The most distinct RGBA colours in one composited frame of the original (giflib)."""
    raw = giflib.raw(path)
    if raw is None:
        return 0
    return max(len({f[i:i + 4] for i in range(0, len(f), 4)}) for f in raw[2])


def rgb(path):
    import numpy as np
    from PIL import Image
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.float64)


def psnr(a, b):
    mse = float(((a - b) ** 2).mean())
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def check_photos(args, tmp):
    photos = sorted(Path(args.corpus, "photos/kodak").glob("*.png"))[:args.photos]
    photos += [Path(args.corpus, p) for p in ("photos/harvesters/harvesters.png",
                                              "photos/image-png-benches/Fantasy_Digital_Painting.png")]
    rows = []
    for photo in photos:
        if not photo.exists():
            continue
        ppm = Path(tmp, "photo.ppm")
        subprocess.run(["convert", str(photo), "-strip", "-alpha", "off", "PPM:" + str(ppm)], check=True)
        src = rgb(ppm)
        im_gif = Path(tmp, "im.gif")
        t = time.monotonic()
        subprocess.run(["convert", str(ppm), "-colors", "256", str(im_gif)], check=True)
        im_time = time.monotonic() - t
        row = {"name": photo.name, "mp": src.shape[0] * src.shape[1] / 1e6,
               "im": (psnr(src, rgb(im_gif)), im_gif.stat().st_size, im_time)}
        for label, extra in (("ours", ()), ("nodither", ("--no-dither",))):
            out = Path(tmp, label + ".gif")
            p, elapsed = encode(args.encoder, ppm, out, extra)
            if p.returncode != 0:
                sys.exit("our encoder failed on %s: %s" % (photo, p.stderr.decode(errors="replace")))
            row[label] = (psnr(src, rgb(out)), out.stat().st_size, elapsed)
        rows.append(row)
    print("\n## Truecolour photos: ours vs ImageMagick `convert photo.ppm -colors 256 out.gif`\n")
    print("| photo | MP | IM PSNR | IM bytes | ours PSNR | ours bytes | size ratio | no-dither PSNR | no-dither bytes | IM s | ours s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        im, o, n = r["im"], r["ours"], r["nodither"]
        print("| %s | %.2f | %.2f | %d | %.2f | %d | %.3f | %.2f | %d | %.2f | %.2f |" % (
            r["name"], r["mp"], im[0], im[1], o[0], o[1], o[1] / im[1], n[0], n[1], im[2], o[2]))
    ok = [r for r in rows if r["ours"][0] >= r["im"][0] and r["ours"][1] <= 1.2 * r["im"][1]]
    print("\nDefault (dithered): PSNR >= ImageMagick's at <= 1.2x its size on %d/%d photos; mean PSNR %.2f vs %.2f dB; "
          "size geomean %.3fx; no dither: mean PSNR %.2f dB, size geomean %.3fx; time: ours %.2f s, IM %.2f s in all" % (
              len(ok), len(rows), sum(r["ours"][0] for r in rows) / len(rows), sum(r["im"][0] for r in rows) / len(rows),
              geomean([r["ours"][1] / r["im"][1] for r in rows]), sum(r["nodither"][0] for r in rows) / len(rows),
              geomean([r["nodither"][1] / r["im"][1] for r in rows]), sum(r["ours"][2] for r in rows),
              sum(r["im"][2] for r in rows)))
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--encoder", default=DEFAULT_ENCODER)
    ap.add_argument("--corpus", default=os.environ.get("IMAGECODECS_CORPUS", str(ROOT.parent / "shared/corpus")))
    ap.add_argument("--photos", type=int, default=24, help="Kodak photos to use (of 24)")
    ap.add_argument("--worst", type=int, default=15, help="rows of the size table (largest ratios first)")
    ap.add_argument("--skip-gifs", action="store_true")
    ap.add_argument("--skip-photos", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if not Path(args.corpus).is_dir():
        sys.exit("no corpus at %s" % args.corpus)
    giflib = Giflib()
    ok = True
    try:
        with tempfile.TemporaryDirectory() as tmp:
            if not args.skip_gifs:
                ok = check_gifs(args, giflib, tmp) and ok
            if not args.skip_photos:
                ok = check_photos(args, tmp) and ok
    finally:
        giflib.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

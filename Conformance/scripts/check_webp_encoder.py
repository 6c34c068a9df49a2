#!/usr/bin/env python3
"""Checks ImageCodecs' lossless WebP encoder against libwebp and measures it.

1. Stills: photos (the corpus's Kodak set), graphics with few colours (image-png-benches) and
   images with alpha (png-extra), plus generated odd sizes (1x1, 3x5, 16383x1, 1x16383, a
   17x13 noise with random alpha). Each is read by Pillow (the reference for the source's
   pixels), written as PAM, encoded by our tool with --lossless at the given effort, and
   decoded by `dwebp -pam`: the canonical RGBA8 (alpha-0 pixels as 0,0,0,0) must be the
   source's. With --exact the RGB under alpha 0 must survive too. Size against
   `cwebp -lossless` (effort 9: `cwebp -lossless -z 9`): geometric mean per kind and overall.
2. Animations: the animated GIFs of the corpus that giflib reads (scripts/gif_composite.c,
   browser compositing) are encoded by our tool; libwebp's WebPAnimDecoder
   (scripts/webp_anim.c) must give giflib's frames and display times (a frame equal to the one
   before is merged into it, as gif2webp does). Size against `gif2webp` (lossless, its
   defaults; it keeps no ICC profile by default, ours carries it).

usage: check_webp_encoder.py [--effort N] [--exact] [--encoder CMD] [--corpus DIR] [--kodak N]
                             [--skip-stills] [--skip-animations] [--gifs N]
Exit status 1 when a round trip fails.
"""
import argparse
import math
import os
import random
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_gif_manifests import Giflib  # noqa: E402
from make_webp_manifests import AnimDecoder, canonical, parse_pam  # noqa: E402
from manifest_common import corpus_root, sha  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ENCODER = str(ROOT / ".build/release/imagecodecs") + " encode {in} -o {out} --lossless"

GRAPHICS = ["photos/image-png-benches/lorem_ipsum_screenshot.png",
            "photos/image-png-benches/Exoplanet_Phase_Curve__Diagram_.png",
            "photos/image-png-benches/paletted-zune.png",
            "photos/image-png-benches/lorem_ipsum_oxipng.png"]
ALPHA = ["png-extra/libjxl-testdata/wesaturate-500px/tmshre_riaphotographs_alpha.png",
         "png-extra/image-png/bugfixes/gama-srgb-order-issue_304.png",
         "png-extra/wuffs/hibiscus.primitive.png",
         "png-extra/libjxl-testdata/wide-gamut-tests/P3-sRGB-color-ring.png",
         "png-extra/pillow/xmp_tags_orientation.png"]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def run(cmd, timeout=900):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return p, time.monotonic() - t


def write_pam(rgba, w, h, path):
    Path(path).write_bytes(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (w, h) + rgba)


def generated(tmp):
    """Odd sizes and random alpha, as (name, rgba, w, h)."""
    rnd = random.Random(19)
    out = []
    for w, h in ((1, 1), (3, 5), (16383, 1), (1, 16383), (17, 13)):
        px = bytearray()
        for i in range(w * h):
            a = rnd.choice((0, 255, rnd.randrange(256))) if (w, h) == (17, 13) else 255
            px += bytes((rnd.randrange(256), (i * 7) & 255, (i // 3) & 255, a))
        out.append(("generated/%dx%d" % (w, h), bytes(px), w, h))
    return out


def sources(args):
    from PIL import Image
    kinds = [("photo", p) for p in sorted(Path(args.corpus, "photos/kodak").glob("*.png"))[:args.kodak]]
    kinds += [("graphic", Path(args.corpus, p)) for p in GRAPHICS]
    kinds += [("alpha", Path(args.corpus, p)) for p in ALPHA]
    for kind, path in kinds:
        if not path.exists():
            continue
        with Image.open(path) as im:
            rgba = im.convert("RGBA")
            yield kind, str(path.relative_to(args.corpus)), rgba.tobytes(), rgba.size[0], rgba.size[1]


def check_stills(args, tmp):
    rows, failures = [], []
    items = list(sources(args)) + [("odd", n, px, w, h) for n, px, w, h in generated(tmp)]
    for kind, name, rgba, w, h in items:
        src, ours, ref, back = (Path(tmp, n) for n in ("src.pam", "ours.webp", "ref.webp", "back.pam"))
        write_pam(rgba, w, h, src)
        extra = ["--effort", str(args.effort)] + (["--exact"] if args.exact else [])
        cmd = [a.replace("{in}", str(src)).replace("{out}", str(ours)) for a in shlex.split(args.encoder)] + extra
        p, ours_time = run(cmd)
        if p.returncode != 0:
            failures.append((name, "our encoder: " + p.stderr.decode(errors="replace").strip()[:100]))
            continue
        q, _ = run(["dwebp", "-quiet", "-pam", str(ours), "-o", str(back)])
        pam = parse_pam(back.read_bytes()) if q.returncode == 0 else None
        want = rgba if args.exact else canonical(rgba)
        got = None if pam is None else (pam[2] if args.exact else canonical(pam[2]))
        if got != want:
            failures.append((name, "dwebp refuses our file" if pam is None else "pixels differ"))
            continue
        level = ["-z", "9"] if args.effort == 9 else []
        r, ref_time = run(["cwebp", "-quiet", "-lossless"] + level + (["-exact"] if args.exact else [])
                          + [str(src), "-o", str(ref)])
        rsize = ref.stat().st_size if r.returncode == 0 else None
        rows.append((kind, name, w, h, ours.stat().st_size, rsize, ours_time, ref_time))
    ref_name = "cwebp -lossless" + (" -z 9" if args.effort == 9 else "")
    print("## Stills: effort %d%s vs %s\n" % (args.effort, " --exact" if args.exact else "", ref_name))
    print("%d files round-tripped exactly through dwebp, %d failed\n" % (len(rows), len(failures)))
    for kind in ("photo", "graphic", "alpha", "odd"):
        ratios = [r[4] / r[5] for r in rows if r[0] == kind and r[5]]
        if ratios:
            print("- %s: %d files, size ratio geometric mean %.3f" % (kind, len(ratios), geomean(ratios)))
    main = [r[4] / r[5] for r in rows if r[0] != "odd" and r[5]]
    print("- photos, graphics and alpha together: %.3f over %d files\n" % (geomean(main), len(main)))
    print("| kind | file | size | ours | %s | ratio | our time s | its time s |\n|---|---|---|---|---|---|---|---|" % ref_name)
    for r in rows:
        print("| %s | %s | %dx%d | %d | %s | %s | %.2f | %.2f |" % (
            r[0], r[1], r[2], r[3], r[4], r[5], "%.3f" % (r[4] / r[5]) if r[5] else "-", r[6], r[7]))
    for name, why in failures:
        print("FAIL %s: %s" % (name, why))
    return not failures


def timeline(frames):
    """[(sha, ms)] with consecutive equal images merged, their times added."""
    out = []
    for image, ms in frames:
        if out and out[-1][0] == image:
            out[-1] = (image, out[-1][1] + ms)
        else:
            out.append((image, ms))
    return out


def check_animations(args, tmp):
    giflib, anim = Giflib(), AnimDecoder()
    rows, failures = [], []
    try:
        for path in sorted(Path(args.corpus, "gif").rglob("*.gif")):
            ref = giflib.run(path)
            if ref["status"] != "ok" or len(ref["frames"]) < 2:
                continue
            if args.gifs and len(rows) + len(failures) >= args.gifs:
                break
            rel = str(path.relative_to(args.corpus))
            ours, g2w = Path(tmp, "ours.webp"), Path(tmp, "g2w.webp")
            cmd = [a.replace("{in}", str(path)).replace("{out}", str(ours)) for a in shlex.split(args.encoder)]
            p, t = run(cmd + ["--effort", str(args.effort)])
            if p.returncode != 0:
                # Our decoder may refuse what giflib reads (a hostile file): not a round trip.
                continue
            back = anim.run(ours)
            # A frame equal to the one before is merged into it (as gif2webp does): compare what
            # is shown when, frame images with their display times in milliseconds.
            want = timeline([(f["sha"], int(f["delay"]) * 10) for f in ref["frames"]])
            stamps = [0] + [f[2] for f in back["frames"]]
            got = timeline([(f[1], stamps[i + 1] - stamps[i]) for i, f in enumerate(back["frames"])])
            if back["status"] != "ok" or got != want:
                failures.append((rel, "WebPAnimDecoder: %s, %d shown frames vs %d" % (back["status"], len(got), len(want))))
                continue
            q, t2 = run(["gif2webp", "-quiet", str(path), "-o", str(g2w)])
            gsize = g2w.stat().st_size if q.returncode == 0 else None
            rows.append((rel, len(want), ours.stat().st_size, gsize, t, t2))
    finally:
        giflib.close()
        anim.close()
    ratios = [r[2] / r[3] for r in rows if r[3]]
    print("\n## Animations: GIF -> WebP at effort %d vs gif2webp\n" % args.effort)
    print("%d animations round-tripped exactly through WebPAnimDecoder, %d failed; size ratio geometric "
          "mean %.3f; total bytes %d vs %d\n" % (len(rows), len(failures), geomean(ratios),
                                                sum(r[2] for r in rows if r[3]), sum(r[3] for r in rows if r[3])))
    print("| file | frames | ours | gif2webp | ratio | our time s | its time s |\n|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %d | %d | %s | %s | %.2f | %.2f |" % (r[0], r[1], r[2], r[3],
                                                         "%.3f" % (r[2] / r[3]) if r[3] else "-", r[4], r[5]))
    for rel, why in failures:
        print("FAIL %s: %s" % (rel, why))
    return not failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--effort", type=int, default=5)
    ap.add_argument("--exact", action="store_true")
    ap.add_argument("--encoder", default=DEFAULT_ENCODER)
    ap.add_argument("--corpus", default=str(corpus_root()))
    ap.add_argument("--kodak", type=int, default=24)
    ap.add_argument("--gifs", type=int, default=0, help="at most this many animations (0: all)")
    ap.add_argument("--skip-stills", action="store_true")
    ap.add_argument("--skip-animations", action="store_true")
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="webpenc.") as tmp:
        if not args.skip_stills:
            ok &= check_stills(args, tmp)
        if not args.skip_animations:
            ok &= check_animations(args, tmp)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Rate-distortion of our WebP lossy encoder against `cwebp -m 4` (libwebp), per photo.

For every input (PNG or PPM; default: the 24 Kodak photos of ../shared/corpus/photos/kodak):
  - cwebp's curve: `cwebp -m 4 -q Q` for Q = 20, 25, ... 95 (cached under --cache, keyed by the
    input's path, size and mtime and by `cwebp -version`);
  - ours: `imagecodecs encode IN -o OUT.webp --quality Q [--effort E]` at each --quality;
  - PSNR on RGB (all three channels, 8 bits) of each decoded file against the source;
  - the gap: our PSNR minus cwebp's PSNR interpolated at our size, linearly in log(bytes);
  - exactness: `dwebp -pam` of each file we wrote against `imagecodecs decode X -o Y.pam`.
Prints one line per photo and quality, then the mean gap and the mean size ratio (ours over
cwebp's at the same q) per quality, and the count of dwebp-exact files.

Usage: Scripts/webp-lossy-rd.py [--tool .build/release/imagecodecs] [--quality 50 75 90]
       [--effort N] [--flag=--sns --flag=50] [--jobs 2] [FILES...]
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CURVE_QUALITIES = list(range(20, 100, 5))


def read_pam(path):
    """Pixels of a PAM (P7) or PPM (P6) file as an H×W×C uint8 array."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"P7"):
        end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
        fields = {}
        for line in data[:end].decode().splitlines()[1:]:
            parts = line.split()
            if len(parts) == 2:
                fields[parts[0]] = parts[1]
        w, h, depth = int(fields["WIDTH"]), int(fields["HEIGHT"]), int(fields["DEPTH"])
        return np.frombuffer(data[end:end + w * h * depth], np.uint8).reshape(h, w, depth)
    return np.asarray(Image.open(path).convert("RGB"))


def psnr(a, b):
    mse = np.mean((a[..., :3].astype(np.float64) - b[..., :3].astype(np.float64)) ** 2)
    return 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse)


def run(args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def dwebp_pixels(webp, tmp):
    out = os.path.join(tmp, os.path.basename(webp) + ".dwebp.pam")
    run(["dwebp", webp, "-pam", "-o", out])
    return read_pam(out)


def cwebp_curve(src, ppm, cache, tmp):
    st = os.stat(src)
    version = subprocess.run(["cwebp", "-version"], capture_output=True, text=True).stdout.strip()
    key = hashlib.sha256(f"{os.path.abspath(src)}|{st.st_size}|{st.st_mtime}|{version}".encode()).hexdigest()[:20]
    path = os.path.join(cache, key + ".json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    source = read_pam(ppm)
    curve = []
    for q in CURVE_QUALITIES:
        out = os.path.join(tmp, f"cwebp-{q}.webp")
        run(["cwebp", "-quiet", "-m", "4", "-q", str(q), ppm, "-o", out])
        curve.append((q, os.path.getsize(out), psnr(source, dwebp_pixels(out, tmp))))
    os.makedirs(cache, exist_ok=True)
    with open(path, "w") as f:
        json.dump(curve, f)
    return curve


def interpolate(curve, size):
    """cwebp's PSNR at `size` bytes, linear in log(bytes), extrapolated at the ends."""
    points = sorted((math.log(s), p) for _, s, p in curve)
    x = math.log(size)
    i = 1
    while i < len(points) - 1 and points[i][0] < x:
        i += 1
    (x0, y0), (x1, y1) = points[i - 1], points[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 != x0 else y0


def measure(src, opts):
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "source.ppm")
        Image.open(src).convert("RGB").save(ppm)
        source = read_pam(ppm)
        curve = cwebp_curve(src, ppm, opts.cache, tmp)
        rows = []
        for q in opts.quality:
            out = os.path.join(tmp, f"ours-{q}.webp")
            cmd = [opts.tool, "encode", src, "-o", out, "--quality", str(q)]
            if opts.effort is not None:
                cmd += ["--effort", str(opts.effort)]
            cmd += opts.flag
            run(cmd)
            size = os.path.getsize(out)
            ours_pam = os.path.join(tmp, f"ours-{q}.pam")
            run([opts.tool, "decode", out, "-o", ours_pam])
            ours = read_pam(ours_pam)
            theirs = dwebp_pixels(out, tmp)
            exact = ours.shape == theirs.shape and np.array_equal(ours, theirs)
            p = psnr(source, ours)
            same_q = next(s for cq, s, _ in curve if cq == q) if q in CURVE_QUALITIES else None
            rows.append((os.path.basename(src), q, size, p, p - interpolate(curve, size),
                         size / same_q if same_q else float("nan"), exact))
        return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--tool", default=os.path.join(ROOT, ".build/release/imagecodecs"))
    parser.add_argument("--quality", type=int, nargs="+", default=[50, 75, 90])
    parser.add_argument("--effort", type=int)
    parser.add_argument("--flag", action="append", default=[],
                        help="an extra argument for `imagecodecs encode` (repeat: --flag=--sns --flag=50)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "webp-lossy-rd-cache"))
    opts = parser.parse_args()
    files = opts.files
    if not files:
        kodak = os.path.join(ROOT, "..", "shared", "corpus", "photos", "kodak")
        files = sorted(os.path.join(kodak, f) for f in os.listdir(kodak) if f.endswith(".png"))
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        results = [r for rows in pool.map(lambda f: measure(f, opts), files) for r in rows]
    for name, q, size, p, gap, ratio, exact in results:
        print(f"{name:14} q{q:3} {size:9} B {p:6.2f} dB gap {gap:+.3f} dB size/cwebp {ratio:.3f}"
              f"{'' if exact else '  DWEBP DIFFERS'}")
    for q in opts.quality:
        sel = [r for r in results if r[1] == q]
        gaps = [r[4] for r in sel]
        ratios = [r[5] for r in sel]
        worst = min(sel, key=lambda r: r[4])
        print(f"q {q}: mean gap {sum(gaps) / len(gaps):+.3f} dB (worst {worst[0]} {worst[4]:+.3f}), "
              f"size/cwebp at same q {sum(ratios) / len(ratios):.3f}")
    exact = sum(1 for r in results if r[6])
    print(f"dwebp-exact: {exact} of {len(results)}")
    return 0 if exact == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())

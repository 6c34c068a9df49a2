#!/usr/bin/env python3
"""Check what our encoders write against REFERENCE decoders (never our own decoder).

For every file of the PNG, APNG and GIF manifests (corpus and fixtures) whose reference decodes
it, `imagecodecs encode FILE -o OUT.png` (several frames make an APNG), then:
  * pngcheck accepts OUT (when pngcheck is installed);
  * a still: libspng (scripts/spng_rgba.c) reads OUT to the manifest's canonical hash;
  * an APNG: each frame's data is cut out into a standalone PNG that libspng decodes, and the
    frames are composited by the APNG 1.0 rules (dispose none/background/previous, blend
    source/over; OVER in floating point, rounded) here; every composited frame must have the
    manifest's canonical hash, and acTL's num_frames the manifest's frame count;
  * 16-bit sources: libspng's RGBA16 of OUT equals libspng's RGBA16 of the source, sample for
    sample (an 8-bit OUT only when every source sample fits in 8 bits: v = 257 * (v >> 8)).

Usage: python3 Conformance/scripts/check_encoders.py [--tool PATH] [--effort N] [--limit N]
  --tool: the imagecodecs binary (default .build/release/imagecodecs, else .build/debug/...)
Exit status 0 when every check passed, 1 otherwise. Needs numpy, cc and libspng-dev.
"""

import argparse
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import CONF, CHelper, corpus_root, sha  # noqa: E402

MANIFESTS = [("png.tsv", "corpus"), ("apng.tsv", "corpus"), ("gif.tsv", "corpus"),
             ("fixtures-png.tsv", "conf"), ("fixtures-apng.tsv", "conf"), ("fixtures-gif.tsv", "conf")]


def manifest_rows(name):
    """path -> list of 'WxH sha' per frame, for files the reference decodes."""
    frames = {}
    path = CONF / "manifests" / name
    if not path.exists():
        return frames
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) < 4 or cols[0] == "path" or cols[3] == "error":
            continue
        frames.setdefault(cols[0], []).append((cols[2], cols[3]))
    return frames


def deviations():
    """(manifest, path) -> kind, from manifests/deviations.tsv."""
    out = {}
    for line in (CONF / "manifests" / "deviations.tsv").read_text().splitlines():
        cols = line.split("\t")
        if not line.startswith("#") and len(cols) >= 3:
            out[(cols[0], cols[1])] = cols[2]
    return out


def chunks(data):
    pos = 8
    while pos + 8 <= len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        yield data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        pos += 12 + length


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def spng_raw(spng, data, tmp):
    """libspng's pixels of a PNG: float array HxWx4 in 0..1 and the depth, or None."""
    f = Path(tmp) / "one.png"
    f.write_bytes(data)
    p, _, err = spng.execute("--raw", str(f))
    if err or p.returncode not in (0, 2):
        return None
    head, _, body = p.stdout.partition(b"\n")
    w, h, depth = map(int, head.split())
    if depth == 16:
        px = np.frombuffer(body, dtype=">u2").astype(np.float64) / 65535.0
    else:
        px = np.frombuffer(body, dtype=np.uint8).astype(np.float64) / 255.0
    return px.reshape(h, w, 4), depth


def canonical(px):
    """Canonical RGBA8 bytes of a float canvas (16-bit values are narrowed by v >> 8)."""
    v = np.floor(px * 65535.0 + 0.5).astype(np.uint32) >> 8
    v[v[:, :, 3] == 0] = 0
    return v.astype(np.uint8).tobytes()


def apng_frames(spng, data, tmp):
    """Frames of an APNG composited by the APNG 1.0 rules, libspng decoding each frame's data."""
    ihdr, pre, frames, current = None, [], [], None
    num_frames = None
    for kind, payload in chunks(data):
        if kind == b"IHDR":
            ihdr = payload
        elif kind in (b"PLTE", b"tRNS"):
            pre.append(chunk(kind, payload))
        elif kind == b"acTL":
            num_frames = struct.unpack(">I", payload[:4])[0]
        elif kind == b"fcTL":
            _, w, h, x, y, _, _, dispose, blend = struct.unpack(">IIIIIHHBB", payload)
            current = {"rect": (x, y, w, h), "dispose": dispose, "blend": blend, "data": b""}
            frames.append(current)
        elif kind == b"IDAT" and current is not None:
            current["data"] += payload
        elif kind == b"fdAT" and current is not None:
            current["data"] += payload[4:]
    W, H = struct.unpack(">II", ihdr[:8])
    canvas = np.zeros((H, W, 4))
    out = []
    for f in frames:
        x, y, w, h = f["rect"]
        header = struct.pack(">II", w, h) + ihdr[8:]
        png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + b"".join(pre) + chunk(b"IDAT", f["data"]) + chunk(b"IEND", b"")
        decoded = spng_raw(spng, png, tmp)
        if decoded is None:
            return None, num_frames
        src = decoded[0]
        before = canvas.copy()
        region = canvas[y:y + h, x:x + w]
        if f["blend"] == 0:
            region[:] = src
        else:
            sa, da = src[:, :, 3:4], region[:, :, 3:4]
            oa = sa + da * (1 - sa)
            safe = np.where(oa == 0, 1, oa)
            rgb = (src[:, :, :3] * sa + region[:, :, :3] * da * (1 - sa)) / safe
            region[:, :, :3] = np.where(oa == 0, 0, rgb)
            region[:, :, 3:4] = oa
        out.append(canonical(canvas))
        if f["dispose"] == 1 or (f["dispose"] == 2 and len(out) == 1):
            canvas[y:y + h, x:x + w] = 0
        elif f["dispose"] == 2:
            canvas = before
    return out, num_frames


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool")
    ap.add_argument("--effort", type=int)
    ap.add_argument("--limit", type=int, default=0, help="at most N files per manifest (0: all)")
    args = ap.parse_args()
    root = CONF.parent
    tool = args.tool or next((str(p) for p in (root / ".build/release/imagecodecs", root / ".build/debug/imagecodecs")
                              if p.exists()), None)
    if tool is None:
        sys.exit("no imagecodecs binary: build it or pass --tool")
    corpus = corpus_root()
    spng = CHelper("spng_rgba", "spng")
    pngcheck = shutil.which("pngcheck")
    tmp = tempfile.mkdtemp(prefix="check_encoders.")
    counts = {"files": 0, "frames": 0, "pngcheck": 0, "sixteen": 0, "skipped": 0}
    failures = []
    deviating = deviations()
    try:
        for name, base in MANIFESTS:
            folder = CONF if base == "conf" else corpus
            if folder is None or not folder.exists():
                print("skip %s: no %s" % (name, base))
                continue
            rows = manifest_rows(name)
            for i, (rel, expected) in enumerate(sorted(rows.items())):
                if args.limit and i >= args.limit:
                    break
                src = folder / rel
                kind = deviating.get((name, rel))
                if not src.exists() or kind in ("static-only", "static-fallback", "frames-present"):
                    # static-only: its frames are checked from apng.tsv; the others: the reference
                    # refuses what we decode (deviations.tsv), so there is nothing to compare with.
                    counts["skipped"] += src.exists()
                    continue
                if kind == "apngdis":
                    # Pillow's OVER arithmetic differs from the APNG rules (deviations.tsv): the
                    # reference is then the source composited by the rules here, libspng decoding.
                    spec, _ = apng_frames(spng, src.read_bytes(), tmp)
                    expected = [("", sha(f)) for f in spec]
                out = Path(tmp) / "out.png"
                cmd = [tool, "encode", str(src), "-o", str(out), "--format", "png"]
                if args.effort is not None:
                    cmd += ["--effort", str(args.effort)]
                p = subprocess.run(cmd, capture_output=True, timeout=600)
                if p.returncode != 0:
                    failures.append("%s: encode failed: %s" % (rel, p.stderr.decode().strip()))
                    continue
                data = out.read_bytes()
                counts["files"] += 1
                if pngcheck:
                    if subprocess.run([pngcheck, "-q", str(out)], capture_output=True).returncode != 0:
                        failures.append("%s: pngcheck refuses our file" % rel)
                    else:
                        counts["pngcheck"] += 1
                if len(expected) == 1:
                    got = spng_raw(spng, data, tmp)
                    hashes = [sha(canonical(got[0]))] if got else None
                else:
                    frames, num = apng_frames(spng, data, tmp)
                    hashes = None if frames is None else [sha(f) for f in frames]
                    if num != len(expected):
                        failures.append("%s: acTL says %s frames, expected %d" % (rel, num, len(expected)))
                if hashes is None or hashes != [e[1] for e in expected]:
                    bad = "unreadable" if hashes is None else [i for i, (h, e) in enumerate(zip(hashes, expected)) if h != e[1]]
                    failures.append("%s: frames differ from the reference: %s" % (rel, bad))
                    continue
                counts["frames"] += len(expected)
                if len(expected) == 1 and (data[24] == 16 or src.read_bytes()[24:25] == b"\x10"):
                    a, b = spng_raw(spng, src.read_bytes(), tmp), spng_raw(spng, data, tmp)
                    if a and b:
                        fits = np.all(np.floor(a[0] * 65535 + 0.5).astype(np.uint32) % 257 == 0)
                        same = np.array_equal(np.floor(a[0] * 65535 + .5), np.floor(b[0] * 65535 + .5))
                        if not same or (b[1] != 16 and not fits):
                            failures.append("%s: 16-bit samples not kept (ours %d-bit)" % (rel, b[1]))
                        else:
                            counts["sixteen"] += 1
    finally:
        spng.close()
        shutil.rmtree(tmp, ignore_errors=True)
    print("encoded %d files; %d frames equal the references' (libspng, APNG rules); pngcheck accepted %s; "
          "16-bit sources kept exactly: %d; skipped (deviations.tsv): %d"
          % (counts["files"], counts["frames"], counts["pngcheck"] if pngcheck else "n/a (not installed)",
             counts["sixteen"], counts["skipped"]))
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

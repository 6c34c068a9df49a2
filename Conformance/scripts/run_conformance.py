#!/usr/bin/env python3
"""Conformance runner: drives the `imagecodecs` tool over the manifests and the corpus.

Checks, per format, through the command-line contract of DESIGN.md:
  hash   -- frame lines equal the manifest's (reference decoders); refused files exit 1 or 3;
  feed   -- for --chunk 1, 7, 4096, 65536 the frame lines equal `hash`'s, statuses only move
            readingHeader -> incomplete -> complete and never show invalidData on a valid file;
  cuts   -- a file cut at sampled lengths exits 1 or 3, or 0 with the whole file's frames when
            the cut keeps its end marker (never a crash, a trap or a hang);
  crash  -- every crasher exits 0, 1 or 3 within the time limit.

WebP: lossless, lossy (VP8, with or without ALPH) and mixed files are all compared (stills
against dwebp, animations against WebPAnimDecoder).

hostile -- issue 15's reproducers of every format (fixtures-hostile.tsv): frames or refusals as
            the references give them, the documented deviations refused, feed --chunk 1, 7, 50.

Usage: Conformance/scripts/run_conformance.py [--tool PATH] [--formats png,apng,gif,jpeg,webp,hostile] [--quick]
Build the tool first: swift build -c release --product imagecodecs
"""
import argparse, collections, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = os.path.dirname(os.path.dirname(HERE))
CORPUS = os.environ.get("IMAGECODECS_CORPUS", os.path.join(os.path.dirname(PROJECT), "shared", "corpus"))
MANIFESTS = {  # format -> [(manifest, root of its paths)]
    "png": [("png.tsv", CORPUS), ("fixtures-png.tsv", os.path.join(PROJECT, "Conformance"))],
    "apng": [("apng.tsv", CORPUS), ("fixtures-apng.tsv", os.path.join(PROJECT, "Conformance"))],
    "gif": [("gif.tsv", CORPUS), ("fixtures-gif.tsv", os.path.join(PROJECT, "Conformance"))],
    "jpeg": [("jpeg.tsv", CORPUS), ("fixtures-jpeg.tsv", os.path.join(PROJECT, "Conformance"))],
    "webp": [("webp.tsv", CORPUS), ("fixtures-webp.tsv", os.path.join(PROJECT, "Conformance")),
             ("fixtures-webp-lossy.tsv", os.path.join(PROJECT, "Conformance")),
             ("fixtures-webp-alpha-cut.tsv", os.path.join(PROJECT, "Conformance")),
             ("fixtures-webp-cve.tsv", os.path.join(PROJECT, "Conformance")),
             ("webp-anim.tsv", CORPUS), ("fixtures-webp-anim.tsv", os.path.join(PROJECT, "Conformance"))],
    # Issue 15's reproducers, every format (make_hostile_fixtures.py, make_hostile_manifests.py).
    "hostile": [("fixtures-hostile.tsv", os.path.join(PROJECT, "Conformance"))],
}
CRASHERS = {"hostile": None, "png": "crashers/png", "apng": None, "gif": "crashers/gif", "jpeg": "crashers/jpeg", "webp": "crashers/webp"}
# Paths the reference decoded only with a warning (jpeg.tsv column 5 `djpeg-warning`: libjpeg-turbo
# filled a truncated file or skipped junk); refusing one (exit 1 or 3) is counted, not a failure.
WARNED = set()
# Paths of fixtures-hostile.tsv whose column 5 `expect` names the error kind this library gives
# where the reference decodes (a documented deviation): `hash` must exit 1.
DEVIATED = {}
RANK = {"readingHeader": 0, "incomplete": 1}


def load(manifest):
    rows = collections.OrderedDict()
    path = os.path.join(PROJECT, "Conformance", "manifests", manifest)
    if not os.path.exists(path):
        return rows
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        if len(c) < 4 or c[0] == "path":
            continue
        rows.setdefault(c[0], [])
        if len(c) > 4 and c[4].endswith("warning"):
            WARNED.add(c[0])
        if len(c) > 4 and c[4] not in ("frames", "refused") and manifest == "fixtures-hostile.tsv":
            DEVIATED[c[0]] = c[4]
            continue
        if c[3] != "error":
            rows[c[0]].append("%s %s %s" % (c[1], c[2], c[3]))
    return rows


def deviations():
    """(manifest, path) -> kind, and path -> {frame: apngdis hash} (see manifests/deviations.tsv)."""
    kinds, apngdis = {}, collections.defaultdict(dict)
    base = os.path.join(PROJECT, "Conformance", "manifests")
    for line in open(os.path.join(base, "deviations.tsv")):
        c = line.rstrip("\n").split("\t")
        if not line.startswith("#") and len(c) >= 3:
            kinds[(c[0], c[1])] = c[2]
    for line in open(os.path.join(base, "disagreements.tsv")):
        c = line.rstrip("\n").split("\t")
        if c[0] == "apng" and len(c) >= 6 and c[4] == "apngdis" and c[2].isdigit():
            apngdis[c[1]][int(c[2])] = c[5]
    return kinds, apngdis


def repaired(manifest):
    """path -> frame lines giflib gives for a refused file after a minimal repair (manifest header)."""
    out, path = {}, None
    for line in open(os.path.join(PROJECT, "Conformance", "manifests", manifest)):
        if not line.startswith("#"):
            continue
        body = line[1:].strip()
        if ": " in body and body.split(": ")[0].startswith(("gif/", "fixtures/")):
            path = body.split(": ")[0]
        elif body.startswith("after ") and "frame(s): " in body:
            words = body.split("frame(s): ")[1].split()
            out[path] = [" ".join(words[i:i + 3]) for i in range(0, len(words) - 2, 3)]
    return out


def expectation(manifest, path, frames, kinds, apngdis):
    """What our `hash` must print: the manifest's lines, adjusted for a documented deviation."""
    kind = kinds.get((manifest, path))
    if kind == "repaired":
        return kind, repaired(manifest).get(path, [])
    if kind == "apngdis":
        return kind, ["%s %s %s" % (f.split()[0], f.split()[1], apngdis[path].get(i, f.split()[2]))
                      for i, f in enumerate(frames)]
    return kind, frames


def run(tool, *args, timeout=120):
    try:
        r = subprocess.run([tool, *args], capture_output=True, text=True, timeout=timeout)
        return r.returncode, r.stdout.splitlines()
    except subprocess.TimeoutExpired:
        return "timeout", []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=os.path.join(PROJECT, ".build", "release", "imagecodecs"))
    ap.add_argument("--formats", default="png,apng")
    ap.add_argument("--quick", action="store_true", help="feed only --chunk 4096 and fewer cuts")
    a = ap.parse_args()
    failures = 0
    kinds, apngdis = deviations()
    for fmt in a.formats.split(","):
        counts = collections.Counter()
        for manifest, root in MANIFESTS[fmt]:
            for path, frames in load(manifest).items():
                f = os.path.join(root, path)
                if not os.path.exists(f):
                    counts["absent"] += 1
                    continue
                rc, out = run(a.tool, "hash", f)
                kind, frames = expectation(manifest, path, frames, kinds, apngdis)
                if kind == "not-jpeg":
                    ok = rc == 0 and len(out) == 1
                    counts["documented deviation (%s)" % kind if ok else "different"] += 1
                    continue
                if kind in ("static-only", "static-fallback", "frames-present", "empty-frame"):
                    ok = rc == 0 and len(out) >= 1 and (kind not in ("static-fallback", "empty-frame") or len(out) == 1)
                    counts["documented deviation (%s)" % kind if ok else "different"] += 1
                    if not ok:
                        print("DIFF", manifest, path, "exit", rc)
                    continue
                if path in DEVIATED:
                    ok = rc == 1
                    counts["documented deviation (%s)" % DEVIATED[path] if ok else "different"] += 1
                    if not ok:
                        print("DIFF", manifest, path, "exit", rc)
                    continue
                if not frames:
                    ok = rc in (1, 3)
                    counts["refused as expected" if ok else "accepted, reference refuses"] += 1
                    if not ok:
                        print("DIFF", manifest, path, "exit", rc)
                    continue
                if path in WARNED and rc in (1, 3):
                    counts["refused or truncated, reference warned"] += 1
                    continue
                if rc == 0 and out == frames:
                    counts["equal, documented deviation (%s)" % kind if kind else "equal"] += 1
                else:
                    counts["different"] += 1
                    print("DIFF", manifest, path, "exit", rc)
                    continue
                for n in ([4096] if a.quick else [1, 7, 50] if fmt == "hostile" else [1, 7, 4096, 65536]):
                    frc, fout = run(a.tool, "feed", f, "--chunk", str(n))
                    updates = [l.split() for l in fout if len(l.split()) == 3 and l.split()[0].isdigit() and not "x" in l.split()[1]]
                    statuses = [u[1] for u in updates]
                    ranks = [RANK.get(s, 2) for s in statuses]
                    good = (frc == 0 and fout[len(updates):] == out and "invalidData" not in statuses
                            and ranks == sorted(ranks) and statuses[-1] == "complete")
                    counts["feed ok" if good else "feed different"] += 1
                    if not good:
                        print("FEED", n, path, "exit", frc, statuses[-3:])
                size = os.path.getsize(f)
                step = max(1, size // (4 if a.quick else 16))
                for cut in range(0, size, step):
                    with open("/tmp/imagecodecs-cut", "wb") as t:
                        t.write(open(f, "rb").read()[:cut])
                    crc, cout = run(a.tool, "hash", "/tmp/imagecodecs-cut", timeout=30)
                    # A cut that keeps the end marker (padding after it, say) may decode whole.
                    good = crc in (1, 3) or (crc == 0 and cout == out)
                    counts["cut ok" if good else "cut bad"] += 1
                    if not good:
                        print("CUT", path, cut, "exit", crc)
        if CRASHERS.get(fmt):
            folder = os.path.join(CORPUS, CRASHERS[fmt])
            for dirpath, _, names in os.walk(folder):
                for name in sorted(names):
                    if name.endswith((".md", ".tsv")):
                        continue
                    rc, _ = run(a.tool, "hash", os.path.join(dirpath, name), timeout=30)
                    counts["crasher handled" if rc in (0, 1, 3) else "crasher BAD"] += 1
                    if rc not in (0, 1, 3):
                        print("CRASH", name, rc)
        print(fmt + ":", ", ".join("%s %d" % kv for kv in sorted(counts.items())))
        failures += sum(v for k, v in counts.items() if k in ("different", "accepted, reference refuses",
                                                             "feed different", "cut bad", "crasher BAD"))
    print("%d passed, %d failed" % (0 if failures else 1, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

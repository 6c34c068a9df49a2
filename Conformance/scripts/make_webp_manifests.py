#!/usr/bin/env python3
"""Make the ImageCodecs WebP conformance manifests from the REFERENCE decoder.

Never uses the project's own decoder. Reference: libwebp's `dwebp -pam FILE -o OUT` (the
WebPDecodeRGBA output: RGBA, straight alpha, default fancy upsampling for lossy files), made
canonical: RGBA8 with every pixel whose alpha is 0 written as 0,0,0,0, SHA-256.

Every corpus PAM is also checked against the corpus' own webp/GENERATED-dwebp-md5.tsv (the md5
of the same dwebp command's PAM when the corpus was assembled); webp.tsv's header gives the
counts and every disagreement.

Animated files (VP8X with the animation flag) have their own manifests, from libwebp's
WebPAnimDecoder (scripts/webp_anim.c, compiled with `cc -O2 webp_anim.c -lwebpdemux`): every
composited frame's canonical hash (webp-anim.tsv, fixtures-webp-anim.tsv), and Pillow's frame
count, loop count and durations (webp-anim-info.tsv, fixtures-webp-anim-info.tsv).

Usage (from anywhere):
  python3 Conformance/scripts/make_webp_manifests.py            # corpus (if present) + fixtures
  python3 Conformance/scripts/make_webp_manifests.py corpus     # webp.tsv, crashers-webp.tsv
  python3 Conformance/scripts/make_webp_manifests.py fixtures   # fixtures-webp.tsv

Corpus root: $IMAGECODECS_CORPUS, else <project root>/../shared/corpus. webp.tsv covers every
still (not animated) *.webp under webp/; animated files need WebPAnimDecoder as reference and are
left for the animation manifest.

Manifest rows (TSV, '#' lines are comments):
  path <TAB> 0 <TAB> WxH <TAB> sha256 <TAB> bitstream <TAB> note
  path <TAB> - <TAB> -   <TAB> error  <TAB> bitstream <TAB> dwebp's message
bitstream: what the RIFF chunk walk finds: `VP8L` (lossless), `VP8` (lossy), `VP8+ALPH` (lossy with
an alpha chunk), or `none`. The first four columns are those of every other manifest.
"""

import hashlib
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ beside the scripts
sys.path.insert(0, str(Path(__file__).resolve().parent))
from manifest_common import (  # noqa: E402
    CONF, FIXTURES, FRAME_COLUMNS, MANIFESTS, CHelper, clean, corpus_with, files_under, indented, limits,
    manifests_to_make, sha, write_tsv)

DWEBP = "dwebp"
COLUMNS = FRAME_COLUMNS + ["bitstream", "note"]


# --------------------------------------------------------------------------
# RIFF chunk walk (RFC 9649 section 2). No bitstream decoding.

def riff_chunks(data):
    """-> [(fourcc, payload bytes)] of a RIFF/WEBP file, or None when it is not one; a chunk cut
    off by the end of the data is listed with what is there."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    end = min(len(data), 8 + struct.unpack("<I", data[4:8])[0])
    out, pos = [], 12
    while pos + 8 <= end:
        size = struct.unpack("<I", data[pos + 4:pos + 8])[0]
        out.append((data[pos:pos + 4].decode("latin-1"), data[pos + 8:pos + 8 + size]))
        pos += 8 + size + (size & 1)
    return out


def bitstream_kind(chunks):
    names = [c for c, _ in chunks or []]
    if "ANIM" in names or "ANMF" in names:
        return "animated"
    if "VP8L" in names:
        return "VP8L"
    if "VP8 " in names:
        return "VP8+ALPH" if "ALPH" in names else "VP8"
    return "none"


def vp8l_header(payload):
    """-> 'WxH alpha=A' from a VP8L payload's 5-byte header, or None."""
    if len(payload) < 5 or payload[0] != 0x2F:
        return None
    bits = int.from_bytes(payload[1:5], "little")
    return "%dx%d alpha=%d version=%d" % ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, (bits >> 28) & 1, bits >> 29)


# --------------------------------------------------------------------------
# dwebp reference

def dwebp_version():
    v = subprocess.run([DWEBP, "-version"], capture_output=True, text=True).stdout.strip()
    pkg = subprocess.run(["sh", "-c", "dpkg-query -W -f='${Version}' webp 2>/dev/null || true"],
                         capture_output=True, text=True).stdout.strip()
    return "libwebp dwebp %s (Debian package webp %s)" % (v, pkg or "unknown")


def parse_pam(data):
    """dwebp's PAM ('P7 ... TUPLTYPE RGB_ALPHA ENDHDR') -> (width, height, rgba) or None."""
    head, sep, body = data.partition(b"ENDHDR\n")
    if not sep or not head.startswith(b"P7\n"):
        return None
    fields = dict(line.split(b" ", 1) for line in head.split(b"\n")[1:] if b" " in line)
    w, h = int(fields[b"WIDTH"]), int(fields[b"HEIGHT"])
    if fields.get(b"DEPTH") != b"4" or fields.get(b"MAXVAL") != b"255" or len(body) != w * h * 4:
        return None
    return w, h, body


def canonical(rgba):
    """Straight RGBA8 -> canonical bytes: a pixel whose alpha is 0 becomes 0,0,0,0."""
    out = bytearray(rgba)
    for i in range(3, len(out), 4):
        if out[i] == 0:
            out[i - 3:i] = b"\0\0\0"
    return bytes(out)


def dwebp(path):
    """-> dict(status ok|error|timeout|crash, size, sha, md5 (of the PAM), msg)"""
    with tempfile.TemporaryDirectory(prefix="dwebp.") as tmp:
        out = os.path.join(tmp, "out.pam")
        try:
            p = subprocess.run([DWEBP, "-pam", str(path), "-o", out], capture_output=True, timeout=60,
                               preexec_fn=limits)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "msg": "timeout after 60 s"}
        msg = clean(p.stderr.decode("utf-8", "replace").strip()).replace(str(path), Path(path).name)
        if p.returncode < 0:
            return {"status": "crash", "msg": "signal %d" % -p.returncode}
        if p.returncode != 0 or not os.path.exists(out):
            return {"status": "error", "msg": msg or "exit %d" % p.returncode}
        data = Path(out).read_bytes()
    pam = parse_pam(data)
    if pam is None:
        return {"status": "error", "msg": "dwebp wrote no RGBA PAM: " + msg}
    w, h, rgba = pam
    return {"status": "ok", "size": "%dx%d" % (w, h), "sha": sha(canonical(rgba)),
            "md5": hashlib.md5(data).hexdigest(), "msg": ""}


# --------------------------------------------------------------------------
# Manifests

def read_generated_md5(root):
    """corpus webp/GENERATED-dwebp-md5.tsv -> {path under webp/: md5 of `dwebp -pam` or 'ERR'}"""
    f = root / "webp" / "GENERATED-dwebp-md5.tsv"
    if not f.is_file():
        return None
    out = {}
    for line in f.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("file\t"):
            continue
        c = line.split("\t")
        if len(c) >= 2:
            out[c[0]] = c[1]
    return out


def frame_manifest(files, base, out, title, notes=None, generated=None, gen_prefix=""):
    rows, errors, kinds, disagree = [], [], {}, []
    check = {"equal": 0, "both refuse": 0, "absent": 0}
    for f in files:
        rel = f.relative_to(base).as_posix()
        chunks = riff_chunks(f.read_bytes())
        kind = bitstream_kind(chunks)
        if kind == "animated":
            continue
        kinds[kind] = kinds.get(kind, 0) + 1
        r = dwebp(f)
        if generated is not None:
            g = generated.get(rel[len(gen_prefix):])
            if g is None:
                check["absent"] += 1
                disagree.append("%s: not in GENERATED-dwebp-md5.tsv" % rel)
            elif g == "ERR" and r["status"] != "ok":
                check["both refuse"] += 1
            elif g == r.get("md5"):
                check["equal"] += 1
            else:
                disagree.append("%s: GENERATED %s, now %s" % (rel, g, r.get("md5", r["status"])))
        note = [n for n in [(notes or {}).get(rel)] if n]
        vp8l = [p for c, p in chunks or [] if c == "VP8L"]
        if vp8l and vp8l_header(vp8l[0]):
            note.append("VP8L " + vp8l_header(vp8l[0]))
        if r["status"] != "ok":
            rows.append((rel, "-", "-", "error", kind, "; ".join(note + [r["msg"]])))
            errors.append("%s: %s" % (rel, r["msg"]))
            continue
        rows.append((rel, 0, r["size"], r["sha"], kind, "; ".join(note) or "-"))
    header = [
        title,
        "Reference: %s: `dwebp -pam FILE -o OUT` (WebPDecodeRGBA: straight RGBA; fancy upsampling" % dwebp_version(),
        "  for lossy), made canonical: RGBA8, a pixel with alpha 0 written as 0,0,0,0, SHA-256. One frame (0).",
        "Animated files are not listed (their reference is WebPAnimDecoder). Column bitstream: VP8L, VP8,",
        "  VP8+ALPH or none, from the RIFF chunk walk; note: how a fixture was made, and the VP8L header.",
        "Made by Conformance/scripts/make_webp_manifests.py. Files: %d (%s), decoded: %d, error: %d."
        % (len(rows), ", ".join("%s %d" % kv for kv in sorted(kinds.items())), len(rows) - len(errors), len(errors)),
    ]
    if generated is not None:
        header += [
            "Cross-check with the corpus' webp/GENERATED-dwebp-md5.tsv (md5 of the PAM of the same dwebp command,",
            "  made when the corpus was assembled): equal md5: %d, both refuse: %d, disagreeing: %d."
            % (check["equal"], check["both refuse"], len(disagree)),
        ] + indented(disagree)
    header += ["dwebp errors:"] + (indented(errors) or ["  (none)"])
    write_tsv(out, header, COLUMNS, rows)
    if generated is not None:
        print("GENERATED-dwebp-md5 cross-check: %d equal, %d both refuse, %d disagreeing"
              % (check["equal"], check["both refuse"], len(disagree)))
        for d in disagree:
            print("  " + d)


# --------------------------------------------------------------------------
# Animations: WebPAnimDecoder (scripts/webp_anim.c) and Pillow

class AnimDecoder(CHelper):
    def __init__(self):
        super().__init__("webp_anim", "webpdemux")

    def run(self, path):
        """-> dict(status ok|error|crash|timeout, msg, header 'W H FRAMES LOOP BGCOLOR', frames [(WxH, sha, ts)])"""
        p, msg, failed = self.execute(str(path))
        if failed:
            return dict(failed, frames=[], header=None)
        out, frames, header = p.stdout, [], None
        nl = out.find(b"\n")
        if nl >= 0 and out.startswith(b"anim "):
            header = out[5:nl].decode()
            w, h = (int(v) for v in header.split()[:2])
            pos = nl + 1
            while pos < len(out):
                nl = out.index(b"\n", pos)
                ts = int(out[pos:nl].split()[2])
                pix = out[nl + 1:nl + 1 + w * h * 4]
                frames.append(("%dx%d" % (w, h), sha(pix), ts))
                pos = nl + 1 + w * h * 4
        status = "ok" if p.returncode == 0 else "error"
        return {"status": status, "msg": msg, "header": header, "frames": frames}


def pillow_anim(path):
    """-> dict(ok, n, loop, durations [ms], error)"""
    try:
        from PIL import Image
        with Image.open(path) as im:
            n = getattr(im, "n_frames", 1)
            durations = []
            for i in range(n):
                im.seek(i)
                im.load()       # WebPImagePlugin sets info['duration'] when the frame is read
                durations.append(int(im.info.get("duration", 0)))
            return {"ok": True, "n": n, "loop": im.info.get("loop", 1), "durations": durations}
    except Exception as e:  # noqa: BLE001 - any refusal is a verdict
        return {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}


def anim_manifests(files, base, frames_out, info_out, title, notes=None):
    anim = AnimDecoder()
    rows, info_rows = [], []
    try:
        for f in files:
            data = f.read_bytes()
            if bitstream_kind(riff_chunks(data)) != "animated":
                continue
            rel = f.relative_to(base).as_posix()
            r = anim.run(f)
            note = (notes or {}).get(rel, "")
            if r["status"] != "ok":
                rows.append((rel, "-", "-", "error", clean(r["msg"] or r["status"])))
            for i, (size, digest, ts) in enumerate(r["frames"]):
                rows.append((rel, i, size, digest, clean(("end %d ms; " % ts) + (note if i == 0 else ""))))
            p = pillow_anim(f)
            extra = "WebPAnimDecoder: %s" % (r["header"] or r["status"])
            if p["ok"]:
                info_rows.append((rel, p["n"], p["loop"], ",".join(str(d) for d in p["durations"]), extra))
            else:
                info_rows.append((rel, "-", "-", "-", clean(p["error"] + "; " + extra)))
    finally:
        anim.close()
    from manifest_common import pillow_version
    write_tsv(frames_out, [
        title,
        "Reference: libwebp WebPAnimDecoder (libwebpdemux, Debian package libwebp-dev) via scripts/webp_anim.c,",
        "  MODE_RGBA: every composited frame (full canvas), canonical RGBA8 (alpha 0 -> 0,0,0,0), SHA-256.",
        "  An error row (frame '-') means WebPAnimDecoder refused the file or a frame; frames before it are listed.",
    ], COLUMNS[:4] + ["note"], rows)
    write_tsv(info_out, [
        title,
        "Frame count, loop count and durations. Reference: %s WebPImagePlugin: n_frames, info['loop']" % pillow_version(),
        "  (ANIM loop count, 0 = forever), info['duration'] after seek(i) in ms (ANMF duration as stored).",
        "  note: WebPAnimDecoder's 'W H FRAMES LOOP BGCOLOR' for the same file.",
    ], ["path", "frameCount", "loopCount", "durations", "note"], info_rows)


def do_corpus():
    root = corpus_with("webp")
    if root is None:
        return
    files = files_under(root / "webp", suffixes=(".webp",))
    title = "WebP corpus manifest: every still *.webp under webp/ (paths relative to the corpus root)."
    generated = read_generated_md5(root)
    if generated is None:
        print("no webp/GENERATED-dwebp-md5.tsv in the corpus; no cross-check")
    frame_manifest(files, root, MANIFESTS / "webp.tsv", title, generated=generated, gen_prefix="webp/")
    anim_manifests(files, root, MANIFESTS / "webp-anim.tsv", MANIFESTS / "webp-anim-info.tsv",
                   "WebP corpus animations: every animated *.webp under webp/ (paths relative to the corpus root).")


def do_crashers():
    """crashers-webp.tsv: dwebp's verdict on each crashers/webp/**.webp, with the canonical hash
    when it decodes (the tests require no trap, and the same pixels where dwebp decodes a VP8L)."""
    root = corpus_with("crashers/webp")
    if root is None:
        return
    rows = []
    for f in files_under(root / "crashers" / "webp", suffixes=(".webp",)):
        chunks = riff_chunks(f.read_bytes())
        r = dwebp(f)
        detail = "%s %s" % (r["size"], r["sha"]) if r["status"] == "ok" else r["msg"]
        rows.append((f.relative_to(root).as_posix(), "ok" if r["status"] == "ok" else "error",
                     bitstream_kind(chunks) if chunks is not None else "not-riff", clean(detail)))
    n_ok = sum(1 for r in rows if r[1] == "ok")
    write_tsv(MANIFESTS / "crashers-webp.tsv", [
        "Crasher inputs under crashers/webp (paths relative to the corpus root): dwebp's verdict. The test",
        "requires no crash, hang or unbounded allocation, and, for a VP8L file dwebp decodes, the same pixels.",
        "Reference: %s, `dwebp -pam`; detail: 'WxH sha256' (canonical) when ok, else its message." % dwebp_version(),
        "Column bitstream as in webp.tsv, or not-riff. Files: %d, ok: %d, error: %d." % (len(rows), n_ok, len(rows) - n_ok),
    ], ["path", "dwebp", "bitstream", "detail"], rows)


def do_fixtures():
    files = files_under(FIXTURES / "webp", suffixes=(".webp",))
    if not files:
        print("no WebP fixtures in %s (run scripts/make_webp_fixtures.sh)" % (FIXTURES / "webp"))
        return
    notes = {}
    recipe = FIXTURES / "webp" / "RECIPES.tsv"
    if recipe.is_file():
        for line in recipe.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                name, how = line.split("\t", 1)
                notes["fixtures/webp/" + name] = clean(how)
    title = "Generated WebP fixtures (paths relative to Conformance/); made by scripts/make_webp_fixtures.sh."
    frame_manifest(files, CONF, MANIFESTS / "fixtures-webp.tsv", title, notes=notes)
    anim_manifests(files, CONF, MANIFESTS / "fixtures-webp-anim.tsv", MANIFESTS / "fixtures-webp-anim-info.tsv",
                   "Generated animated WebP fixtures (paths relative to Conformance/); made by scripts/make_webp_fixtures.sh.",
                   notes=notes)


def main(argv):
    what = manifests_to_make(argv, __doc__)
    if what is None:
        return 2
    if what in ("all", "corpus"):
        do_corpus()
        do_crashers()
    if what in ("all", "fixtures"):
        do_fixtures()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

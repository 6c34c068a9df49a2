"""What the conformance scripts share: paths and the corpus root, the command line, canonical
hashes, manifest (TSV) writing, file walking, the C reference helpers (compiled into a
temporary directory, run under limits) and their versions, and Pillow's canonical frames.

Used by make_manifests.py and make_gif_manifests.py, and through them by make_fixtures.py and
make_gif_fixtures.py. Never uses the project's own decoder.
"""

import hashlib
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
CONF = SCRIPTS.parent                                  # .../Conformance
PROJECT = CONF.parent
MANIFESTS = CONF / "manifests"
FIXTURES = CONF / "fixtures"

# ImageMagick's convert, for the fixtures.
CONVERT = os.environ.get("CONVERT", "convert")

FRAME_COLUMNS = ["path", "frame", "size", "sha256"]
DISAGREEMENT_COLUMNS = ["kind", "path", "frame", "manifest", "other", "other_value", "note"]


# --------------------------------------------------------------------------
# Corpus and command line

def corpus_root():
    env = os.environ.get("IMAGECODECS_CORPUS")
    return Path(env) if env else (PROJECT.parent / "shared" / "corpus").resolve()


def corpus_with(folder):
    """The corpus root when it has `folder`, else None (after saying that the corpus
    manifests are skipped)."""
    root = corpus_root()
    if not (root / folder).is_dir():
        print("corpus not found at %s (set IMAGECODECS_CORPUS); skipping corpus manifests" % root)
        return None
    print("corpus: %s" % root)
    return root


def manifests_to_make(argv, usage):
    """make_*manifests.py [all|corpus|fixtures] -> that word ('all' when none is given), or
    None after printing `usage`."""
    what = argv[1] if len(argv) > 1 else "all"
    if what not in ("all", "corpus", "fixtures"):
        print(usage)
        return None
    return what


def fresh_fixture_dirs(argv, usage, *names):
    """make_*fixtures.py OUT_DIR -> [OUT_DIR/name for each name], each emptied and made again,
    or None after printing `usage`."""
    if len(argv) != 2:
        print(usage)
        return None
    out = Path(argv[1]).resolve()
    dirs = [out / name for name in names]
    for d in dirs:
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
    return dirs


def files_under(*dirs, suffixes, pattern="*"):
    """Files below the directories that exist whose name matches `pattern` and whose suffix,
    lowercased, is one of `suffixes`; sorted by path."""
    out = []
    for d in dirs:
        if d.is_dir():
            out += [p for p in d.rglob(pattern) if p.is_file() and p.suffix.lower() in suffixes]
    return sorted(out, key=lambda p: p.as_posix())


# --------------------------------------------------------------------------
# Hashes and manifests

def sha(b):
    return hashlib.sha256(b).hexdigest()


def clean(s):
    """One TSV cell: no tabs, no line breaks."""
    return s.replace("\t", " ").replace("\n", " | ")


def indented(lines):
    return ["  " + line for line in lines]


def write_tsv(path, header_lines, columns, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in header_lines:
            f.write("# " + line + "\n" if line else "#\n")
        f.write("# " + "\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(str(c) for c in r) + "\n")
    print("wrote %s (%d rows)" % (path.relative_to(PROJECT), len(rows)))


def write_crashers(root, kind, tool, verdict, reference):
    """manifests/crashers-KIND.tsv: for each crashers/KIND/**.KIND file, verdict(path) ->
    (verdict, detail); `reference` are the header lines that name the reference."""
    rows = []
    for f in files_under(root / "crashers" / kind, suffixes=("." + kind,)):
        v, detail = verdict(f)
        rows.append((f.relative_to(root).as_posix(), v, clean(detail)))
    n_ok = sum(1 for r in rows if r[1] == "ok")
    write_tsv(MANIFESTS / ("crashers-%s.tsv" % kind), [
        "Crasher inputs under crashers/%s (paths relative to the corpus root): %s verdict, informational"
        % (kind, tool),
        "only; the test requires no crash, hang or unbounded allocation, and either an error or an image.",
    ] + reference + [
        "Files: %d, ok: %d, error: %d." % (len(rows), n_ok, len(rows) - n_ok),
    ], ["path", tool, "detail"], rows)


# --------------------------------------------------------------------------
# C reference helpers

def limits():
    """preexec_fn of every reference run: 4 GiB of address space."""
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def library_version(name, package, header, macros):
    """'NAME X.Y.Z (Debian package V)': the version in the library's header (`macros`, joined
    by dots) and the version of its Debian package."""
    out = subprocess.run(
        ["sh", "-c", "dpkg-query -W -f='${Version}' %s 2>/dev/null || true" % package],
        capture_output=True, text=True).stdout.strip()
    hdr = subprocess.run(
        ["sh", "-c", "printf '#include <%s>\\n%s\\n' | cc -E -P - | tail -1" % (header, macros)],
        capture_output=True, text=True).stdout.strip().replace(" ", "")
    return "%s %s (Debian package %s)" % (name, hdr, out or "unknown")


class CHelper:
    """scripts/NAME.c compiled with `cc -O2 NAME.c -lLIB` into a temporary directory."""

    def __init__(self, name, lib):
        self.tmp = tempfile.mkdtemp(prefix=name + ".")
        self.exe = os.path.join(self.tmp, name)
        subprocess.run(["cc", "-O2", "-o", self.exe, str(SCRIPTS / (name + ".c")), "-l" + lib], check=True)

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def execute(self, *args):
        """Runs the helper (60 s, `limits`) -> (process, stderr text, None), or
        (None, None, dict(status='timeout'|'crash', msg)) when it timed out or died of a signal."""
        try:
            p = subprocess.run([self.exe, *args], capture_output=True, timeout=60, preexec_fn=limits)
        except subprocess.TimeoutExpired:
            return None, None, {"status": "timeout", "msg": "timeout after 60 s"}
        msg = p.stderr.decode("utf-8", "replace").strip()
        if p.returncode < 0:
            return None, None, {"status": "crash", "msg": "signal %d" % -p.returncode}
        return p, msg, None


# --------------------------------------------------------------------------
# Pillow

def pillow_version():
    import PIL
    return "Pillow %s (Python %s)" % (PIL.__version__, sys.version.split()[0])


def canonical_from_pillow(im):
    """Canonical RGBA8 bytes of Pillow's current (composited) frame."""
    from PIL import Image
    mode = im.mode
    w, h = im.size
    if mode in ("I;16", "I;16B", "I;16L", "I"):
        # Pillow's I;16 -> RGBA conversion clamps (v >= 255 -> 255); do v >> 8 here.
        vals = list(struct.unpack(">%dH" % (w * h), im.tobytes("raw", "I;16B")))
        trns = im.info.get("transparency")
        out = bytearray(w * h * 4)
        for i, v in enumerate(vals):
            if trns is not None and v == trns:
                continue
            g = v >> 8
            out[4 * i:4 * i + 4] = bytes((g, g, g, 255))
        return bytes(out)
    rgba = im.convert("RGBA")
    alpha = rgba.getchannel("A")
    mask = alpha.point(lambda a: 255 if a else 0)
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    canvas.paste(rgba, (0, 0), mask)
    return canvas.tobytes()
